# Tests of the reports the judge writes for people: the HTML page (in a real browser) and the
# command line's output options. Included from tests/CMakeLists.txt.

# overlap_html_test(<name> <submission target> <exit code> [checks...]): the pipeline graded with
# --html and --json, the page loaded in headless Chromium and checked against the report
# (expect_html.cmake). Chromium must be installed: the test fails, saying so, when it is not.
function(overlap_html_test name grader exit)
  if(NOT TARGET ${grader})
    return()  # its exercise is left out by OVERLAP_ONLY
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DJUDGE=$<TARGET_FILE:overlap-judge> -DWORLD=pipeline
                   -DPROGRAM=$<TARGET_FILE:${grader}> -DWORK=${CMAKE_CURRENT_BINARY_DIR}/${name}
                   -DEXIT=${exit} ${ARGN} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_html.cmake)
  set_tests_properties(${name} PROPERTIES LABELS cli)
endfunction()
# The reference solution: four scenarios, no violation.
overlap_html_test(cli.html grade-pipeline-solution 0)
# Contention and out-of-memory in every scenario: each violation listed and linked to its marker.
overlap_html_test(cli.html.violations mutant-pipeline-no_exclusion 1 -DMIN_VIOLATIONS=1)

# Report files are checked before anything is built or graded: two options that name one file, or
# a file that cannot be written, is a usage error, and the message is the first thing printed.
if(NOT OVERLAP_ONLY)
set(reports_dir ${CMAKE_CURRENT_BINARY_DIR}/cli.report-files)
file(MAKE_DIRECTORY ${reports_dir})
overlap_cli_test(report-same-file 2 "^overlap: --json and --html name the same file"
  ${judge_pipeline_solution} --json ${reports_dir}/report.json --html ${reports_dir}/./report.json)
# A submission to build: the message comes before the build would start.
overlap_cli_test(report-folder-missing 2
  "^overlap: cannot write --json [^ ]*/no-such-folder/report.json: No such file or directory"
  $<TARGET_FILE:overlap-judge> pipeline
  --submission ${PROJECT_SOURCE_DIR}/solutions/pipeline/train.cpp
  --json ${reports_dir}/no-such-folder/report.json)
overlap_cli_test(report-is-a-folder 2 "^overlap: cannot write --html [^ ]*: Is a directory"
  ${judge_pipeline_solution} --trace ${reports_dir}/trace.json --html ${reports_dir})
# The check creates no file: a run that stops after it (no such submission) leaves none behind.
add_test(NAME cli.report-check-leaves-no-file
  COMMAND sh -c [=[rm -f "$1"; "$0" pipeline --program "$2" --json "$1"; rc=$?
                  if [ -e "$1" ]; then echo "$1 was left behind"; exit 1; fi
                  echo "exit code $rc"; [ "$rc" -eq 2 ]]=]
          $<TARGET_FILE:overlap-judge> ${reports_dir}/never-written.json
          ${reports_dir}/no-such-submission.so)
set_tests_properties(cli.report-check-leaves-no-file PROPERTIES LABELS cli)
endif()
