// Registering a submission: one line, `OVERLAP_TRAIN(train)`, after a function that is either
//   void train(ExerciseApi&)                          synchronous: blocking calls, one actor
//   boost::asio::awaitable<void> train(ExerciseApi&)  a coroutine: async_ calls with co_await
// where ExerciseApi is the exercise's own (Pipeline, Trainer, Cluster or Rank: its header names
// it as overlap::ExerciseApi). The grader starts it once per run (once per rank in SPMD worlds) and
// waits for it to return: the makespan ends there. What it leaves behind (a detached coroutine,
// an operation not awaited) is still simulated and checked: any operation running past the
// return, or started after it, is `unfinished-work`. A wrong signature, a missing OVERLAP_TRAIN
// line or a second one is a compile error that says so.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <type_traits>

namespace overlap {

template <typename Api>
struct Entry {
  void (*blocking)(Api&) = nullptr;
  boost::asio::awaitable<void> (*coroutine)(Api&) = nullptr;
};

namespace detail {

// Defined for the exercise's API by OVERLAP_TRAIN: the one registration of a submission.
template <typename Api>
struct Registration;

template <typename Api>
concept registered = requires {
  sizeof(Registration<Api>);
};

template <typename Train, typename Api>
inline constexpr bool is_train_for =
    std::is_same_v<Train, void(Api&)> || std::is_same_v<Train, boost::asio::awaitable<void>(Api&)>;

template <typename Api, typename Train>
Entry<Api> entry_of(Train& train) {
  if constexpr (std::is_same_v<Train, void(Api&)>) return {&train, nullptr};
  if constexpr (std::is_same_v<Train, boost::asio::awaitable<void>(Api&)>) return {nullptr, &train};
  return {};
}

}  // namespace detail
}  // namespace overlap

#define OVERLAP_TRAIN(train)                                                                \
  struct OVERLAP_TRAIN_may_appear_only_once_per_file {};                                    \
  template <>                                                                               \
  struct overlap::detail::Registration<overlap::ExerciseApi> {                              \
    static_assert(::overlap::detail::is_train_for<decltype(train), ::overlap::ExerciseApi>, \
                  "OVERLAP_TRAIN(" #train "): " #train " must be `void " #train             \
                  "(ExerciseApi&)` or `boost::asio::awaitable<void> " #train                \
                  "(ExerciseApi&)`, with ExerciseApi the exercise's (Pipeline, ...)");      \
    static ::overlap::Entry<::overlap::ExerciseApi> entry() {                               \
      return ::overlap::detail::entry_of<::overlap::ExerciseApi>(train);                    \
    }                                                                                       \
  };
