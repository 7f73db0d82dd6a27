# The code of the briefs' "Asio notes" is the same in every brief, so that compiling and running
# one brief's (promises.cmake) vouches for all of them.
#   cmake -DBRIEFS=<brief>,<brief>,... -P same_brief_code.cmake
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/brief_code.cmake)

string(REPLACE "," ";" briefs "${BRIEFS}")
list(POP_FRONT briefs first)
overlap_brief_code(${first} expected)
if(expected_count EQUAL 0)
  message(FATAL_ERROR "${first}: its Asio notes have no code")
endif()
set(n 0)
foreach(brief IN LISTS briefs)
  math(EXPR n "${n} + 1")
  set(code brief${n})  # a prefix of its own: no block of an earlier brief is left to compare
  overlap_brief_code(${brief} ${code})
  set(blocks ${expected_count})
  if(${code}_count GREATER blocks)
    set(blocks ${${code}_count})
  endif()
  foreach(i RANGE 1 ${blocks})
    if(NOT "${${code}_${i}}" STREQUAL "${expected_${i}}")
      message("${brief}: code block ${i} of its Asio notes differs from ${first}'s:\n"
              "${${code}_${i}}\nagainst\n${expected_${i}}")
      message(FATAL_ERROR "the briefs' Asio notes differ")
    endif()
  endforeach()
endforeach()
message("the Asio notes' code is the same in every brief")
