// The worlds' planners on generated scenarios, in figures: for each exercise, the real time to draw
// and plan a scenario (its facts: baseline, bound, best known), and how far the best known sits
// above the bound. No program runs.
//   overlap-planner-bench [--seeds N] [--list] [exercise ...]
// With --list, also one line per scenario: name, bound, best known (ms), planning time (ms), and
// its CPU time (ms: on a loaded machine, nearer what an idle core takes).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "../worlds/fsdp/world.hpp"
#include "../worlds/grad-accum/world.hpp"
#include "../worlds/param-server/world.hpp"
#include "../worlds/pipeline/world.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double quantile(const std::vector<double>& sorted, double q) {
  return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5)];
}

template <typename World>
void bench(int seeds, bool list) {
  std::vector<double> ratios, planning_ms, cpu;
  for (int seed = 1; seed <= seeds; ++seed) {
    for (int k = 0; k < 4; ++k) {
      const auto start = Clock::now();
      const double cpu_start = cpu_ms();
      const auto scenario = World::generate(static_cast<std::uint64_t>(seed), k);
      const overlap::worlds::ScenarioFacts facts = World::facts(scenario);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      planning_ms.push_back(ms);
      cpu.push_back(cpu_ms() - cpu_start);
      ratios.push_back(facts.best_known_ms / facts.bound.ms);
      if (list) {
        fmt::print("{} {} {:g} {:g} {:.1f} {:.1f}\n", World::name, facts.name, facts.bound.ms,
                   facts.best_known_ms, ms, cpu.back());
      }
    }
  }
  std::sort(ratios.begin(), ratios.end());
  std::sort(planning_ms.begin(), planning_ms.end());
  std::sort(cpu.begin(), cpu.end());
  const auto above = [&](double r) {
    return std::count_if(ratios.begin(), ratios.end(), [r](double x) { return x > r; });
  };
  const auto below = std::count_if(ratios.begin(), ratios.end(), [](double x) { return x < 1; });
  fmt::print(
      "{:<13} {} scenarios; best known / bound: median {:.3f}, 90th percentile {:.3f}, max "
      "{:.3f}; on the bound {}, above it by more than 5 % {}, by more than 20 % {}, below it (a "
      "bound that does not hold) {}; drawn and planned in {:.1f} ms at the median, {:.1f} ms at "
      "the most ({:.1f} and {:.1f} ms of CPU)\n",
      World::name, ratios.size(), quantile(ratios, 0.5), quantile(ratios, 0.9), ratios.back(),
      static_cast<long>(ratios.size()) - above(1 + 1e-9) - below, above(1.05), above(1.2), below,
      quantile(planning_ms, 0.5), planning_ms.back(), quantile(cpu, 0.5), cpu.back());
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 200;
  bool list = false;
  std::vector<std::string> wanted;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seeds" && i + 1 < argc) {
      seeds = std::atoi(argv[++i]);
    } else if (arg == "--list") {
      list = true;
    } else {
      wanted.push_back(arg);
    }
  }
  auto on = [&](std::string_view name) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
  };
  if (on("pipeline")) bench<overlap::pipeline::World>(seeds, list);
  if (on("grad-accum")) bench<overlap::grad_accum::World>(seeds, list);
  if (on("param-server")) bench<overlap::param_server::World>(seeds, list);
  if (on("fsdp")) bench<overlap::fsdp::World>(seeds, list);
}
