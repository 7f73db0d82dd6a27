// The fsdp scenarios drawn from a seed (../common/generated.hpp), within the ranges the brief
// promises. Scenario k's family rotates with k % 4, so the first four of any seed take every
// path between them: uneven layers on comm-bound streams; a straggler on compute-bound ones;
// one parameter buffer; and anything at all.
#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "../common/generated.hpp"
#include "planner.hpp"
#include "world.hpp"

namespace overlap::fsdp {

namespace {

enum class Family { uneven_comm_bound, straggler_compute_bound, one_param_buffer, any };

// A size to two decimals: the times it scales stay readable in the description.
double size_in(worlds::Draw& draw, double lo, double hi) {
  return std::round((lo + draw.unit() * (hi - lo)) * 100) / 100;
}

// A few large layers (one in five at most, at least one) among small ones of varied sizes.
std::vector<double> uneven_sizes(worlds::Draw& draw, int layers) {
  std::vector<double> sizes(layers);
  for (double& size : sizes) size = size_in(draw, 0.5, 1.5);
  const int large = draw.integer(1, std::max(1, layers / 5));
  for (int i = 0; i < large; ++i) sizes[draw.integer(0, layers - 1)] = size_in(draw, 2.5, 4.5);
  return sizes;
}

// Times per unit of layer size: communication slower than compute, or the other way round.
void draw_times(worlds::Draw& draw, Scenario& s, bool comm_bound) {
  if (comm_bound) {
    s.copy_ms = draw.ms(3, 12);
    s.all_gather_ms = draw.ms(14, 30);
    s.reduce_scatter_ms = draw.ms(14, 32);
    s.forward_ms = draw.ms(5, 12);
  } else {
    s.copy_ms = draw.ms(3, 9);
    s.all_gather_ms = draw.ms(5, 12);
    s.reduce_scatter_ms = draw.ms(6, 16);
    s.forward_ms = draw.ms(12, 25);
  }
  s.backward_ms = Scenario::whole_us(s.forward_ms * (1.6 + 0.8 * draw.unit()));
}

Scenario draw_scenario(worlds::Draw& draw, Family family) {
  Scenario s;
  s.ranks = draw.integer(2, 8);
  s.layers = draw.integer(4, 24);
  const bool comm_bound = family == Family::uneven_comm_bound ||
                          (family != Family::straggler_compute_bound && draw.chance(0.5));
  draw_times(draw, s, comm_bound);
  if (family == Family::uneven_comm_bound || draw.chance(0.6)) {
    s.sizes = uneven_sizes(draw, s.layers);
  }
  if (family == Family::straggler_compute_bound ||
      (family != Family::uneven_comm_bound && draw.chance(0.4))) {
    s.slow_rank = draw.integer(0, s.ranks - 1);
    s.slow_factor = size_in(draw, 1.2, 2.0);
  }
  s.param_buffers = family == Family::one_param_buffer ? 1
                    : family == Family::any            ? draw.integer(1, 3)
                                                       : draw.integer(2, 3);
  s.grad_buffers = draw.integer(1, 3);
  s.seed = draw.seed() >> 11;  // the model's data; exact as a report's number
  return s;
}

std::string describe(const Scenario& s) {
  std::string layers =
      s.uneven() ? fmt::format("{} layers of sizes {:g}", s.layers, fmt::join(s.sizes, ", "))
                 : fmt::format("{} layers of size {:g}", s.layers, s.size(0));
  std::string straggler = s.slow_rank >= 0 ? fmt::format("; rank {} computes {:g} times slower",
                                                         s.slow_rank, s.slow_factor)
                                           : "";
  return fmt::format(
      "{} ranks, {}; per unit of size copy {:g}, all-gather {:g}, forward {:g}, backward {:g}, "
      "reduce-scatter {:g} ms{}; {} parameter and {} gradient buffers per rank",
      s.ranks, layers, s.copy_ms, s.all_gather_ms, s.forward_ms, s.backward_ms, s.reduce_scatter_ms,
      straggler, s.param_buffers, s.grad_buffers);
}

}  // namespace

Scenario World::generate(std::uint64_t seed, int k) {
  const auto family = static_cast<Family>(k % 4);
  // Redrawn until overlap can win at least a fifth of the starter's time.
  for (int attempt = 0; attempt < 1000; ++attempt) {
    worlds::Draw draw(seed, k, attempt);
    Scenario s = draw_scenario(draw, family);
    if (best_known(s, Breadth::narrow).ms > 0.8 * baseline_ms(s)) continue;
    s.name = worlds::generated_name(seed, k);
    s.description = describe(s);
    return s;
  }
  throw std::logic_error(fmt::format("fsdp: no scenario drawn for seed {}, k {}", seed, k));
}

std::vector<verdict::Parameter> World::parameters(const Scenario& s) {
  std::vector<double> sizes;
  for (int l = 0; l < s.layers; ++l) sizes.push_back(s.size(l));
  return {
      {"ranks", {static_cast<double>(s.ranks)}},
      {"layers", {static_cast<double>(s.layers)}},
      {"layer sizes", sizes},
      {"copy ms per unit", {s.copy_ms}},
      {"all-gather ms per unit", {s.all_gather_ms}},
      {"forward ms per unit", {s.forward_ms}},
      {"backward ms per unit", {s.backward_ms}},
      {"reduce-scatter ms per unit", {s.reduce_scatter_ms}},
      {"slow rank", {static_cast<double>(s.slow_rank)}},
      {"slow factor", {s.slow_factor}},
      {"parameter buffers", {static_cast<double>(s.param_buffers)}},
      {"gradient buffers", {static_cast<double>(s.grad_buffers)}},
      {"data seed", {static_cast<double>(s.seed)}},
  };
}

}  // namespace overlap::fsdp
