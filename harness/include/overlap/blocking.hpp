// The blocking forms of the operations. `stage.forward(mb, x)` is `stage.async_forward(mb, x,
// detail::Blocking{...})`: the calling actor (a synchronous train, or a body of a fork-join
// helper) waits for the completion while the other actors run, and an error is thrown as
// boost::system::system_error. Calling one from a coroutine or a completion handler, where
// nothing may block, is a std::logic_error that names the call. Any call from a thread other
// than the one that runs train throws system_error(errc::misuse), and the report shows it.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/system/system_error.hpp>
#include <functional>
#include <optional>
#include <tuple>
#include <utility>

namespace overlap::detail {

struct Blocking {
  const char* operation;  // "Stage::forward"
};

using Resume = boost::asio::any_completion_handler<void()>;

// Calls start(resume), then suspends the calling actor until resume is invoked.
void block(const char* operation, const std::function<void(Resume)>& start);

}  // namespace overlap::detail

template <typename... R>
struct boost::asio::async_result<overlap::detail::Blocking, void(boost::system::error_code, R...)> {
  static_assert(sizeof...(R) <= 1, "a blocking form returns one value at most");

  template <typename Initiation, typename... Args>
  static auto initiate(Initiation&& initiation, overlap::detail::Blocking token, Args&&... args) {
    boost::system::error_code ec;
    std::optional<std::tuple<R...>> results;
    overlap::detail::block(token.operation, [&](overlap::detail::Resume resume) {
      std::move(initiation)(
          [&ec, &results, resume = std::move(resume)](boost::system::error_code e, R... r) mutable {
            ec = e;
            results.emplace(std::move(r)...);
            std::move(resume)();
          },
          std::forward<Args>(args)...);
    });
    if (ec) throw boost::system::system_error(ec);
    if constexpr (sizeof...(R) == 1) return std::get<0>(std::move(*results));
  }
};

namespace overlap {

// The completion token of the blocking forms: `operation` names the call in errors.
inline detail::Blocking blocking_call(const char* operation) { return {operation}; }

}  // namespace overlap
