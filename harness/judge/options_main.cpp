// overlap-grade-options EXERCISE [grade options]: a user's options checked by the table of
// grade's alone: the judge's own (--program, --saved, --source, ...) are refused, as they are the
// script's and the tests' to set. The script runs it before every grade, and before a first grade
// builds the judge, so that a wrong option costs seconds instead of that build. Exit 0, or 2 with
// the judge's usage error.
#include <cstdio>

#include "options.hpp"

int main(int argc, char** argv) {
  try {
    overlap::judge::parse_options(argc, argv, overlap::judge::Table::grade);
  } catch (const overlap::judge::OptionError& e) {
    std::fprintf(stderr, "overlap: %s\n", e.what());
    return 2;
  }
  return 0;
}
