// Which threads post to train's context. After each handler, train's thread waits until the
// submission's other threads cannot act (threads.hpp): what one of them posted meanwhile runs
// after what train's thread posted, in that thread's own order. Two other threads posting in one
// such wait race: the order of their handlers, and so of the calls those make, would be real
// time's, so the client reports it as a misuse rather than grade one order of many.
#pragma once

#include <boost/asio/execution_context.hpp>

namespace overlap::client {

// Watches `context`, run by the calling thread; before any other thread exists.
void watch_posts(const boost::asio::execution_context& context);

// Whether two or more threads other than the watcher posted to the context since the last
// call.
bool posted_from_two_threads();

}  // namespace overlap::client
