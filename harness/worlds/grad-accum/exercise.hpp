// The grad-accum exercise as the grader sees it.
#pragma once

#include <memory>
#include <overlap/grad_accum.hpp>

#include "../../grader/exercise.hpp"

namespace overlap::grad_accum {

std::unique_ptr<grade::Exercise> make_exercise(Entry<Trainer> submission);

}  // namespace overlap::grad_accum
