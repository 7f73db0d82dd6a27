#include "world.hpp"

#include <fmt/format.h>

#include "../common/exercise_of.hpp"
#include "../common/generated.hpp"

namespace overlap::fetch {

namespace {

std::string describe(const Scenario& s) {
  return fmt::format("{} shards over {} links, {} ms a fetch", s.shards, s.links, s.fetch_ms);
}

}  // namespace

const worlds::ScenarioTable<Scenario>& World::table() {
  static const worlds::ScenarioTable<Scenario> table(
      {{.name = "default", .description = describe(Scenario{})}}, {});
  return table;
}

// At least two shards a link: fetching in turn is always at least twice the bound.
Scenario World::generate(std::uint64_t seed, int k) {
  worlds::Draw draw(seed, k, 0);
  Scenario s;
  s.links = draw.integer(2, 6);
  s.shards = draw.integer(2 * s.links, 8 * s.links);
  s.fetch_ms = draw.integer(5, 40);
  s.name = worlds::generated_name(seed, k);
  s.description = describe(s);
  return s;
}

std::vector<verdict::Parameter> World::parameters(const Scenario& s) {
  return {{"shards", {static_cast<double>(s.shards)}},
          {"links", {static_cast<double>(s.links)}},
          {"fetch ms", {static_cast<double>(s.fetch_ms)}}};
}

worlds::ScenarioFacts World::facts(const Scenario& s) {
  const int most = (s.shards + s.links - 1) / s.links;
  return {s.name,
          s.description,
          s.baseline_ms(),
          {s.bound_ms(), fmt::format("link 0 carries {} shards of {} ms", most, s.fetch_ms)},
          s.bound_ms(),
          "every link busy from 0 ms, each carrying its shards in turn"};
}

wire::Hello World::hello(const Scenario& s) { return {s.shards, s.links}; }

void World::check(const State& state, sim::Simulator& sim) {
  const std::vector<int>& fetched = state.fetched();
  for (int s = 0; s < static_cast<int>(fetched.size()); ++s) {
    if (fetched[s] == 0) {
      sim.violations().add("lost-update", fmt::format("shard {} was never fetched", s), sim.now());
    } else if (fetched[s] > 1) {
      sim.violations().add("duplicate-update",
                           fmt::format("shard {} was fetched {} times", s, fetched[s]), sim.now());
    }
  }
}

// Whether the links carry as many shards each, or link 0 carries one more than the last.
void World::add_figures(const State& state, verdict::ScenarioResult& result) {
  const Scenario& s = state.scenario();
  result.paths_taken = {s.shards % s.links == 0 ? "even-split" : "uneven-split"};
}

}  // namespace overlap::fetch

OVERLAP_REGISTER_WORLD(overlap::fetch::World, fetch)
