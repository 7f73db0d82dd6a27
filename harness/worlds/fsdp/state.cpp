#include "state.hpp"

#include <boost/asio/post.hpp>
#include <stdexcept>

#include "../../sim/operation.hpp"

namespace overlap::fsdp::detail {

using Op = sim::Operation<>;

namespace {

const char* kind_name(Kind kind) { return kind == kAllGather ? "all_gather" : "reduce_scatter"; }

}  // namespace

State::State(const Scenario& scenario, sim::Simulator& sim) : scenario_(scenario), sim_(sim) {
  const int shard = model::shard_size(scenario.ranks);
  ranks_.resize(scenario.ranks);
  for (int r = 0; r < scenario.ranks; ++r) {
    RankState& rs = ranks_[r];
    rs.compute = &sim.add_device(fmt::format("rank {} compute", r));
    rs.streams[kAllGather] = &sim.add_device(fmt::format("rank {} all-gather", r));
    rs.streams[kReduceScatter] = &sim.add_device(fmt::format("rank {} reduce-scatter", r));
    rs.copy = &sim.add_device(fmt::format("rank {} copy", r));
    rs.params =
        &sim.add_pool(fmt::format("rank {} parameters", r), "layers", scenario.param_buffers);
    rs.grads = &sim.add_pool(fmt::format("rank {} gradients", r), "layers", scenario.grad_buffers);
    rs.layers.resize(scenario.layers);
    for (int l = 0; l < scenario.layers; ++l) {
      const model::Vector full = model::initial_parameters(scenario.seed, l, scenario.ranks);
      rs.shards.emplace_back(full.begin() + r * shard, full.begin() + (r + 1) * shard);
    }
    rs.reduced.resize(scenario.layers);
    rs.activation = model::inputs(scenario.seed, r);
  }
}

template <typename... Args>
void State::violation(const char* kind, fmt::format_string<Args...> format, Args&&... args) {
  sim_.violations().add(kind, fmt::format(format, std::forward<Args>(args)...), sim_.now());
}

void State::reject(int r, Handler<> handler, std::string message) {
  sim::reject(sim_, std::move(handler), fmt::format("rank {}: {}", r, message));
}

bool State::check_usable(int r, int layer, const char* op, Handler<>& handler) {
  LayerState& ls = ranks_[r].layers[layer];
  if (ls.params == Params::gathered) return true;
  if (ls.params == Params::gathering) {
    violation("use-before-gather",
              "rank {}: {}(layer {}) started while all_gather(layer {}) has not completed", r, op,
              layer, layer);
  } else {
    violation("misuse", "rank {}: {}(layer {}) without its parameters (all_gather it first)", r, op,
              layer);
  }
  sim::complete_now(sim_, std::move(handler), make_error_code(errc::misuse));
  return false;
}

void State::start_copy_in(int r, int layer, Handler<> handler) {
  if (layer < 0 || layer >= scenario_.layers) {
    return reject(r, std::move(handler), fmt::format("copy_in(layer {}) is out of range", layer));
  }
  RankState& rs = ranks_[r];
  Op::start(sim_, *rs.copy, {"copy_in", fmt::format("layer {}", layer), 'c'},
            sim::from_ms(scenario_.copy(layer)), std::move(handler), {}, sim::Cancellable::no,
            [&rs, layer](sim::OpStatus) { rs.layers[layer].copied = true; });
}

void State::start_collective(int r, Kind kind, int layer, Handler<> handler) {
  RankState& rs = ranks_[r];
  if (layer < 0 || layer >= scenario_.layers) {
    return reject(r, std::move(handler),
                  fmt::format("{}(layer {}) is out of range", kind_name(kind), layer));
  }
  LayerState& ls = rs.layers[layer];
  if (kind == kAllGather) {
    if (!ls.copied) {
      return reject(
          r, std::move(handler),
          fmt::format("all_gather(layer {}) without copy_in(layer {}) done first", layer, layer));
    }
    if (ls.params != Params::sharded) {
      return reject(r, std::move(handler),
                    fmt::format("all_gather(layer {}) while it is already gathered", layer));
    }
  } else if (!ls.gradient_ready) {
    return reject(
        r, std::move(handler),
        fmt::format("reduce_scatter(layer {}) before backward(layer {}) completed", layer, layer));
  } else if (ls.reduce_issued) {
    return reject(r, std::move(handler),
                  fmt::format("reduce_scatter(layer {}) a second time: its gradient was already "
                              "handed to the first",
                              layer));
  }

  const std::size_t k = rs.issued[kind]++;
  std::vector<Group>& groups = groups_[kind];
  if (k == groups.size()) groups.push_back({layer, r, {}, {}});
  Group& group = groups[k];
  if (group.layer != layer) {
    violation("collective-mismatch",
              "rank {}'s {} number {} is for layer {}, but rank {}'s is for layer {}: every "
              "rank must issue its collectives in the same order",
              r, kind_name(kind), k + 1, layer, group.first_rank, group.layer);
    sim::complete_now(sim_, std::move(handler), make_error_code(errc::misuse));
    return;
  }
  group.ops[r] = sim_.begin(
      *rs.streams[kind],
      {kind_name(kind), fmt::format("layer {}", layer), kind == kAllGather ? 'G' : 'R'}, 0);
  group.waiting.emplace(r, std::move(handler));
  if (kind == kReduceScatter) ls.reduce_issued = true;
  if (kind == kAllGather) {
    ls.copied = false;
    ls.params = Params::gathering;
    rs.params->charge(1, fmt::format("rank {}: all_gather(layer {})", r, layer), sim_.now());
  }
  if (static_cast<int>(group.waiting.size()) == scenario_.ranks) {
    const double ms =
        kind == kAllGather ? scenario_.all_gather(layer) : scenario_.reduce_scatter(layer);
    sim_.schedule(sim_.now() + sim::from_ms(ms), [this, kind, k] { complete(kind, k); });
  }
}

// Every rank has issued collective k: it completes on all of them at once, with real data.
void State::complete(Kind kind, std::size_t k) {
  Group& group = groups_[kind][k];
  const int l = group.layer;
  const int shard = model::shard_size(scenario_.ranks);
  model::Vector full, sum;
  if (kind == kAllGather) {
    for (const RankState& rs : ranks_) {
      full.insert(full.end(), rs.shards[l].begin(), rs.shards[l].end());
    }
  } else {
    sum.assign(ranks_[0].layers[l].gradient.size(), 0.0);
    for (const RankState& rs : ranks_) {
      // start_collective lets a layer's gradient into one reduce_scatter only, whole.
      if (rs.layers[l].gradient.size() != sum.size() ||
          sum.size() < static_cast<std::size_t>(shard) * ranks_.size()) {
        throw std::logic_error(
            fmt::format("fsdp: reduce_scatter(layer {}) with a gradient of "
                        "the wrong size",
                        l));
      }
      for (std::size_t j = 0; j < sum.size(); ++j) sum[j] += rs.layers[l].gradient[j];
    }
  }
  for (auto& [r, handler] : group.waiting) {
    RankState& rs = ranks_[r];
    LayerState& ls = rs.layers[l];
    sim_.end(group.ops[r], sim::OpStatus::done);
    if (kind == kAllGather) {
      ls.full = full;
      ls.params = Params::gathered;
    } else {
      rs.reduced[l].assign(sum.begin() + r * shard, sum.begin() + (r + 1) * shard);
      ls.reduced = true;
      ls.gradient.clear();
      rs.grads->release(1);
    }
    boost::asio::post(sim_.io(),
                      boost::asio::append(std::move(handler), boost::system::error_code{}));
  }
  group.waiting.clear();
}

void State::start_forward(int r, int layer, Handler<> handler) {
  RankState& rs = ranks_[r];
  if (layer != rs.forwards) {
    return reject(
        r, std::move(handler),
        fmt::format("forward(layer {}) out of order: layer {} is next", layer, rs.forwards));
  }
  if (layer >= scenario_.layers) {  // every forward done, and this one numbered next
    return reject(r, std::move(handler), fmt::format("forward(layer {}) is out of range", layer));
  }
  if (!check_usable(r, layer, "forward", handler)) return;
  LayerState& ls = rs.layers[layer];
  ++rs.forwards;
  ++ls.users;
  const bool last = layer + 1 == scenario_.layers;
  ls.input = rs.activation;
  ls.output = model::forward(ls.full, ls.input, last);
  rs.activation = ls.output;
  if (last) {
    rs.upstream =
        model::loss_gradient(ls.output, model::targets(scenario_.seed, r), scenario_.ranks);
  }
  Op::start(sim_, *rs.compute, {"forward", fmt::format("layer {}", layer), 'F'},
            sim::from_ms(scenario_.forward_on(r, layer)), std::move(handler), {},
            sim::Cancellable::no, [&ls](sim::OpStatus) { --ls.users; });
}

void State::start_backward(int r, int layer, Handler<> handler) {
  RankState& rs = ranks_[r];
  const int next = scenario_.layers - 1 - rs.backwards;
  if (rs.forwards < scenario_.layers || layer != next) {
    return reject(
        r, std::move(handler),
        rs.forwards < scenario_.layers
            ? fmt::format("backward(layer {}) before every forward", layer)
            : fmt::format("backward(layer {}) out of order: layer {} is next", layer, next));
  }
  if (layer < 0) {  // every backward done, and this one numbered next
    return reject(r, std::move(handler), fmt::format("backward(layer {}) is out of range", layer));
  }
  if (!check_usable(r, layer, "backward", handler)) return;
  LayerState& ls = rs.layers[layer];
  ++rs.backwards;
  ++ls.users;
  rs.upstream = model::backward(ls.full, ls.input, ls.output, rs.upstream,
                                layer + 1 == scenario_.layers, ls.gradient);
  rs.grads->charge(1, fmt::format("rank {}: backward(layer {})", r, layer), sim_.now());
  Op::start(sim_, *rs.compute, {"backward", fmt::format("layer {}", layer), 'B'},
            sim::from_ms(scenario_.backward_on(r, layer)), std::move(handler), {},
            sim::Cancellable::no, [&ls](sim::OpStatus) {
              --ls.users;
              ls.gradient_ready = true;
            });
}

void State::start_optimizer_step(int r, Handler<> handler) {
  RankState& rs = ranks_[r];
  for (int l = 0; l < scenario_.layers; ++l) {
    if (!rs.layers[l].reduced) {
      return reject(r, std::move(handler),
                    fmt::format("optimizer_step before reduce_scatter(layer {}) completed", l));
    }
  }
  if (rs.stepped) return reject(r, std::move(handler), "a second optimizer_step");
  for (int l = 0; l < scenario_.layers; ++l) {
    for (std::size_t j = 0; j < rs.shards[l].size(); ++j) {
      rs.shards[l][j] -= model::kLearningRate * rs.reduced[l][j];
    }
  }
  rs.stepped = true;
  Op::start(sim_, *rs.compute, {"optimizer_step", "", 'o'}, 0, std::move(handler), {});
}

void State::release(int r, int layer) {
  RankState& rs = ranks_[r];
  if (layer < 0 || layer >= scenario_.layers) {
    return violation("misuse", "rank {}: release(layer {}) is out of range", r, layer);
  }
  LayerState& ls = rs.layers[layer];
  if (ls.params == Params::sharded) {
    return violation("misuse", "rank {}: release(layer {}) of a layer not gathered", r, layer);
  }
  if (ls.params == Params::gathering) {
    violation("use-after-release",
              "rank {}: release(layer {}) while its all_gather is still running", r, layer);
  } else if (ls.users > 0) {
    violation("use-after-release",
              "rank {}: release(layer {}) while an operation still uses its parameters", r, layer);
  }
  ls.params = Params::sharded;
  ls.full.clear();
  rs.params->release(1);
}

std::string State::outstanding() const {
  std::vector<std::string> out;
  for (Kind kind : {kAllGather, kReduceScatter}) {
    for (const Group& group : groups_[kind]) {
      if (group.waiting.empty()) continue;
      std::vector<int> missing;
      for (int r = 0; r < scenario_.ranks; ++r) {
        if (!group.waiting.contains(r)) missing.push_back(r);
      }
      std::vector<int> waiting;
      for (const auto& [r, h] : group.waiting) waiting.push_back(r);
      out.push_back(fmt::format("{}(layer {}) issued by rank{} {}, never by rank{} {}",
                                kind_name(kind), group.layer, waiting.size() > 1 ? "s" : "",
                                fmt::join(waiting, ", "), missing.size() > 1 ? "s" : "",
                                fmt::join(missing, ", ")));
    }
  }
  return fmt::format("{}", fmt::join(out, "; "));
}

}  // namespace overlap::fsdp::detail
