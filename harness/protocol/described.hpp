// Messages as described structs (Boost.Describe): a struct's members, in the order they are
// described, are its fields. An integer member (bool included) is an integer field, a double a
// real, a std::string a text, a Handle an integer, a std::vector its length and then its
// elements. A world's wire.hpp declares its hello, its calls' arguments and its results so, and
// both ends write and read them with these: the order lives in that one declaration.
#pragma once

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "message.hpp"

namespace overlap::protocol {

// An object the judge holds, named by the number of the call that made it (0: an empty object).
// The judge checks it where the call uses it (worlds/common/remote.hpp), not as it reads it.
enum class Handle : std::int64_t {};

// The judge's range for an integer argument of a world's calls, or for a list argument's length:
// the argument is the calls' member named `member`, named `what` in errors, and lies in
// [low, high(hello)] (high: nullptr for the member type's largest value). A world's wire.hpp
// lists one for every integer and list member of its calls' arguments.
template <class Hello>
struct Range {
  const char* member;
  const char* what;
  std::int64_t low = std::numeric_limits<int>::min();
  int (*high)(const Hello&) = nullptr;
};

namespace described {

template <class T>
inline constexpr bool is_vector = false;
template <class E>
inline constexpr bool is_vector<std::vector<E>> = true;

template <class T>
concept Struct = boost::describe::has_describe_members<T>::value;

template <class M>
void write_field(Writer& w, const M& value) {
  if constexpr (std::is_same_v<M, Handle>) {
    w.integer(static_cast<std::int64_t>(value));
  } else if constexpr (std::is_integral_v<M>) {
    w.integer(value);
  } else if constexpr (std::is_floating_point_v<M>) {
    w.real(value);
  } else if constexpr (std::is_same_v<M, std::string>) {
    w.text(value);
  } else {
    static_assert(is_vector<M>, "a field is an integer, a real, a text, a handle or a vector");
    w.integer(static_cast<std::int64_t>(value.size()));
    for (const auto& element : value) write_field(w, static_cast<typename M::value_type>(element));
  }
}

// A scalar field; an integer in [low, high], named `what` in errors.
template <class M>
M read_scalar(Reader& r, std::int64_t low, std::int64_t high, const char* what) {
  if constexpr (std::is_same_v<M, Handle>) {
    return Handle{r.integer()};
  } else if constexpr (std::is_integral_v<M>) {
    return static_cast<M>(r.integer(low, high, what));
  } else if constexpr (std::is_floating_point_v<M>) {
    return r.real();
  } else {
    static_assert(std::is_same_v<M, std::string>, "a field is an integer, a real or a text");
    return r.text();
  }
}

// The range of an integer member type (of any other: unused).
template <class M>
constexpr std::int64_t lowest() {
  if constexpr (std::is_integral_v<M>) return std::numeric_limits<M>::min();
  return 0;
}
template <class M>
constexpr std::int64_t highest() {
  if constexpr (std::is_integral_v<M>) return std::numeric_limits<M>::max();
  return 0;
}

// Reads T's members in order. `range(D, low, high, what)` narrows member D's integer (a
// vector's: its length) from its type's range and names it; elements keep their type's range.
template <class T, class Range>
T read(Reader& r, Range range) {
  T value{};
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
      [&](auto D) {
        auto& member = value.*D.pointer;
        using M = std::remove_cvref_t<decltype(member)>;
        if constexpr (is_vector<M>) {
          using E = typename M::value_type;
          std::int64_t low = 0, high = std::numeric_limits<int>::max();
          const char* what = D.name;
          range(D, low, high, what);
          // Grown as read, never reserved: a length is bounded by the frame's bytes.
          for (auto n = r.integer(low, high, what); n > 0; --n) {
            member.push_back(read_scalar<E>(r, lowest<E>(), highest<E>(), D.name));
          }
        } else {
          std::int64_t low = lowest<M>(), high = highest<M>();
          const char* what = D.name;
          if constexpr (std::is_integral_v<M>) range(D, low, high, what);
          member = read_scalar<M>(r, low, high, what);
        }
      });
  return value;
}

// The index in `ranges` of the range of the member named `name`, or ranges' size if none.
template <class Hello, std::size_t N>
consteval std::size_t find(const Range<Hello> (&ranges)[N], std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (ranges[i].member == name) return i;
  }
  return N;
}

}  // namespace described

// Appends `value`'s fields to `w`.
template <described::Struct T>
void write(Writer& w, const T& value) {
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
      [&](auto D) { described::write_field(w, value.*D.pointer); });
}

// Reads a T; an integer out of its member's type's range is a ProtocolError naming the member.
template <described::Struct T>
T read(Reader& r) {
  return described::read<T>(r, [](auto, std::int64_t&, std::int64_t&, const char*&) {});
}

// Reads a T a submission sent, each integer and list length within its range in `Ranges` (an
// array of Range<Hello>) given what the judge told it in `hello`: out of it is a ProtocolError
// that names the argument and its range.
template <described::Struct T, const auto& Ranges, class Hello>
T read(Reader& r, const Hello& hello) {
  return described::read<T>(
      r, [&hello]<class D>(D, std::int64_t& low, std::int64_t& high, const char*& what) {
        constexpr std::size_t i = described::find(Ranges, D::name);
        static_assert(i < std::size(Ranges), "every integer and list argument has its range");
        constexpr Range<Hello> range = Ranges[i];
        what = range.what;
        low = range.low;
        if constexpr (range.high != nullptr) high = range.high(hello);
      });
}

}  // namespace overlap::protocol
