// overlap-judge-<exercise>: grades a submission program (see cli.hpp). Built from the kit's
// sources alone.
#include "cli.hpp"

int main(int argc, char** argv) { return overlap::grade::main(argc, argv); }
