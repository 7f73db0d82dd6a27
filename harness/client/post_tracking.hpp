// Asio's handler tracking, as the client customises it (BOOST_ASIO_CUSTOM_HANDLER_TRACKING names
// this file, for the client and every submission alike): of Asio's hooks the client keeps one,
// a handler's creation, which runs on the thread that posts it, so that the client learns which
// threads post to train's context (posts.hpp). The other hooks do nothing.
#pragma once

namespace overlap::client {

// A handler was made for `context`, on the calling thread. Cheap: a comparison on the usual path.
void handler_created(const boost::asio::execution_context& context) noexcept;

template <typename... Rest>
inline void on_handler_creation(const boost::asio::execution_context& context, Rest&&...) noexcept {
  handler_created(context);
}

}  // namespace overlap::client

#define BOOST_ASIO_INHERIT_TRACKED_HANDLER
#define BOOST_ASIO_ALSO_INHERIT_TRACKED_HANDLER
#define BOOST_ASIO_HANDLER_TRACKING_INIT (void)0
#define BOOST_ASIO_HANDLER_LOCATION(args) (void)0
#define BOOST_ASIO_HANDLER_CREATION(args) ::overlap::client::on_handler_creation args
#define BOOST_ASIO_HANDLER_COMPLETION(args) (void)0
#define BOOST_ASIO_HANDLER_INVOCATION_BEGIN(args) (void)0
#define BOOST_ASIO_HANDLER_INVOCATION_END (void)0
#define BOOST_ASIO_HANDLER_OPERATION(args) (void)0
#define BOOST_ASIO_HANDLER_REACTOR_REGISTRATION(args) (void)0
#define BOOST_ASIO_HANDLER_REACTOR_DEREGISTRATION(args) (void)0
#define BOOST_ASIO_HANDLER_REACTOR_READ_EVENT 0
#define BOOST_ASIO_HANDLER_REACTOR_WRITE_EVENT 0
#define BOOST_ASIO_HANDLER_REACTOR_ERROR_EVENT 0
#define BOOST_ASIO_HANDLER_REACTOR_EVENTS(args) (void)0
#define BOOST_ASIO_HANDLER_REACTOR_OPERATION(args) (void)0
