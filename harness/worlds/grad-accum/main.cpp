// The grad-accum grader: this file, the gradient-accumulation world, and one submission.
#include "../../grader/cli.hpp"
#include "exercise.hpp"

overlap::Entry<overlap::grad_accum::Trainer> overlap_entry();

int main(int argc, char** argv) {
  return overlap::grade::main(argc, argv, *overlap::grad_accum::make_exercise(overlap_entry()),
                              OVERLAP_SUBMISSION);
}
