// The pipeline grader: this file, the pipeline world, and one submission (train.cpp).
#include "../../grader/cli.hpp"
#include "exercise.hpp"

overlap::Entry<overlap::pipeline::Pipeline> overlap_entry();

int main(int argc, char** argv) {
  return overlap::grade::main(argc, argv, *overlap::pipeline::make_exercise(overlap_entry()),
                              OVERLAP_SUBMISSION);
}
