// The FSDP world: a model of L layers trained data-parallel on R ranks, each rank holding 1/R of
// every layer's parameters (its shard). The grader starts train(Rank&) once per rank (SPMD).
//
// One training step, on every rank: for each layer in order, bring its full parameters in
// (copy_in the shard from host memory, then all_gather the shards), run forward, release; then
// from the last layer back, gather again, run backward (a full gradient), and reduce_scatter it
// (summed over ranks; each rank keeps its shard); finally optimizer_step updates the shards.
//
// Each rank has four streams, each an exclusive device: compute (forward, backward,
// optimizer_step), all-gather, reduce-scatter, and the host-to-device copy engine. Operations on
// different streams overlap; two on one stream are a contention error.
//
// Every operation comes in two forms that do the same thing:
//   rank.all_gather(layer);                                   // blocking
//   co_await rank.async_all_gather(layer, use_awaitable);     // asynchronous
//
// The rules the grader checks (breaking one fails the run):
//   - Collectives rendezvous: all_gather(l) completes on every rank when the last rank has issued
//     it, one collective time later; it occupies each rank's stream from its own issue to then.
//     Every rank issues its all-gathers in the same layer order, and its reduce-scatters too; a
//     mismatch is an error that names both sides, and waiting on a collective no other rank
//     issues is a deadlock.
//   - Memory: at most param_buffers() layers gathered at once (a buffer is held from all_gather's
//     issue until release), and at most grad_buffers() full gradients (held from backward's start
//     until its reduce_scatter completes).
//   - No layer is used before its all_gather completes or after its release.
//   - The final shards equal data-parallel SGD's on the whole batch.
//   - Every layer is released when train returns (a gathered copy is stale after the step).
#pragma once

#include <boost/asio/async_result.hpp>
#include <overlap/blocking.hpp>
#include <overlap/error.hpp>
#include <overlap/handler.hpp>
#include <overlap/train.hpp>

namespace overlap::fsdp {

namespace detail {
class Client;
}

class Rank {
 public:
  int index() const { return index_; }
  int num_ranks() const;
  int num_layers() const;
  int param_buffers() const;  // layers that may be gathered at once on this rank
  int grad_buffers() const;   // full gradients that may be held at once on this rank

  // copy_in: copies this rank's shard of `layer` from host memory to the device, for the next
  // all_gather of that layer.
  //   costs     the copy time (10 ms in the default scenario) on the copy engine
  //   requires  the copy engine idle
  template <typename Token>
  auto async_copy_in(int layer, Token&& token) {
    return initiate(&Rank::start_copy_in, layer, token);
  }
  void copy_in(int layer);

  // all_gather: gathers every rank's shard of `layer` into its full parameters on this rank.
  //   costs     the all-gather time, from the last rank's issue; the all-gather stream is busy
  //             from this rank's issue until completion
  //   holds     one parameter buffer from the issue until release(layer)
  //   requires  the stream idle; copy_in(layer) done since this layer's last gather; every rank
  //             gathering layers in the same order
  template <typename Token>
  auto async_all_gather(int layer, Token&& token) {
    return initiate(&Rank::start_all_gather, layer, token);
  }
  void all_gather(int layer);

  // forward: the layer's forward pass on this rank's data.
  //   costs     the forward time on the compute stream
  //   requires  the compute stream idle; the layer gathered (not released); forward(layer - 1)
  //             done
  template <typename Token>
  auto async_forward(int layer, Token&& token) {
    return initiate(&Rank::start_forward, layer, token);
  }
  void forward(int layer);

  // backward: the layer's backward pass, producing its full gradient on this rank.
  //   costs     the backward time on the compute stream
  //   holds     one gradient buffer from the start until reduce_scatter(layer) completes
  //   requires  the compute stream idle; the layer gathered; backward(layer + 1) done (for the
  //             last layer: forward of the last layer)
  template <typename Token>
  auto async_backward(int layer, Token&& token) {
    return initiate(&Rank::start_backward, layer, token);
  }
  void backward(int layer);

  // reduce_scatter: sums the layer's gradient over all ranks; each rank keeps its shard.
  //   costs     the reduce-scatter time, from the last rank's issue; the reduce-scatter stream
  //             is busy from this rank's issue until completion
  //   frees     the layer's gradient buffer when it completes
  //   requires  the stream idle; backward(layer) done; every rank reducing layers in the same
  //             order
  template <typename Token>
  auto async_reduce_scatter(int layer, Token&& token) {
    return initiate(&Rank::start_reduce_scatter, layer, token);
  }
  void reduce_scatter(int layer);

  // release: frees the layer's full parameters (its parameter buffer). Free and immediate.
  //   requires  the layer gathered, and no operation using it running
  void release(int layer);

  // optimizer_step: applies this rank's gradient shards to its parameter shards.
  //   costs     nothing in the shipped scenarios; runs on the compute stream
  //   requires  the compute stream idle; every layer's reduce_scatter completed
  template <typename Token>
  auto async_optimizer_step(Token&& token) {
    return initiate(&Rank::start_optimizer_step, -1, token);
  }
  void optimizer_step();

 private:
  friend class detail::Client;
  Rank(detail::Client& client, int index) : client_(&client), index_(index) {}

  template <typename Token>
  auto initiate(void (Rank::*start)(int, Handler<>), int layer, Token& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code)>(
        [this, start](auto handler, int l) { (this->*start)(l, std::move(handler)); }, token,
        layer);
  }
  void start_copy_in(int layer, Handler<> handler);
  void start_all_gather(int layer, Handler<> handler);
  void start_forward(int layer, Handler<> handler);
  void start_backward(int layer, Handler<> handler);
  void start_reduce_scatter(int layer, Handler<> handler);
  void start_optimizer_step(int, Handler<> handler);

  detail::Client* client_;
  int index_;
};

// The blocking forms: each is its async_ form, waited for.
inline void Rank::copy_in(int layer) { async_copy_in(layer, blocking_call("Rank::copy_in")); }
inline void Rank::all_gather(int layer) {
  async_all_gather(layer, blocking_call("Rank::all_gather"));
}
inline void Rank::forward(int layer) { async_forward(layer, blocking_call("Rank::forward")); }
inline void Rank::backward(int layer) { async_backward(layer, blocking_call("Rank::backward")); }
inline void Rank::reduce_scatter(int layer) {
  async_reduce_scatter(layer, blocking_call("Rank::reduce_scatter"));
}
inline void Rank::optimizer_step() { async_optimizer_step(blocking_call("Rank::optimizer_step")); }

}  // namespace overlap::fsdp

namespace overlap {

// What train() takes in this exercise: `void train(overlap::fsdp::Rank&)` or its coroutine form,
// registered with OVERLAP_TRAIN(train) (overlap/train.hpp).
using ExerciseApi = fsdp::Rank;

}  // namespace overlap
