// The pipeline exercise as the grader sees it.
#pragma once

#include <memory>
#include <overlap/pipeline.hpp>

#include "../../grader/exercise.hpp"

namespace overlap::pipeline {

std::unique_ptr<grade::Exercise> make_exercise(Entry<Pipeline> submission);

}  // namespace overlap::pipeline
