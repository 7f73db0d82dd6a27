// overlap-grade-options EXERCISE [grade options]: grade's options checked by the table alone.
// Before a first grade builds the judge, the script runs it, so that a wrong option costs seconds
// instead of that build. Exit 0, or 2 with the judge's usage error.
#include <cstdio>

#include "options.hpp"

int main(int argc, char** argv) {
  try {
    overlap::grade::parse_options(argc, argv);
  } catch (const overlap::grade::OptionError& e) {
    std::fprintf(stderr, "overlap: %s\n", e.what());
    return 2;
  }
  return 0;
}
