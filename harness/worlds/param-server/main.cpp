// The param-server grader: this file, the parameter-server world, and one submission.
#include "../../grader/cli.hpp"
#include "exercise.hpp"

overlap::Entry<overlap::param_server::Cluster> overlap_entry();

int main(int argc, char** argv) {
  return overlap::grade::main(argc, argv, *overlap::param_server::make_exercise(overlap_entry()),
                              OVERLAP_SUBMISSION);
}
