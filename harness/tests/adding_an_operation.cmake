# CONTRIBUTING.md's "Adding an operation", followed to the letter: in a copy of the kit, each
# numbered item's file gets its change from FIXTURE (<path>.diff, a unified diff: Stage::checkpoint
# added to the pipeline world), then the copy is configured with that exercise alone and a
# program that calls the new operation (the starter, checkpointing) is graded through the script:
# the client sends it, the judge serves it on the stage's device, and the report shows it. A diff
# of the fixture that no item names, or an item whose diff the fixture lacks, fails.
#   cmake -DKIT=<kit> -DFIXTURE=<folder> -DNAME=<exercise> -DWORK=<folder> [-DSKIP=<n>]
#         -P adding_an_operation.cmake
# SKIP=n leaves item n out, as a list without that step would: the check itself, failing.
# When the world changes around a diff so that it no longer applies, make the change in a tree and
# write each file's diff anew with `git diff --no-prefix -- <path>`.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/kit_copy.cmake)
contributing_copy("Adding an operation")

find_program(GIT git REQUIRED)
foreach(path IN LISTS paths)
  set(diff ${FIXTURE}/${path}.diff)
  if(NOT EXISTS ${diff})
    message(FATAL_ERROR "CONTRIBUTING.md names ${path}, which the fixture in ${FIXTURE} does "
                        "not change")
  endif()
  # Not inside any repository the copy may sit in: git apply would read the paths as that one's.
  run_in(${copy} "step: ${path}" 0 ""
         ${CMAKE_COMMAND} -E env GIT_CEILING_DIRECTORIES=${WORK} ${GIT} apply -p0 ${diff})
endforeach()

# Every diff of the fixture is some item's: otherwise the list misses a step.
file(GLOB_RECURSE diffs RELATIVE ${FIXTURE} ${FIXTURE}/*.diff)
foreach(diff IN LISTS diffs)
  string(REGEX REPLACE "\\.diff$" "" path ${diff})
  if(NOT path IN_LIST paths)
    message(FATAL_ERROR "CONTRIBUTING.md's list has no step that changes ${path}")
  endif()
endforeach()

# The starter with a 1 ms checkpoint of each stage after its optimizer step: in the default
# scenario (4 stages, 3 steps) the starter's 2880 ms and 12 ms, every checkpoint on the timeline.
file(READ ${copy}/exercises/${NAME}/train.cpp starter)
set(step "pipe.stage(s).optimizer_step();")
string(FIND "${starter}" "${step}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the starter has no \"${step}\" to add a checkpoint after")
endif()
string(REPLACE "${step}" "{\n      ${step}\n      pipe.stage(s).checkpoint();\n    }" program
       "${starter}")
file(WRITE ${WORK}/checkpointing.cpp "${program}")
run_in(${copy} "configure" 0 "" ${CMAKE_COMMAND} --preset default -S ${copy} -DOVERLAP_ONLY=${NAME})
run_in(${copy} "a program that checkpoints" 1
       "makespan +2892 ms +baseline 2880 ms.*c checkpoint.*${NAME}: SLOW \\(default slow 1.00x\\)"
       ${copy}/overlap grade ${NAME} --submission ${WORK}/checkpointing.cpp --scenario default)
# What was there still grades as before.
run_in(${copy} "the reference" 0 "${NAME}: OPTIMAL \\(default optimal"
       ${copy}/overlap grade ${NAME} --solution --scenario default)
message("Stage::checkpoint, added by CONTRIBUTING.md's list: sent by the client, served by the "
        "judge")
