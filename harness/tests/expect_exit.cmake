# Runs a command and checks its exit code and that its output matches a regex.
#   cmake -DCOMMAND=a;b -DEXIT=<code> [-DOUTPUT_MATCHES=<regex>] -P expect_exit.cmake
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit code ${EXIT}, got ${rc}")
endif()
if(DEFINED OUTPUT_MATCHES AND NOT "${out}${err}" MATCHES "${OUTPUT_MATCHES}")
  message(FATAL_ERROR "output does not match '${OUTPUT_MATCHES}'")
endif()
