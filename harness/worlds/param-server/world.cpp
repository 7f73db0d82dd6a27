#include "world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "../common/exercise_of.hpp"
#include "planner.hpp"
#include "wire.hpp"

namespace overlap::param_server {

namespace {

// The weights must be exactly those of the applies, replayed in order from the start.
void check_replay(const detail::State& state, sim::Simulator& sim) {
  model::Vector replay = model::initial_weights();
  int version = 0;
  for (const detail::Apply& a : state.applies()) {
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
  if (replay != state.weights()) {
    sim.violations().add("wrong-result",
                         "the server's weights differ from a replay of its apply log", sim.now());
  }
}

// The paths of the exercise this run took, told from what the world saw happen.
void add_paths(const detail::State& state, std::vector<std::string>& paths) {
  auto take = [&paths](const std::string& path) {
    if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
  };
  using detail::Activity;
  for (const detail::FailureSeen& f : state.failures_seen()) {
    if (f.during == Activity::pull) take("failure-during-pull");
    if (f.during == Activity::compute) take("failure-during-compute");
    if (f.during == Activity::send) take("failure-during-push");
    if (f.after_pool_dry) take("failure-after-pool-dry");
  }
  // The bound held this run back: it refused a gradient or applied one right at the bound, or
  // the schedule it would run without a bound (every gradient averaged as soon as the server
  // is free) crosses it.
  const Scenario& sc = state.scenario();
  if (sc.staleness_bound >= 0) {
    bool binding = state.refused_gradients() > 0;
    for (const detail::Apply& a : state.applies()) {
      for (int staleness : a.staleness) binding |= staleness == sc.staleness_bound;
    }
    if (!binding) {
      Scenario unbounded = sc;
      unbounded.staleness_bound = -1;
      binding = simulate(unbounded, pull_based(unbounded, Policy::Server::average)).max_staleness >
                sc.staleness_bound;
    }
    if (binding) take("staleness-bound-binding");
  }
  if (!state.kept_off_tail().empty()) take("slow-worker-tail");
}

}  // namespace

wire::Hello World::hello(const Scenario& sc) {
  return {sc.mini_batches, sc.staleness_bound, sc.worker_ms};
}

void World::state(const State& state, protocol::Writer& w) {
  wire::State values{state.version(), {}};
  for (int i = 0; i < state.scenario().workers(); ++i) values.failed.push_back(state.failed(i));
  protocol::write(w, values);
}

void World::check(const detail::State& state, sim::Simulator& sim) {
  const Scenario& sc = state.scenario();
  std::vector<int> missing;
  for (int mb = 0; mb < sc.mini_batches; ++mb) {
    if (state.times_applied()[mb] == 0) missing.push_back(mb);
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
  check_replay(state, sim);
  const double loss = model::loss(state.data(), state.weights());
  if (!(loss <= sc.target_loss)) {
    sim.violations().add(
        "wrong-result",
        fmt::format("final loss {:.4g} is above the target {:.4g}", loss, sc.target_loss),
        sim.now());
  }
}

void World::add_figures(const detail::State& state, verdict::ScenarioResult& result) {
  std::vector<int> staleness;
  for (const detail::Apply& a : state.applies()) {
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
  result.figures.push_back({"updates applied", static_cast<double>(state.applies().size()), ""});
  const std::vector<int> per_worker = state.mini_batches_per_worker();
  for (std::size_t w = 0; w < per_worker.size() && per_worker.size() <= 8; ++w) {
    result.figures.push_back(
        {fmt::format("worker {} share", w), static_cast<double>(per_worker[w]), "mini-batches"});
  }
  result.figures.push_back({"final loss", model::loss(state.data(), state.weights()), ""});
  add_paths(state, result.paths_taken);
}

worlds::ScenarioFacts World::facts(const Scenario& sc) {
  // Published (named) or filled in when generated; planned here for any other scenario.
  Plan plan{
      sc.best_known_ms, {}, sc.best_known_note, sc.hindsight_ms > 0 ? sc.hindsight_ms : -1, {}};
  if (plan.ms <= 0) plan = best_known(sc);
  const Bound bound = lower_bound(sc);
  // What the planner's search leaves out is said too: a program beyond it could beat even the
  // hindsight figure.
  std::string gap = worlds::gap_to_bound(
      plan.ms, bound.ms,
      sc.staleness_bound >= 0
          ? "staleness: a gradient over the bound is work thrown away, and keeping within it "
            "makes fast workers wait for slow ones or sit out"
          : "the end game and failures: the last mini-batches end on whole cycles of the "
            "workers left, and lost work is redone");
  if (!gap.empty()) {
    gap +=
        "; unsearched: teams other than the fastest workers, paces or quorums that change "
        "during a run, and groups of unequal speeds";
  }
  worlds::ScenarioFacts facts{
      sc.name, sc.description, baseline_ms(sc),
      bound,   plan.ms,        fmt::format("{:g} ms: {}{}", plan.ms, plan.note, gap)};
  if (plan.hindsight_ms > 0) {
    facts.hindsight_ms = plan.hindsight_ms;
    facts.hindsight_note = hindsight_note(sc);
  }
  return facts;
}

}  // namespace overlap::param_server

OVERLAP_REGISTER_WORLD(overlap::param_server::World, param_server)
