# The interviewer guides against the grader (label `guide`): each guide's checked tables equal
# the reports of the tests they name, its card fits a printed page and quotes every hint, and its
# "find the bug" program is rejected as the guide says. Included from CMakeLists.txt, after every
# grading test is defined.

add_executable(overlap-guide-figures guide_figures.cpp)
target_link_libraries(overlap-guide-figures PRIVATE Boost::json fmt::fmt)

# overlap_find_the_bug(<world> EXIT <code> CHECKS ...): guides/find-the-bug/<world>.cpp, the wrong
# program a fast candidate reads, graded as its guide says.
function(overlap_find_the_bug world)
  cmake_parse_arguments(ARG "" "EXIT" "CHECKS" ${ARGN})
  overlap_add_submission(find-the-bug-${world} WORLD ${world}
    SOURCE ${PROJECT_SOURCE_DIR}/guides/find-the-bug/${world}.cpp)
  overlap_grade_test(find-the-bug.${world} LABEL mutant GRADER find-the-bug-${world}
    EXIT ${ARG_EXIT} CHECKS ${ARG_CHECKS})
endfunction()

foreach(exercise IN LISTS OVERLAP_EXERCISES)
  include(${CMAKE_CURRENT_SOURCE_DIR}/guides/${exercise}.cmake OPTIONAL)
  add_test(NAME guide.${exercise}
    COMMAND overlap-guide-figures ${exercise} ${PROJECT_SOURCE_DIR}/guides/${exercise}.md
            ${PROJECT_SOURCE_DIR}/guides/hints/${exercise}.md ${CMAKE_CURRENT_BINARY_DIR}
            ${PROJECT_SOURCE_DIR})
  set_tests_properties(guide.${exercise} PROPERTIES LABELS guide
                       FIXTURES_REQUIRED graded-${exercise})
endforeach()

# The checker itself rejects what is wrong: a guide with one wrong figure of each kind.
if(TARGET grade-pipeline-solution)
  add_test(NAME guide.checker-rejects
    COMMAND ${CMAKE_COMMAND}
      "-DCOMMAND=$<TARGET_FILE:overlap-guide-figures>;pipeline;${CMAKE_CURRENT_SOURCE_DIR}/guides/wrong_figures.md;${PROJECT_SOURCE_DIR}/guides/hints/pipeline.md;${CMAKE_CURRENT_BINARY_DIR};${PROJECT_SOURCE_DIR}"
      -DEXIT=1
      "-DOUTPUT_MATCHES=does not quote hint 2.*row default, column baseline per step: the guide says 961, the grader 960.*row default, column pass ≤ per step: the guide says 1.50×.*row default, column reference: the guide says pass, the grader optimal.*row deep, column stages: 9 is none of the scenario's parameters.*the grader reported no deadlock \\(it reported: out-of-memory\\).*no_such_file.cpp is no program of the kit"
      -P ${expect_exit})
  set_tests_properties(guide.checker-rejects PROPERTIES LABELS guide
                       FIXTURES_REQUIRED graded-pipeline)
endif()

# ... and a guide whose printed pages lack what the table needs: an intro of three sentences,
# predictions without a question, a follow-up question without its weak answer; and whose words
# no longer take the preparation time guides/README.md gives.
add_test(NAME guide.checker-rejects-pages
  COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=$<TARGET_FILE:overlap-guide-figures>;pipeline;${CMAKE_CURRENT_SOURCE_DIR}/guides/wrong_pages.md;${PROJECT_SOURCE_DIR}/guides/hints/pipeline.md;${CMAKE_CURRENT_BINARY_DIR};${PROJECT_SOURCE_DIR}"
    -DEXIT=1
    "-DOUTPUT_MATCHES=the card's intro has 3 sentences, not two.*the card asks no predictions.*page two: follow-up question 2 has no \\*Weak:\\* answer.*pipeline takes [0-9]+ minutes to prepare, the table says 25"
    "-DOUTPUT_LACKS=follow-up question 1 "
    -P ${expect_exit})
set_tests_properties(guide.checker-rejects-pages PROPERTIES LABELS guide)
