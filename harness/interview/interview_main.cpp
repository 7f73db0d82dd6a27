// overlap-interview: an interview's record and outcome (commands.hpp). It runs the judge as a
// user does and reads its reports; it holds no world and never grades by itself.
#include <fmt/format.h>

#include <string_view>

#include "commands.hpp"

int main(int argc, char** argv) {
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (command == "grade") return overlap::interview::grade_main(argc - 1, argv + 1);
  if (command == "session") return overlap::interview::session_main(argc - 1, argv + 1);
  if (command == "score") return overlap::interview::score_main(argc - 1, argv + 1);
  if (command == "card") return overlap::interview::card_main(argc - 1, argv + 1);
  fmt::print(stderr, "usage: overlap-interview grade|session|score|card EXERCISE [options]\n");
  return 2;
}
