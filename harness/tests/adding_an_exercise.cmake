# CONTRIBUTING.md's "Adding an exercise", followed to the letter: in a copy of the kit (no build
# folders, no .git), each numbered item adds its path from a minimal exercise kept in FIXTURE
# (files as the kit would hold them, with the exercise's name), then the copy is configured with
# that exercise alone, built, its reference and starter graded through the script, and its tests
# run. A file of the fixture that no item adds, or an item whose path the fixture lacks, fails.
#   cmake -DKIT=<kit> -DFIXTURE=<folder> -DNAME=<exercise> -DWORK=<folder> -DCTEST=<ctest>
#         [-DSKIP=<n>] -P adding_an_exercise.cmake
# SKIP=n leaves item n out, as a list without that step would: the check itself, failing.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/kit_copy.cmake)
contributing_copy("Adding an exercise")

# Each item, in order: a file the kit already holds gets the fixture's part of it (a line, a
# table row, an entry); anything else is new, copied from the fixture.
foreach(path IN LISTS paths)
  message("step: ${path}")
  set(from ${FIXTURE}/${path})
  set(to ${copy}/${path})
  if(NOT EXISTS ${from})
    message(FATAL_ERROR "CONTRIBUTING.md names ${path}, which the exercise in ${FIXTURE} lacks")
  endif()
  if(path STREQUAL "exercises/manifest.tsv")
    file(READ ${from} line)
    file(APPEND ${to} "${line}")
  elseif(path STREQUAL "guides/README.md")
    file(READ ${from} row)
    file(READ ${to} text)
    # After the preparation table's last row.
    if(NOT text MATCHES "(<!-- preparation: [^\n]*-->\n(\\|[^\n]*\n)+)")
      message(FATAL_ERROR "guides/README.md has no preparation table")
    endif()
    string(REPLACE "${CMAKE_MATCH_1}" "${CMAKE_MATCH_1}${row}" text "${text}")
    file(WRITE ${to} "${text}")
  elseif(path STREQUAL "guides/score.json")
    file(READ ${from} fragment)
    file(READ ${to} rule)
    string(JSON entry GET "${fragment}" ${NAME})
    string(JSON rule SET "${rule}" exercises ${NAME} "${entry}")
    file(WRITE ${to} "${rule}\n")
  elseif(EXISTS ${to})
    message(FATAL_ERROR "CONTRIBUTING.md has ${path} added, but the kit already holds it")
  else()
    get_filename_component(parent ${to} DIRECTORY)
    file(COPY ${from} DESTINATION ${parent})
  endif()
endforeach()

# Every file of the fixture is some item's: otherwise the list misses a step.
file(GLOB_RECURSE fixture_files RELATIVE ${FIXTURE} ${FIXTURE}/*)
foreach(file IN LISTS fixture_files)
  set(named OFF)
  foreach(path IN LISTS paths)
    if(file STREQUAL path OR file MATCHES "^${path}/")
      set(named ON)
    endif()
  endforeach()
  if(NOT named)
    message(FATAL_ERROR "CONTRIBUTING.md's list has no step that adds ${file}")
  endif()
endforeach()

run_in(${copy} "configure" 0 "" ${CMAKE_COMMAND} --preset default -S ${copy} -DOVERLAP_ONLY=${NAME})
run_in(${copy} "build" 0 "" ${CMAKE_COMMAND} --build ${copy}/build)
run_in(${copy} "the reference" 0 "${NAME}: OPTIMAL" ${copy}/overlap grade ${NAME} --solution)
run_in(${copy} "the starter" 1 "${NAME}: SLOW" ${copy}/overlap grade ${NAME})
run_in(${copy} "its tests" 0 "100% tests passed" ${CTEST} --test-dir ${copy}/build --output-on-failure)
message("${NAME}, added by CONTRIBUTING.md's list: configured, built, graded and tested")
