# Runs the judge on a submission program and checks what it reports, from its exit code and its
# JSON report.
#   cmake -DJUDGE=<exe> -DWORLD=<exercise> -DPROGRAM=<exe> -DSUBMISSION=<name> -DSOURCE=<file>
#         -DWORK=<dir> -DEXIT=<code> [-DARGS="--opt value ..."] [-DVERDICT=<tier>]
#         [-DCORRECT=ON|OFF] [-DKINDS=k1,k2] [-DMAKESPANS=name=ms,...] [-DSPEEDUP=<x>]
#         [-DOUTPUT_MATCHES=<regex>] [-DGENERATED=ON] [-DWITHIN_MS=<ms>] [-DRUNS=<n>]
#         [-DREPLAY=ON] [-DOVERALL=<tier> [-DONE_BELOW=ON]] [-DTIERS=name=tier,...]
#         -P expect_grade.cmake
# The named scenarios are graded, and with GENERATED the default generated set too (as
# `overlap grade` does), unless ARGS chooses. VERDICT, CORRECT and SPEEDUP must hold in every
# scenario graded (but the verdict of a scenario TIERS names is the one it gives); OVERALL is the
# report's overall tier (the worst scenario's), and with ONE_BELOW one scenario alone has it (the
# others are better). KINDS is the exact set of violation kinds every scenario graded reports
# (KINDS= for none). MAKESPANS pins makespans
# exactly (virtual time): every pin must name a scenario graded, and when the run grades every
# named scenario (no --scenario in ARGS), every named one must be pinned. WITHIN_MS bounds the
# judge's real time. RUNS grades n times in all, the middle ones beside a busy loop on the last
# CPU, the last with the judge and the submission pinned to one CPU, each report byte-identical
# to the first; REPLAY grades again from the
# report (--replay), to the same report.
cmake_minimum_required(VERSION 3.25)

set(json "${WORK}/report.json")
file(MAKE_DIRECTORY "${WORK}")
file(REMOVE "${json}")
separate_arguments(args UNIX_COMMAND "${ARGS}")
if(NOT GENERATED AND NOT ARGS MATCHES "--(scenario|seed|generated|replay)")
  list(APPEND args --generated 0)
endif()
set(COMMAND "${JUDGE}" "${WORLD}" --program "${PROGRAM}" --submission-name "${SUBMISSION}"
            --source "${SOURCE}"
            ${args} --json "${json}")
