// The reference: data-parallel SGD on the whole batch (every rank's rows), full parameters, no
// sharding and no simulated time.
#pragma once

#include <vector>

#include "model.hpp"
#include "scenarios.hpp"

namespace overlap::fsdp {

// Every layer's parameters (padded) after one step.
std::vector<model::Vector> oracle(const Scenario& s);

}  // namespace overlap::fsdp
