# The interviewer guides against the grader (label `guide`): each guide's checked tables equal
# the reports of the tests they name, its card fits a printed page and quotes every hint, its
# score and anchors tables are the ones guides/score.json generates. Included from CMakeLists.txt,
# after every grading test is defined (each exercise's guide.cmake among them).

add_executable(overlap-guide-figures guide_figures.cpp ../interview/score_rule.cpp)
target_link_libraries(overlap-guide-figures PRIVATE overlap_verdict Boost::json fmt::fmt)

# The submission target that builds a kit file (made when no test made it yet), or a variant.
function(overlap_target_of exercise program name out)
  if(program STREQUAL "solutions/${exercise}/train.cpp")
    set(target grade-${exercise}-solution)
  elseif(program STREQUAL "exercises/${exercise}/train.cpp")
    set(target grade-${exercise})
  elseif(program STREQUAL "guides/find-the-bug/${exercise}.cpp")
    set(target find-the-bug-${exercise})
  elseif(program MATCHES "^variant ([a-z_]+)$")
    set(target variant-${exercise}-${CMAKE_MATCH_1})
  elseif(program MATCHES "^harness/tests/${exercise}/(mutant|design)s/([a-z_]+)\\.cpp$")
    set(target ${CMAKE_MATCH_1}-${exercise}-${CMAKE_MATCH_2})
    if(NOT TARGET ${target})
      overlap_add_submission(${target} WORLD ${exercise} SOURCE ${PROJECT_SOURCE_DIR}/${program})
    endif()
  else()
    message(FATAL_ERROR "guides/score.json: ${exercise} anchor ${name}: ${program} is no "
                        "program of the kit (a solution, starter, design, mutant, find-the-bug or variant)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "guides/score.json: ${exercise} anchor ${name}: no target ${target}")
  endif()
  set(${out} ${target} PARENT_SCOPE)
endfunction()

# The anchors of the score sheet (guides/score.json): each program graded on the default set
# (named and generated), or on the one scenario its format grades, its overall tier what the
# rule's data says (label generated). The guides' checked anchor tables read these reports.
file(READ ${PROJECT_SOURCE_DIR}/guides/score.json score_rule)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/guides/score.json)
function(overlap_anchor_tests exercise)
  string(JSON formats ERROR_VARIABLE missing GET "${score_rule}" exercises ${exercise} anchors)
  if(missing)
    return()
  endif()
  string(JSON format_count LENGTH "${formats}")
  if(format_count EQUAL 0)
    return()  # a card without anchors yet
  endif()
  math(EXPR last_format "${format_count} - 1")
  foreach(f RANGE ${last_format})
    string(JSON format MEMBER "${formats}" ${f})
    string(JSON count LENGTH "${formats}" ${format})
    if(count EQUAL 0)
      continue()
    endif()
    string(JSON scenario ERROR_VARIABLE every_scenario GET "${score_rule}" exercises ${exercise}
           scenario ${format})
    set(graded GENERATED CHECKS)
    if(NOT every_scenario)
      set(graded CHECKS "-DARGS=--scenario ${scenario}")
    endif()
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON name GET "${formats}" ${format} ${i} name)
      string(JSON program GET "${formats}" ${format} ${i} program)
      string(JSON verdict GET "${formats}" ${format} ${i} verdict)
      string(JSON one_below ERROR_VARIABLE no_one_below GET "${formats}" ${format} ${i} one_below)
      if(no_one_below)
        set(one_below OFF)
      endif()
      if(TEST anchor.${exercise}.${name})
        continue()  # the same anchor in two formats
      endif()
      overlap_target_of(${exercise} "${program}" ${name} target)
      set(exit 1)
      if(verdict STREQUAL "pass" OR verdict STREQUAL "optimal")
        set(exit 0)
      endif()
      overlap_grade_test(anchor.${exercise}.${name} LABEL generated GRADER ${target} EXIT ${exit}
        ${graded} -DOVERALL=${verdict} -DONE_BELOW=${one_below})
    endforeach()
  endforeach()
endfunction()

foreach(exercise IN LISTS OVERLAP_EXERCISES)
  overlap_anchor_tests(${exercise})
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
      "-DOUTPUT_MATCHES=does not quote hint 2.*the score table differs from guides/score.json's:\n  guide: \\| Strong hire \\| 4 \\| ≥ 2 .*the anchors table differs from guides/score.json's:\n  guide: \\| GPipe in waves, `pass` \\| Hire.*row default, column baseline per step: the guide says 961, the grader 960.*row default, column pass ≤ per step: the guide says 1.50×.*row default, column reference: the guide says pass, the grader optimal.*row deep, column stages: 9 is none of the scenario's parameters.*the grader reported no deadlock \\(it reported: out-of-memory\\).*no_such_file.cpp is no program of the kit"
      -P ${expect_exit})
  set_tests_properties(guide.checker-rejects PROPERTIES LABELS guide
                       FIXTURES_REQUIRED graded-pipeline)
endif()

# ... and a guide whose printed pages lack what the table needs: an intro of three sentences,
# predictions without a question, a follow-up question without its weak answer; whose words no
# longer take the preparation time guides/README.md gives; and whose 15-minute card has no mark
# for a debrief already at the best known, grades another scenario than the rule names and
# misquotes a hint that fits it.
add_test(NAME guide.checker-rejects-pages
  COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=$<TARGET_FILE:overlap-guide-figures>;pipeline;${CMAKE_CURRENT_SOURCE_DIR}/guides/wrong_pages.md;${PROJECT_SOURCE_DIR}/guides/hints/pipeline.md;${CMAKE_CURRENT_BINARY_DIR};${PROJECT_SOURCE_DIR}"
    -DEXIT=1
    "-DOUTPUT_MATCHES=the card's intro has 3 sentences, not two.*the card asks no predictions.*page two: follow-up question 2 has no \\*Weak:\\* answer.*pipeline takes [0-9]+ minutes to prepare, the table says 25.*the 15-minute card's debrief has no mark for a candidate already at the best known.*the 15-minute card does not give its scenario's command `./overlap grade pipeline --scenario default`.*the 15-minute card does not quote hint 4 word for word"
    "-DOUTPUT_LACKS=follow-up question 1 |15-minute card does not quote hint [12] "
    -P ${expect_exit})
set_tests_properties(guide.checker-rejects-pages PROPERTIES LABELS guide)
