// overlap-judge: grades a submission program (see cli.hpp), and keeps an interview's record and
// computes its outcome (session_cli.hpp). Built from the kit's sources alone.
#include <string_view>

#include "cli.hpp"
#include "session_cli.hpp"

int main(int argc, char** argv) {
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (command == "session") return overlap::session::session_main(argc - 1, argv + 1);
  if (command == "score") return overlap::session::score_main(argc - 1, argv + 1);
  if (command == "card") return overlap::session::card_main(argc - 1, argv + 1);
  return overlap::grade::main(argc, argv);
}
