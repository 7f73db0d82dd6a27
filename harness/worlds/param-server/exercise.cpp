#include "exercise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "../common/launch.hpp"
#include "../common/run_record.hpp"
#include "../common/scenario_list.hpp"
#include "world.hpp"

namespace overlap::param_server {

namespace {

// The weights must be exactly those of the applies, replayed in order from the start.
void check_replay(const detail::World& world, sim::Simulator& sim) {
  model::Vector replay = model::initial_weights();
  int version = 0;
  for (const detail::Apply& a : world.applies()) {
    if (a.version != ++version) {
      sim.violations().add(
          "wrong-result",
          fmt::format("apply log out of order: version {} after {}", a.version, version - 1),
          sim.now());
    }
    std::vector<const model::Vector*> values;
    for (const model::Vector& g : a.gradients) values.push_back(&g);
    model::apply(replay, values);
  }
  if (replay != world.weights()) {
    sim.violations().add("wrong-result",
                         "the server's weights differ from a replay of its apply log", sim.now());
  }
}

void check_finished_run(const detail::World& world, sim::Simulator& sim) {
  const Scenario& sc = world.scenario();
  std::vector<int> missing;
  for (int mb = 0; mb < sc.mini_batches; ++mb) {
    if (world.times_applied()[mb] == 0) missing.push_back(mb);
  }
  if (!missing.empty()) {
    const std::size_t shown = std::min<std::size_t>(missing.size(), 8);
    sim.violations().add("lost-update",
                         fmt::format("{} mini-batch{} never applied: {}{}", missing.size(),
                                     missing.size() == 1 ? " was" : "es were",
                                     fmt::join(missing.begin(), missing.begin() + shown, ", "),
                                     missing.size() > shown ? ", ..." : ""),
                         sim.now());
  }
  check_replay(world, sim);
  const double loss = model::loss(world.data(), world.weights());
  if (!(loss <= sc.target_loss)) {
    sim.violations().add(
        "wrong-result",
        fmt::format("final loss {:.4g} is above the target {:.4g}", loss, sc.target_loss),
        sim.now());
  }
}

void add_figures(const detail::World& world, grade::ScenarioResult& result) {
  std::vector<int> staleness;
  for (const detail::Apply& a : world.applies()) {
    staleness.insert(staleness.end(), a.staleness.begin(), a.staleness.end());
  }
  if (!staleness.empty()) {
    std::sort(staleness.begin(), staleness.end());
    const double mean = std::accumulate(staleness.begin(), staleness.end(), 0.0) / staleness.size();
    result.figures.push_back({"mean staleness", std::round(mean * 100) / 100, "versions"});
    result.figures.push_back(
        {"staleness p90", static_cast<double>(staleness[staleness.size() * 9 / 10]), "versions"});
    result.figures.push_back({"max staleness", static_cast<double>(staleness.back()), "versions"});
    // The histogram, in buckets that double: 0, 1, 2-3, 4-7, 8-15, ...
    for (int low = 0, high = 0; low <= staleness.back(); low = high + 1, high = 2 * low - 1) {
      const auto count = std::count_if(staleness.begin(), staleness.end(),
                                       [&](int v) { return v >= low && v <= high; });
      if (count == 0) continue;
      result.figures.push_back({low == high ? fmt::format("staleness {}", low)
                                            : fmt::format("staleness {}-{}", low, high),
                                static_cast<double>(count), "gradients"});
    }
  }
  result.figures.push_back({"updates applied", static_cast<double>(world.applies().size()), ""});
  const std::vector<int> per_worker = world.mini_batches_per_worker();
  for (std::size_t w = 0; w < per_worker.size() && per_worker.size() <= 8; ++w) {
    result.figures.push_back(
        {fmt::format("worker {} share", w), static_cast<double>(per_worker[w]), "mini-batches"});
  }
  result.figures.push_back({"final loss", model::loss(world.data(), world.weights()), ""});
}

class ParamServerExercise final : public grade::Exercise {
 public:
  explicit ParamServerExercise(Entry<Cluster> submission) : submission_(submission) {}

  std::string name() const override { return "param-server"; }

  std::vector<grade::ScenarioInfo> scenarios() const override {
    return worlds::infos(param_server::scenarios());
  }

  grade::ScenarioResult run(const std::string& name) const override {
    const Scenario& sc = *find_scenario(name);
    const double baseline = baseline_ms(sc);
    sim::Simulator sim;
    detail::World world(sc, sim);
    const worlds::RunOutcome outcome =
        worlds::run_submission(sim, submission_, {&world.cluster()}, baseline);
    worlds::add_run_end_violation(sim, outcome, world.outstanding());
    if (outcome.completed()) check_finished_run(world, sim);

    const Bound bound = lower_bound(sc);
    grade::ScenarioResult result = worlds::record_run(
        sim, outcome,
        {sc.name, sc.description, baseline, bound.ms, bound.derivation, sc.optimum_ms,
         fmt::format("{:g} ms: {}", sc.optimum_ms, sc.optimum_note)});
    add_figures(world, result);
    return result;
  }

 private:
  Entry<Cluster> submission_;
};

}  // namespace

std::unique_ptr<grade::Exercise> make_exercise(Entry<Cluster> submission) {
  return std::make_unique<ParamServerExercise>(submission);
}

}  // namespace overlap::param_server
