// The parameter-server planner: families of schedules simulated offline on a scenario's exact
// times (an event queue of its own, no Asio, no simulator), and the best of them, which is the
// scenario's best known makespan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scenarios.hpp"

namespace overlap::param_server {

// How the cluster is driven. Workers of the team take mini-batches from a pool, pull, compute and
// wait for the server; the server applies the waiting gradients; a failed worker's mini-batch
// goes back to the pool.
struct Policy {
  int team = 0;  // the `team` fastest workers take part (equal speeds: lower index first)
  // One gradient per push, in an order; or every waiting gradient in one apply_average; or one
  // apply_average per speed group, once every worker of the group still working has its
  // gradient waiting (workers of one speed pull, compute and send together).
  enum class Server { push, average, group } server = Server::push;
  enum class Order { arrival, fastest_first, slowest_first } order = Order::arrival;
  // average only: 0 applies as soon as a gradient waits; j >= 1 also waits while the j-th fastest
  // working worker of the team computes (one update per its cycle: fewer versions);
  // kChosenPace takes the j the reference chooses from the working workers' mean speeds and the
  // bound (planner.cpp: chosen_pace), again whenever one stops.
  static constexpr int kChosenPace = -1;
  int pace = 0;
  // average only, with pace 0: applies once `quorum` gradients wait, or once no worker of the team
  // is pulling or computing (0 or 1: as soon as one waits).
  int quorum = 0;
  // A worker takes a mini-batch only if the others could not complete all that are left sooner,
  // judged by mean times (what a program knows), by mean times with every busy worker taken as
  // half-way through its cycle (the reference's estimate, judged again at every hand-out), or by
  // the actual times and failures (offline).
  enum class EndGame { none, mean, half_way, actual } end_game = EndGame::none;
  // A gradient over the staleness bound: its mini-batch goes back, and its worker retires
  // (unless it is the last one working) or takes the next mini-batch.
  enum class Stale { retire, recompute } stale = Stale::retire;
  // Mini-batches handed out only while no apply runs, as a server loop that awaits each apply
  // does (the reference's): a worker whose gradient was too stale pulls the newer version.
  bool hand_out_between_applies = false;
};

// Every worker, pull-based, with the given server.
Policy pull_based(const Scenario& s, Policy::Server server = Policy::Server::push);

// What happened in one planned run: the makespan, each failure, and gradients that waited.
struct Outcome {
  double makespan_ms = -1;  // -1: the work never finished
  enum class At { idle, pull, compute, waiting, sending };
  struct FailureSeen {
    int worker = -1;
    At at = At::idle;
    std::size_t pool = 0;   // mini-batches in the pool then
    int others_busy = 0;    // other workers holding a mini-batch then
    bool pool_dry = false;  // every mini-batch had been handed out at least once
  };
  std::vector<FailureSeen> failures;
  int crossed = 0;        // gradients within the bound when they arrived, over it when served
  int retired = 0;        // workers retired by a stale gradient
  int max_staleness = 0;  // of the gradients applied
  // Per worker, in microseconds: when its last pull began, and when its last operation ended.
  std::vector<std::int64_t> last_start_us, last_end_us;
  std::vector<std::vector<std::int64_t>> pulls_us;  // per worker, when each of its pulls began
};

Outcome simulate(const Scenario& s, const Policy& policy);

// A schedule found for a scenario: its makespan (-1: none finishes) and policy.
struct Found {
  double ms = -1;
  Policy policy;
};

// The best schedule over the families: teams of every worker up to some speed; pushes one at a
// time in three orders, or averages applied at once, paced by one worker of the team, once a
// quorum of gradients waits, or once per speed group; the end game off, by mean times or by
// actual ones; a stale gradient retiring its worker or recomputed. Each team, pace and quorum is
// tried on the scenario itself, its actual times and failures included: the search knows what
// a program is not told. Narrow: without quorums or groups, the search drawn scenarios are
// accepted on, so that widening it does not change what is drawn. Unsearched: teams that are not
// the fastest workers, paces and quorums that change during a run, mini-batches held back from a
// worker before the end game.
enum class Breadth { narrow, wide };
Found search(const Scenario& s, Breadth breadth);

// The rule of a program of the kit, as the planner simulates it.
struct KitRule {
  const char* program;  // where it is in the kit
  Policy policy;
};

// The kit's rules on a scenario: the reference's, with a too stale gradient also recomputed
// instead of its worker retired (a variant of it); the styles' pushes, also recomputing; and
// designs/group_average's. Each decides from what a program is told, and the judge grades each
// program within 2 % of its rule's makespan (tests: best-known-holds, --reached).
std::vector<KitRule> kit_rules(const Scenario& s);

struct Plan {
  double ms = -1;  // the best of the kit's rules: the best known
  Policy policy;
  std::string note;  // which rule reached it, and whether the bound proves it optimal
  // The search's best, when it beats the best known; -1 otherwise.
  double hindsight_ms = -1;
  Policy hindsight_policy;
};

// What the search knows that a program is not told, in one line for the candidate: where times
// vary or workers fail, those; elsewhere, what its tries on the scenario itself found.
std::string hindsight_note(const Scenario& s);

Plan best_known(const Scenario& s);

// What a policy does, in words, for the best known's note.
std::string describe(const Scenario& s, const Policy& p);

}  // namespace overlap::param_server