string(TIMESTAMP started "%s%f")  # microseconds
include(${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake)
string(TIMESTAMP ended "%s%f")
if(DEFINED WITHIN_MS)
  math(EXPR elapsed_ms "(${ended} - ${started}) / 1000")
  message("graded in ${elapsed_ms} ms of real time (at most ${WITHIN_MS})")
  if(elapsed_ms GREATER WITHIN_MS)
    message(FATAL_ERROR "the judge took ${elapsed_ms} ms of real time, more than ${WITHIN_MS}")
  endif()
endif()

# Lists come comma-separated: semicolons do not survive being passed through ctest's arguments.
string(REPLACE "," ";" expected_kinds "${KINDS}")
list(SORT expected_kinds)
string(REPLACE "," ";" pins "${MAKESPANS}")
string(REPLACE "," ";" tiers "${TIERS}")

file(READ "${json}" report)
string(JSON count LENGTH "${report}" scenarios)
if(count EQUAL 0)
  message(FATAL_ERROR "the report has no scenarios")
endif()
string(JSON overall GET "${report}" verdict)
if(DEFINED OVERALL AND NOT overall STREQUAL OVERALL)
  message(FATAL_ERROR "expected the overall verdict ${OVERALL}, got ${overall}")
endif()
if(ONE_BELOW)
  string(REGEX MATCHALL "\"verdict\":\"${overall}\"" at_overall "${report}")
  list(LENGTH at_overall at_overall)
  math(EXPR at_overall "${at_overall} - 1")  # the report's own overall verdict is one of them
  if(NOT at_overall EQUAL 1)
    message(FATAL_ERROR "expected one scenario alone at ${overall}, got ${at_overall}")
  endif()
endif()
set(names "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${report}" scenarios ${i} name)
  string(JSON verdict GET "${report}" scenarios ${i} verdict)
  string(JSON correct GET "${report}" scenarios ${i} correct)
  string(JSON makespan GET "${report}" scenarios ${i} makespan_ms)
  string(JSON speedup GET "${report}" scenarios ${i} speedup)
  list(APPEND names ${name})
  set(expected_verdict "${VERDICT}")
  foreach(tier IN LISTS tiers)
    if(tier MATCHES "^${name}=(.*)$")
      set(expected_verdict "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(expected_verdict AND NOT verdict STREQUAL expected_verdict)
    message(FATAL_ERROR "${name}: expected verdict ${expected_verdict}, got ${verdict}")
  endif()
  if(DEFINED CORRECT)
    if(CORRECT AND NOT correct)
      message(FATAL_ERROR "${name}: expected a correct run")
    elseif(NOT CORRECT AND correct)
      message(FATAL_ERROR "${name}: expected an incorrect run")
    endif()
  endif()
  if(DEFINED SPEEDUP AND NOT speedup EQUAL SPEEDUP)
    message(FATAL_ERROR "${name}: expected speedup ${SPEEDUP}, got ${speedup}")
  endif()
  set(pinned OFF)
  foreach(pin IN LISTS pins)
    if(pin MATCHES "^${name}=(.*)$")
      set(pinned ON)
      if(NOT makespan EQUAL CMAKE_MATCH_1)
        message(FATAL_ERROR "${name}: expected makespan ${CMAKE_MATCH_1} ms, got ${makespan}")
      endif()
    endif()
  endforeach()
  if(DEFINED MAKESPANS AND NOT pinned AND NOT ARGS MATCHES "--scenario" AND
     NOT name MATCHES "^seed-")
    message(FATAL_ERROR "${name}: no makespan pinned (makespan ${makespan} ms)")
  endif()
  if(DEFINED KINDS)
    set(kinds "")
    string(JSON nv LENGTH "${report}" scenarios ${i} violations)
    if(nv GREATER 0)
      math(EXPR lv "${nv} - 1")
      foreach(j RANGE ${lv})
        string(JSON kind GET "${report}" scenarios ${i} violations ${j} kind)
        list(APPEND kinds "${kind}")
      endforeach()
    endif()
    list(REMOVE_DUPLICATES kinds)
    list(SORT kinds)
    if(NOT kinds STREQUAL expected_kinds)
      message(FATAL_ERROR "${name}: expected exactly the violation kinds '${expected_kinds}', "
                          "got '${kinds}'")
    endif()
  endif()
endforeach()
foreach(pin IN LISTS pins)
  string(REGEX REPLACE "=.*" "" pinned_name "${pin}")
  if(NOT pinned_name IN_LIST names)
    message(FATAL_ERROR "the pin '${pin}' names no scenario graded (graded: ${names})")
  endif()
endforeach()

# Grades again (BEFORE: a command the judge runs under; AFTER: its options) and checks that the
# report is byte-identical to the first.
function(grade_again label)
  cmake_parse_arguments(ARG "" "" "BEFORE;AFTER" ${ARGN})
  set(copy "${WORK}/report-${label}.json")
  file(REMOVE "${copy}")
  execute_process(COMMAND ${ARG_BEFORE} "${JUDGE}" "${WORLD}" --program "${PROGRAM}"
                          --submission-name "${SUBMISSION}" --source "${SOURCE}" ${ARG_AFTER}
                          --json "${copy}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc STREQUAL "${EXIT}")
    message(FATAL_ERROR "${label}: expected exit code ${EXIT}, got ${rc}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${json}" "${copy}"
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${label}: the report differs from the first (${copy})")
  endif()
  message("${label}: the same report")
endfunction()
if(DEFINED RUNS)
  foreach(run RANGE 2 ${RUNS})
    if(run EQUAL RUNS)
      grade_again(run-${run}-on-one-cpu BEFORE taskset -c 0 AFTER ${args})
    else()
      grade_again(run-${run}-beside-a-busy-core
                  BEFORE ${CMAKE_CURRENT_LIST_DIR}/with_a_busy_core.sh AFTER ${args})
    endif()
  endforeach()
endif()
if(REPLAY)
  grade_again(replay AFTER --replay "${json}")
endif()
