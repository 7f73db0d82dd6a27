// The fsdp grader: this file, the FSDP world, and one submission (run once per rank).
#include "../../grader/cli.hpp"
#include "exercise.hpp"

overlap::Entry<overlap::fsdp::Rank> overlap_entry();

int main(int argc, char** argv) {
  return overlap::grade::main(argc, argv, *overlap::fsdp::make_exercise(overlap_entry()),
                              OVERLAP_SUBMISSION);
}
