# The hints (guides/hints/<exercise>.md) against the reference solutions (label unit): each hint
# asks a question before it answers, the last one gives numbers and no code, and none shares a run
# of six C++ tokens with solutions/<exercise>/train.cpp. `./overlap hint` shows the question, and
# the answer only when asked (label cli). Included from CMakeLists.txt.

add_executable(overlap-hint-check hint_check.cpp)
target_link_libraries(overlap-hint-check PRIVATE fmt::fmt)

foreach(exercise IN LISTS OVERLAP_EXERCISES)
  add_test(NAME unit.hints.${exercise}
    COMMAND overlap-hint-check ${PROJECT_SOURCE_DIR}/guides/hints/${exercise}.md
            ${PROJECT_SOURCE_DIR}/solutions/${exercise}/train.cpp)
  set_tests_properties(unit.hints.${exercise} PROPERTIES LABELS unit)
  add_test(NAME cli.hint.${exercise}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hint_cli.sh ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/hint-cli-${exercise} ${exercise})
  # The script's hint records in a session through the judge, built in the build folder.
  set_tests_properties(cli.hint.${exercise} PROPERTIES LABELS cli RESOURCE_LOCK build-folder)
endforeach()

# The check rejects what is wrong: a hint handing over a line of the solution (reformatted, over
# three lines), and a last hint that is a directive with code and no numbers; the good hint goes
# unnamed.
add_test(NAME unit.hints.rejects-shared
  COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=$<TARGET_FILE:overlap-hint-check>;${CMAKE_CURRENT_SOURCE_DIR}/hints/shares_solution.md;${PROJECT_SOURCE_DIR}/solutions/pipeline/train.cpp"
    -DEXIT=1
    "-DOUTPUT_MATCHES=shares_solution.md:13: hint 2 shares 32 tokens with [^:]*solutions/pipeline/train.cpp: const int warmup = std :: min \\( { pipe \\. num_stages \\( \\) - s - 1 , pipe \\. stash_budget \\( s \\) - 1 , m } \\) ;.*hint 3: does not start with a question.*hint 3: the last hint holds a code block.*hint 3: the last hint's answer gives no numbers"
    "-DOUTPUT_LACKS=hint 1"
    -P ${expect_exit})
set_tests_properties(unit.hints.rejects-shared PROPERTIES LABELS unit)
