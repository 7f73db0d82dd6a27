// An operation of a world's API, declared once: in the world's wire.hpp, a described struct of its
// arguments (described.hpp) with two static members,
//   static constexpr std::string_view api = "Stage::forward";  // as the public header names it
//   using Result = Shape;  // a described struct the completion carries, or Done, or Now
// and the world's list of them, in code order, found from any of them:
//   using Operations = boost::mp11::mp_list<Input, LossGradient, Forward, Backward, ...>;
//   Operations operations_of(const auto&);  // declared only: argument-dependent lookup finds it
// From that list come the codes (code<Forward>), the table the judge and the reports read
// (operation_table<Operations>), the client's calls (client/call.hpp) and the tests' frames.
#pragma once

#include <array>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "frames.hpp"

namespace overlap::protocol {

// Results of an operation that completes with nothing but its error code.
struct Done {};
// Results of an operation done at once, with no completion: its call number names the object it
// made, if any.
struct Now {};

template <typename Op>
using OperationsOf = decltype(operations_of(std::declval<const Op&>()));

// An operation declared as above.
template <typename Op>
concept DeclaredOperation = requires {
  Op::api;
  typename Op::Result;
};

// The operation's code: its place in its world's list.
template <typename Op>
inline constexpr auto code =
    static_cast<std::uint16_t>(boost::mp11::mp_find<OperationsOf<Op>, Op>::value);

// The name reports use: the public name without its class ("forward").
template <typename Op>
inline constexpr std::string_view name = Op::api.substr(Op::api.rfind("::") + 2);

template <typename Op>
inline constexpr bool completes = !std::is_same_v<typename Op::Result, Now>;

// The table of a world's operations, by code.
template <typename Operations>
inline constexpr auto operation_table = []<typename... Op>(boost::mp11::mp_list<Op...>) {
  return std::array<Operation, sizeof...(Op)>{Operation{name<Op>, completes<Op>}...};
}(Operations{});

}  // namespace overlap::protocol
