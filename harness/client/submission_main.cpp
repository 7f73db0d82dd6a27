// The submission program: the exercise's public header, the submission's source (included
// whole, so that its registration is checked where the file ends), and a main that hands the
// registered train to the exercise's client. Nothing of the judge is here: this program only
// talks to it, over the pipes it was started with. CMake defines OVERLAP_EXERCISE_HEADER and
// OVERLAP_SUBMISSION_SOURCE.
#include "actor.hpp"
#include OVERLAP_EXERCISE_HEADER
#include OVERLAP_SUBMISSION_SOURCE

int main() {
  static_assert(overlap::detail::registered<overlap::ExerciseApi>,
                "the submission has no OVERLAP_TRAIN(train) line: add one after train()");
  if constexpr (overlap::detail::registered<overlap::ExerciseApi>) {
    overlap::client::start(overlap::detail::Registration<overlap::ExerciseApi>::entry());
  }
}
