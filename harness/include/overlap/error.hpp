// The error every world's operations can complete with (a world's own errors live in its header).
// With `use_awaitable` or in blocking code it arrives as a thrown boost::system::system_error;
// with `as_tuple` as the first element.
#pragma once

#include <boost/system/error_code.hpp>
#include <string>

namespace overlap {

enum class errc {
  misuse = 1,  // the call broke the operation's requirements (see the world's header)
};

namespace detail {
class Category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "overlap"; }
  std::string message(int value) const override {
    return value == static_cast<int>(errc::misuse)
               ? "the call broke the operation's requirements (see the report's violations)"
               : "unknown overlap error";
  }
};
}  // namespace detail

inline const boost::system::error_category& category() {
  static const detail::Category instance;
  return instance;
}

inline boost::system::error_code make_error_code(errc e) {
  return {static_cast<int>(e), category()};
}

}  // namespace overlap

template <>
struct boost::system::is_error_code_enum<overlap::errc> : std::true_type {};
