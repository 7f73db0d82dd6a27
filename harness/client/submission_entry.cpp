// The submission's shared object: the exercise's public header, the submission's source
// (included whole, so that its registration is checked where the file ends), and the entry the
// launcher (sandbox/launcher_main.cpp) calls once the process is confined. Nothing of the judge
// is here. CMake defines OVERLAP_EXERCISE_HEADER and OVERLAP_SUBMISSION_SOURCE.
#include "actor.hpp"
#include OVERLAP_EXERCISE_HEADER
#include OVERLAP_SUBMISSION_SOURCE

extern "C" [[gnu::visibility("default")]] void overlap_submission_start() {
  static_assert(overlap::detail::registered<overlap::ExerciseApi>,
                "the submission has no OVERLAP_TRAIN(train) line: add one after train()");
  if constexpr (overlap::detail::registered<overlap::ExerciseApi>) {
    overlap::client::start(overlap::detail::Registration<overlap::ExerciseApi>::entry());
  }
}
