// The FSDP world's state behind the submission's Ranks: per rank its streams, memory, shards and
// activations, and the collectives in flight.
#pragma once

#include <fmt/format.h>

#include <map>
#include <overlap/handler.hpp>
#include <string>
#include <vector>

#include "../../sim/simulator.hpp"
#include "../common/remote.hpp"
#include "model.hpp"
#include "scenarios.hpp"
#include "wire.hpp"

namespace overlap::fsdp::detail {

enum Kind { kAllGather = 0, kReduceScatter = 1 };

class State {
 public:
  State(const Scenario& scenario, sim::Simulator& sim);
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  const Scenario& scenario() const { return scenario_; }
  sim::Simulator& sim() { return sim_; }

  // The operations behind Rank's public ones (wire.hpp), for rank `args.rank` (in [0, ranks)).
  // Any layer is taken: one out of range is a misuse.
  void start(const wire::CopyIn& args, worlds::Serving& call) {
    start_copy_in(args.rank, args.layer, call.reply());
  }
  void start(const wire::AllGather& args, worlds::Serving& call) {
    start_collective(args.rank, kAllGather, args.layer, call.reply());
  }
  void start(const wire::Forward& args, worlds::Serving& call) {
    start_forward(args.rank, args.layer, call.reply());
  }
  void start(const wire::Backward& args, worlds::Serving& call) {
    start_backward(args.rank, args.layer, call.reply());
  }
  void start(const wire::ReduceScatter& args, worlds::Serving& call) {
    start_collective(args.rank, kReduceScatter, args.layer, call.reply());
  }
  void start(const wire::OptimizerStep& args, worlds::Serving& call) {
    start_optimizer_step(args.rank, call.reply());
  }
  void start(const wire::Release& args, worlds::Serving&) { release(args.rank, args.layer); }

  // What the checks read once the run is over.
  const model::Vector& shard(int r, int layer) const { return ranks_[r].shards[layer]; }
  bool stepped(int r) const { return ranks_[r].stepped; }
  bool gathered(int r, int layer) const {
    return ranks_[r].layers[layer].params != Params::sharded;
  }
  std::string outstanding() const;  // collectives waiting for ranks, for a deadlock report

 private:
  void start_copy_in(int r, int layer, Handler<> handler);
  void start_collective(int r, Kind kind, int layer, Handler<> handler);
  void start_forward(int r, int layer, Handler<> handler);
  void start_backward(int r, int layer, Handler<> handler);
  void start_optimizer_step(int r, Handler<> handler);
  void release(int r, int layer);

  enum class Params { sharded, gathering, gathered };
  struct LayerState {
    bool copied = false;  // a shard copied in, for the next gather
    Params params = Params::sharded;
    model::Vector full;           // the gathered parameters
    int users = 0;                // forward or backward running on them
    model::Vector input, output;  // the forward's stash, for backward
    model::Vector gradient;       // full, from backward until reduce-scatter
    bool gradient_ready = false;  // backward done
    bool reduce_issued = false;   // its one reduce_scatter issued (the gradient handed over)
    bool reduced = false;
  };
  struct RankState {
    sim::Device* compute = nullptr;
    sim::Device* streams[2] = {nullptr, nullptr};  // all-gather, reduce-scatter
    sim::Device* copy = nullptr;
    sim::MemoryPool* params = nullptr;
    sim::MemoryPool* grads = nullptr;
    std::vector<LayerState> layers;
    std::vector<model::Vector> shards;   // this rank's parameter shard per layer
    std::vector<model::Vector> reduced;  // this rank's gradient shard per layer
    model::Vector activation, upstream;  // flowing forward, then backward
    int forwards = 0, backwards = 0;
    int issued[2] = {0, 0};
    bool stepped = false;
  };
  // The k-th collective of one kind: complete once every rank has issued it.
  struct Group {
    int layer = 0;
    int first_rank = 0;
    std::map<int, Handler<>> waiting;  // node-based: handlers are never move-assigned
    std::map<int, sim::OpId> ops;
  };

  template <typename... Args>
  void violation(const char* kind, fmt::format_string<Args...> format, Args&&... args);
  void reject(int r, Handler<> handler, std::string message);
  bool check_usable(int r, int layer, const char* op, Handler<>& handler);
  void complete(Kind kind, std::size_t index);

  const Scenario& scenario_;
  sim::Simulator& sim_;
  std::vector<RankState> ranks_;
  std::vector<Group> groups_[2];
};

}  // namespace overlap::fsdp::detail
