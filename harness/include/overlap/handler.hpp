// The completion handler behind every async_ operation, type-erased: each header's templates hand
// the handler of whatever token you pass to the world's compiled code in this one form, which
// keeps your build fast. R... are the results after the error code.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/system/error_code.hpp>

namespace overlap {

template <typename... R>
using Handler = boost::asio::any_completion_handler<void(boost::system::error_code, R...)>;

}  // namespace overlap
