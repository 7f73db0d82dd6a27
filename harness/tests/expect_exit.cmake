# Runs a command and checks its exit code and that its output matches a regex.
#   cmake -DCOMMAND=a;b -DEXIT=<code> [-DOUTPUT_MATCHES=<regex>] [-DOUTPUT_LACKS=<regex>]
#         [-DFIRST_ERROR_MATCHES=<regex>] [-DINPUT=<file>] -P expect_exit.cmake
# FIRST_ERROR_MATCHES checks the first line of the output that says "error".
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED INPUT)
  set(INPUT /dev/null)
endif()
execute_process(COMMAND ${COMMAND} INPUT_FILE ${INPUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit code ${EXIT}, got ${rc}")
endif()
if(DEFINED OUTPUT_MATCHES AND NOT "${out}${err}" MATCHES "${OUTPUT_MATCHES}")
  message(FATAL_ERROR "output does not match '${OUTPUT_MATCHES}'")
endif()
if(DEFINED OUTPUT_LACKS AND "${out}${err}" MATCHES "${OUTPUT_LACKS}")
  message(FATAL_ERROR "output matches '${OUTPUT_LACKS}', which it must not")
endif()
if(DEFINED FIRST_ERROR_MATCHES)
  string(REGEX MATCH "[^\n]*error[^\n]*" first_error "${out}${err}")
  if(NOT first_error MATCHES "${FIRST_ERROR_MATCHES}")
    message(FATAL_ERROR "the first error, '${first_error}', does not match '${FIRST_ERROR_MATCHES}'")
  endif()
endif()
