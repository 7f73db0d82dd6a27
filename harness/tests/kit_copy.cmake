# What the tests that follow CONTRIBUTING.md's steps share: a copy of the kit, a numbered list of
# paths read from one of its sections, and running a command in the copy.

# kit_copy(<kit> <copy>): the kit as a developer checks it out, without what builds and git leave.
function(kit_copy kit copy)
  file(MAKE_DIRECTORY ${copy})
  file(GLOB entries LIST_DIRECTORIES true RELATIVE ${kit} ${kit}/* ${kit}/.*)
  foreach(entry IN LISTS entries)
    if(NOT entry MATCHES "^(build(-.*)?|\\.git|compile_commands\\.json)$")
      file(COPY ${kit}/${entry} DESTINATION ${copy})
    endif()
  endforeach()
endfunction()

# contributing_steps(<out> <section> <name> <skip>): the path each numbered item of CONTRIBUTING.md's
# section names first (`1. \`path\``), with <name> and <ident> (the name with _ for -) filled in,
# in order; item <skip> left out, as a list without it would be.
function(contributing_steps out kit section name skip)
  string(REPLACE "-" "_" ident ${name})
  file(STRINGS ${kit}/CONTRIBUTING.md lines)
  set(inside OFF)
  set(paths "")
  set(expected 1)
  foreach(line IN LISTS lines)
    if(line STREQUAL "## ${section}")
      set(inside ON)
    elseif(inside AND line MATCHES "^#")
      break()
    elseif(inside AND line MATCHES "^([0-9]+)\\. `([^`]+)`")
      if(NOT CMAKE_MATCH_1 EQUAL expected)
        message(FATAL_ERROR "CONTRIBUTING.md, \"${section}\": item ${CMAKE_MATCH_1} where item "
                            "${expected} belongs")
      endif()
      math(EXPR expected "${expected} + 1")
      if(CMAKE_MATCH_1 EQUAL skip)
        continue()
      endif()
      string(REPLACE "<name>" ${name} path "${CMAKE_MATCH_2}")
      string(REPLACE "<ident>" ${ident} path "${path}")
      string(REGEX REPLACE "/$" "" path "${path}")
      list(APPEND paths ${path})
    endif()
  endforeach()
  if(NOT paths)
    message(FATAL_ERROR "CONTRIBUTING.md: no numbered list under \"## ${section}\"")
  endif()
  set(${out} ${paths} PARENT_SCOPE)
endfunction()

# contributing_copy(<section>): in a script run with KIT, WORK, NAME and maybe SKIP, a fresh copy of
# the kit in WORK/kit (`copy`) and the paths of the section's list for NAME (`paths`).
macro(contributing_copy section)
  set(copy ${WORK}/kit)
  file(REMOVE_RECURSE ${WORK})
  kit_copy(${KIT} ${copy})
  if(NOT SKIP)
    set(SKIP 0)
  endif()
  contributing_steps(paths ${KIT} "${section}" ${NAME} ${SKIP})
endmacro()

# run_in(<copy> <what> <exit code> <regex> <command...>): the command, run in the copy, exits so
# and its output matches.
function(run_in copy what exit regex)
  message("${what}: ${ARGN}")
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${copy} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status STREQUAL exit OR NOT out MATCHES "${regex}")
    message(FATAL_ERROR "${what}: exit ${status} (expected ${exit}), output:\n${out}")
  endif()
endfunction()
