// The FSDP exercise as the grader sees it.
#pragma once

#include <memory>
#include <overlap/fsdp.hpp>

#include "../../grader/exercise.hpp"

namespace overlap::fsdp {

std::unique_ptr<grade::Exercise> make_exercise(Entry<Rank> submission);

}  // namespace overlap::fsdp
