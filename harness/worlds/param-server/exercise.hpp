// The parameter-server exercise as the grader sees it.
#pragma once

#include <memory>
#include <overlap/param_server.hpp>

#include "../../grader/exercise.hpp"

namespace overlap::param_server {

std::unique_ptr<grade::Exercise> make_exercise(Entry<Cluster> submission);

}  // namespace overlap::param_server
