# Every deterministic program of the kit (the references, the starters, the styles, the designs,
# the mutants, the variants and the find-the-bug programs) graded on the named scenarios and the
# public seed's generated ones, each report without its provenance (the commit, the file's
# fingerprint, the limits) compared with the golden record: a change that means to move no
# verdict, figure or message proves it here. One line a report part (the report's top and each
# scenario), its SHA-256, so that a difference names the program and the scenario; a scenario
# stopped by a time limit records that alone (which limit, and how far it got, depend on the
# machine).
#   cmake -DJUDGE=<exe> -DPROGRAMS=<list file> -DGOLDEN=<file> -DWORK=<dir> [-DUPDATE=ON]
#         -P golden_reports.cmake
# PROGRAMS holds a line a program: target|world|shared object|name in the report|source file.
# UPDATE=ON writes the golden record from this run instead (after a change that means to).
cmake_minimum_required(VERSION 3.25)

file(MAKE_DIRECTORY "${WORK}")
file(STRINGS "${PROGRAMS}" programs)
list(LENGTH programs count)
if(count LESS 10)
  message(FATAL_ERROR "${PROGRAMS} lists ${count} programs: the list is not the kit's")
endif()
set(lines "")
foreach(entry IN LISTS programs)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 target)
  list(GET fields 1 world)
  list(GET fields 2 program)
  list(GET fields 3 shown)
  list(GET fields 4 source)
  set(json "${WORK}/${target}.json")
  file(REMOVE "${json}")
  # A hop through another thread after every completion is slow by design (param-server's
  # seed-1-0 takes 6 s of the 10 s limit on an idle core): a limit a loaded machine cannot reach.
  set(limit "")
  if(target MATCHES "hops_through_")
    set(limit --time-limit 60)
  endif()
  execute_process(COMMAND "${JUDGE}" "${world}" --program "${program}" --submission-name "${shown}"
                          --source "${source}" --json "${json}" ${limit}
                  RESULT_VARIABLE exit OUTPUT_QUIET ERROR_VARIABLE errors)
  if(NOT exit MATCHES "^[01]$" OR NOT EXISTS "${json}")
    message(FATAL_ERROR "${target}: the judge exited ${exit} without a report:\n${errors}")
  endif()
  file(READ "${json}" report)
  string(JSON top REMOVE "${report}" provenance)
  string(JSON top REMOVE "${top}" scenarios)
  string(SHA256 digest "${top}")
  list(APPEND lines "${target} . ${digest}")
  string(JSON scenarios LENGTH "${report}" scenarios)
  math(EXPR last "${scenarios} - 1")
  foreach(i RANGE ${last})
    string(JSON scenario GET "${report}" scenarios ${i})
    string(JSON name GET "${scenario}" name)
    string(SHA256 digest "${scenario}")
    # A run stopped by a time limit: whether the real-time limit or the virtual one stops it
    # first, and how far it got, depend on the machine's speed: only that it was stopped so is
    # recorded.
    string(JSON first ERROR_VARIABLE none GET "${scenario}" violations 0 kind)
    if(first STREQUAL "time-limit")
      string(JSON verdict GET "${scenario}" verdict)
      set(digest "stopped-by-a-time-limit-${verdict}")
    endif()
    list(APPEND lines "${target} ${name} ${digest}")
  endforeach()
endforeach()
list(SORT lines)
list(JOIN lines "\n" now)
set(now "${now}\n")

if(UPDATE)
  file(WRITE "${GOLDEN}" "${now}")
  message("wrote ${GOLDEN}: ${count} programs")
  return()
endif()
file(READ "${GOLDEN}" golden)
if(golden STREQUAL now)
  message("${count} programs: every report as recorded")
  return()
endif()
# Name what differs: a part recorded with another digest, a part missing, a part new.
string(REPLACE "\n" ";" golden_lines "${golden}")
string(REPLACE "\n" ";" now_lines "${now}")
set(differ "")
foreach(line IN LISTS now_lines)
  if(line AND NOT line IN_LIST golden_lines)
    string(REGEX REPLACE " [^ ]+$" "" part "${line}")
    list(APPEND differ "  ${part}: not as recorded")
  endif()
endforeach()
foreach(line IN LISTS golden_lines)
  string(REGEX REPLACE " [^ ]+$" "" part "${line}")
  if(line AND NOT now MATCHES "(^|\n)${part} ")
    list(APPEND differ "  ${part}: recorded, not graded now")
  endif()
endforeach()
list(JOIN differ "\n" differ)
message(FATAL_ERROR "reports differ from ${GOLDEN} (the reports are in ${WORK}; "
                    "rerun with -DUPDATE=ON if the change means to move them):\n${differ}")
