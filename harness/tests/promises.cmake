# What the briefs' "Asio notes" promise of the client and the judge (threads, instants, the
# param-server's held gradients), relied on by correct programs that check it as they run: a
# broken promise throws or shows as a violation, and the test fails. The semaphore and the
# parallel group in them are the briefs' own lines. Included from CMakeLists.txt, after the
# functions it uses.
include(${CMAKE_CURRENT_SOURCE_DIR}/brief_code.cmake)

# overlap_promise(<world> <source> EXIT <code> [GENERATED] CHECKS ...): graded correct, with no
# violation, and the checks hold (on the default generated set too, with GENERATED).
function(overlap_promise world source)
  cmake_parse_arguments(ARG "GENERATED" "EXIT" "CHECKS" ${ARGN})
  get_filename_component(stem ${source} NAME_WE)
  set(generated "")
  if(ARG_GENERATED)
    set(generated GENERATED)
  endif()
  overlap_add_submission(promise-${world}-${stem} WORLD ${world} SOURCE ${source})
  overlap_grade_test(promise.${world}.${stem} LABEL solution GRADER promise-${world}-${stem}
    EXIT ${ARG_EXIT} ${generated} CHECKS -DCORRECT=ON -DKINDS= ${ARG_CHECKS})
endfunction()
set(promises ${CMAKE_CURRENT_SOURCE_DIR}/promises)

# Threads (a handler on train's thread, or on the pool it is bound to), one instant (the pulls
# that end together, a refused call after what was posted): the starter's rounds, to its makespans.
overlap_promise(param-server ${promises}/param-server/threads_and_instants.cpp EXIT 1 GENERATED
  CHECKS -DVERDICT=slow "-DMAKESPANS=${starter_pins_param-server}")
# The 0 ms optimizer steps, called at once: the starter's makespans.
overlap_promise(pipeline ${promises}/pipeline/zero_ms_instant.cpp EXIT 1 GENERATED
  CHECKS -DVERDICT=slow "-DMAKESPANS=${starter_pins_pipeline}")
# A compute cancelled as it starts: the starter's makespans.
overlap_promise(grad-accum ${promises}/grad-accum/cancel_instant.cpp EXIT 1 GENERATED
  CHECKS -DVERDICT=slow "-DMAKESPANS=${starter_pins_grad-accum}")
# Every rank on one thread: the reference, checking its thread at its start and after its
# operations, as fast as ever.
overlap_variant(fsdp ranks_on_one_thread EXIT 0 LABEL solution GENERATED
  REPLACE "#include <vector>" "#include <stdexcept>\n#include <thread>\n#include <vector>"
    "awaitable<void> train(fsdp::Rank& rank) {"
    "// Every rank's train, and every handler of theirs, runs on the thread of the first.\nvoid on_train_thread() {\n  static const std::thread::id first = std::this_thread::get_id()<semicolon>\n  if (std::this_thread::get_id() != first) {\n    throw std::logic_error(\"broken promise: two threads run the ranks' code\")<semicolon>\n  }\n}\n\nawaitable<void> train(fsdp::Rank& rank) {\n  on_train_thread()<semicolon>"
    "      co_await rank.async_forward(l, use_awaitable)<semicolon>"
    "      co_await rank.async_forward(l, use_awaitable)<semicolon>\n      on_train_thread()<semicolon>"
    "      co_await rank.async_backward(l, use_awaitable)<semicolon>"
    "      co_await rank.async_backward(l, use_awaitable)<semicolon>\n      on_train_thread()<semicolon>"
    "      co_await rank.async_reduce_scatter(l, use_awaitable)<semicolon>"
    "      co_await rank.async_reduce_scatter(l, use_awaitable)<semicolon>\n      on_train_thread()<semicolon>"
  CHECKS -DVERDICT=optimal -DCORRECT=ON -DKINDS= "-DMAKESPANS=${solution_pins_fsdp}")

# Held gradients, with the param-server brief's semaphore guarding the server and its parallel
# group joining the workers: its lines are put into the program here.
set(brief ${PROJECT_SOURCE_DIR}/exercises/param-server/README.md)
if(EXISTS ${brief})
  overlap_brief_code(${brief} code)
  if(NOT code_count EQUAL 2)
    message(FATAL_ERROR "${brief}: its Asio notes have ${code_count} code blocks, not 2 (the "
                        "semaphore, then the parallel group)")
  endif()
  if(NOT code_1 MATCHES "^([^\n]*)\n([^\n]*)\n([^\n]*)\n$")
    message(FATAL_ERROR "${brief}: its semaphore is not three lines (declare, acquire, release)")
  endif()
  set(SEMAPHORE_DECLARE "${CMAKE_MATCH_1}")
  set(SEMAPHORE_ACQUIRE "${CMAKE_MATCH_2}")
  set(SEMAPHORE_RELEASE "${CMAKE_MATCH_3}")
  set(PARALLEL_GROUP "${code_2}")
  set(source ${CMAKE_CURRENT_BINARY_DIR}/promises/param-server/holds_gradients.cpp)
  configure_file(${promises}/param-server/holds_gradients.cpp.in ${source} @ONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${brief})
  overlap_promise(param-server ${source} EXIT 1 GENERATED)
endif()

# The four briefs' notes hold the same code; the check itself fails on a brief that drifted.
set(briefs "")
foreach(exercise IN LISTS OVERLAP_EXERCISES)
  list(APPEND briefs ${PROJECT_SOURCE_DIR}/exercises/${exercise}/README.md)
endforeach()
list(JOIN briefs "," briefs)
add_test(NAME unit.brief-code COMMAND ${CMAKE_COMMAND} -DBRIEFS=${briefs}
                                      -P ${CMAKE_CURRENT_SOURCE_DIR}/same_brief_code.cmake)
set_tests_properties(unit.brief-code PROPERTIES LABELS unit)
if(EXISTS ${brief})
  add_test(NAME unit.brief-code-drifted COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=${CMAKE_COMMAND};-DBRIEFS=${brief},${promises}/drifted_brief.md;-P;${CMAKE_CURRENT_SOURCE_DIR}/same_brief_code.cmake"
    -DEXIT=1 "-DOUTPUT_MATCHES=drifted_brief.md: code block 1 of its Asio notes differs"
    -P ${expect_exit})
  set_tests_properties(unit.brief-code-drifted PROPERTIES LABELS unit)
endif()
