# Runs the judge with --html and --json, loads the page in headless Chromium and checks the DOM
# it built against the JSON report: one timeline per scenario, in order, with one row per device
# and some operations; one verdict row per scenario; one list entry per violation the report
# lists, each linking to a marker on the page; the page's own check passed (its script ran, drew
# what it said) and no error reached the console; a screenshot with something on it.
#   cmake -DJUDGE=<exe> -DWORLD=<exercise> -DPROGRAM=<exe> -DWORK=<dir> -DEXIT=<code>
#         [-DARGS="--opt value ..."] [-DMIN_VIOLATIONS=<n>] -P expect_html.cmake
cmake_minimum_required(VERSION 3.25)

find_program(CHROMIUM NAMES chromium chromium-browser)
if(NOT CHROMIUM)
  message(FATAL_ERROR "chromium is not installed, and this test loads the page in it: "
                      "apt-get install chromium (./overlap test installs it)")
endif()

set(page "${WORK}/report.html")
set(json "${WORK}/report.json")
set(profile "${WORK}/chromium-profile")
file(REMOVE_RECURSE "${profile}")
file(MAKE_DIRECTORY "${WORK}")
file(REMOVE "${page}" "${json}" "${WORK}/page.png")
separate_arguments(args UNIX_COMMAND "${ARGS}")
set(COMMAND "${JUDGE}" "${WORLD}" --program "${PROGRAM}" ${args} --html "${page}" --json "${json}")
include(${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake)

# Chromium as root needs --no-sandbox; a profile of the test's own keeps runs apart. Console
# messages go to stderr with --enable-logging.
set(chromium timeout -k 10 60 "${CHROMIUM}" --headless=new --no-sandbox --disable-gpu
    "--user-data-dir=${profile}" --enable-logging=stderr --v=0)
function(no_console_messages log what)
  string(REGEX MATCHALL "[^\n]*(:CONSOLE|Uncaught)[^\n]*" messages "${log}")
  if(messages)
    list(JOIN messages "\n" messages)
    message(FATAL_ERROR "the page wrote to the console (${what}):\n${messages}")
  endif()
endfunction()

execute_process(COMMAND ${chromium} --dump-dom "file://${page}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE dom ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "chromium --dump-dom exited with ${rc}:\n${log}")
endif()
no_console_messages("${log}" "--dump-dom")
if(NOT dom MATCHES "<body[^>]* data-selfcheck=\"ok\"")
  string(REGEX MATCH "<body[^>]*>" body "${dom}")
  message(FATAL_ERROR "the page's own check did not pass: ${body}")
endif()
if(dom MATCHES "<html[^>]* data-errors=\"([^\"]*)\"")
  message(FATAL_ERROR "the page recorded errors: ${CMAKE_MATCH_1}")
endif()

file(READ "${json}" report)
string(JSON scenarios LENGTH "${report}" scenarios)
string(REGEX MATCHALL "<tr class=\"verdict-row\"" verdict_rows "${dom}")
list(LENGTH verdict_rows count)
if(NOT count EQUAL scenarios)
  message(FATAL_ERROR "${count} rows in the verdict table, for ${scenarios} scenarios")
endif()

# Each timeline: from its <svg> to its </svg>.
set(rest "${dom}")
set(timelines 0)
set(violations 0)
math(EXPR last "${scenarios} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${report}" scenarios ${i} name)
  string(JSON devices LENGTH "${report}" scenarios ${i} utilisation)
  string(JSON listed LENGTH "${report}" scenarios ${i} violations)
  math(EXPR violations "${violations} + ${listed}")
  string(FIND "${rest}" "<svg class=\"timeline\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no timeline for scenario ${i}, ${name}")
  endif()
  string(SUBSTRING "${rest}" ${at} -1 rest)
  string(FIND "${rest}" "</svg>" end)
  string(SUBSTRING "${rest}" 0 ${end} svg)
  string(SUBSTRING "${rest}" ${end} -1 rest)
  if(NOT svg MATCHES "^<svg class=\"timeline\" data-scenario=\"([^\"]*)\"")
    message(FATAL_ERROR "timeline ${i} names no scenario")
  elseif(NOT CMAKE_MATCH_1 STREQUAL name)
    message(FATAL_ERROR "timeline ${i} is of '${CMAKE_MATCH_1}', scenario ${i} is '${name}'")
  endif()
  string(REGEX MATCHALL "<g class=\"device-row\"" rows "${svg}")
  list(LENGTH rows rows)
  if(rows LESS 2 OR NOT rows EQUAL devices)
    message(FATAL_ERROR "${name}: ${rows} device rows, for ${devices} devices")
  endif()
  string(REGEX MATCHALL "<rect class=\"op " ops "${svg}")
  list(LENGTH ops ops)
  if(ops EQUAL 0)
    message(FATAL_ERROR "${name}: a timeline without operations")
  endif()
  math(EXPR timelines "${timelines} + 1")
endforeach()
if(rest MATCHES "<svg class=\"timeline\"")
  message(FATAL_ERROR "more timelines than the report's ${scenarios} scenarios")
endif()

# Every violation the report lists, linked to its marker on a timeline.
string(REGEX MATCHALL "<li><a href=\"#[^\"]*\"" links "${dom}")
list(LENGTH links count)
if(NOT count EQUAL violations)
  message(FATAL_ERROR "${count} violations listed on the page, ${violations} in the report")
endif()
if(DEFINED MIN_VIOLATIONS AND violations LESS MIN_VIOLATIONS)
  message(FATAL_ERROR "${violations} violations, expected at least ${MIN_VIOLATIONS}")
endif()
foreach(link IN LISTS links)
  string(REGEX REPLACE "^<li><a href=\"#" "" id "${link}")
  string(REGEX REPLACE "\"$" "" id "${id}")
  if(NOT dom MATCHES "<g class=\"violation-marker\" id=\"${id}\"")
    message(FATAL_ERROR "the violation linked as #${id} has no marker")
  endif()
endforeach()

execute_process(COMMAND ${chromium} "--screenshot=${WORK}/page.png" --window-size=1280,2000
                        "file://${page}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE ignored ERROR_VARIABLE log)
if(NOT rc EQUAL 0 OR NOT EXISTS "${WORK}/page.png")
  message(FATAL_ERROR "chromium --screenshot exited with ${rc}:\n${log}")
endif()
no_console_messages("${log}" "--screenshot")
# A 1280x2000 page with a line of text compresses to 12 kB, the report's first screen to 300 kB.
file(SIZE "${WORK}/page.png" size)
if(size LESS 100000)
  message(FATAL_ERROR "the screenshot is ${size} bytes: nearly blank")
endif()
message("${timelines} timelines, ${violations} violations linked, screenshot ${size} bytes")
