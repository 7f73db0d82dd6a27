// The error every world's operations can complete with (a world's own errors live in its header).
// With `use_awaitable` or in blocking code it arrives as a thrown boost::system::system_error;
// with `as_tuple` as the first element.
#pragma once

#include <boost/system/error_code.hpp>

namespace overlap {

enum class errc {
  misuse = 1,  // the call broke the operation's requirements (see the world's header)
};

const boost::system::error_category& category();

inline boost::system::error_code make_error_code(errc e) {
  return {static_cast<int>(e), category()};
}

}  // namespace overlap

template <>
struct boost::system::is_error_code_enum<overlap::errc> : std::true_type {};
