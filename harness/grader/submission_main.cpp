// The grading program of one submission: the exercise's public header, the submission's source
// (included whole, so that its registration is checked where the file ends), and a main over
// the world contract. CMake defines OVERLAP_EXERCISE_HEADER, OVERLAP_SUBMISSION_SOURCE,
// OVERLAP_SUBMISSION (the file as the report names it) and OVERLAP_COMPILER.
#include "../worlds/common/exercise.hpp"
#include "cli.hpp"
#include OVERLAP_EXERCISE_HEADER
#include OVERLAP_SUBMISSION_SOURCE

int main(int argc, char** argv) {
  static_assert(overlap::detail::registered<overlap::ExerciseApi>,
                "the submission has no OVERLAP_TRAIN(train) line: add one after train()");
  if constexpr (overlap::detail::registered<overlap::ExerciseApi>) {
    const auto exercise =
        overlap::worlds::exercise_for(overlap::detail::Registration<overlap::ExerciseApi>::entry());
    return overlap::grade::main(argc, argv, *exercise, {OVERLAP_SUBMISSION, OVERLAP_COMPILER});
  }
}
