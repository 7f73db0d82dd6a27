// The live interview's web server, on the kit's own Asio with Boost.Beast: two pages, each behind
// a token of its own (the candidate's, the interviewer's), and the files they load.
//
//   /c/TOKEN/            the candidate's page; /brief, /header, /editor, /events, POST /grade
//   /i/TOKEN/            the interviewer's page; /hints, /events, /detail, /export, POST /hint/N,
//                        POST /unseen, POST /score
//   /assets/NAME         the pages' scripts and styles, and CodeMirror from Debian's package
//
// /events is a stream of server-sent events: the room's log from the id the page last saw
// (EventSource resends it on reconnecting), the candidate's page only what it may see.
// With a certificate (--tls), every connection is TLS. Limits: a request's header 8 KiB and 10 s
// (the TLS handshake too), its body the source cap (POST /grade) or 4 KiB and
// 60 s, a write 30 s, and at most `max_connections` at once (more are closed unanswered).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "room.hpp"

namespace overlap::interview {

struct ServerSetup {
  std::string candidate_token;
  std::string interviewer_token;
  std::filesystem::path kit;  // the pages' files (harness/interview/pages), the brief, the header
  std::string header;         // the exercise's public header, as the manifest names it
  std::filesystem::path codemirror = "/usr/share/javascript/codemirror";
  // The outcome is `overlap score`'s own: overlap-interview's score command, run on the record
  // with the marks the form sends (guides/score.json's rule, the exercise's judge).
  std::string interview;
  std::string judge;
  boost::asio::thread_pool* scoring = nullptr;  // where a score, an export, an unseen grade run
  std::uint64_t unseen_seed = 0;                // the interviewer's own seed, never shown
  boost::asio::ssl::context* tls = nullptr;     // with a certificate: HTTPS only
  std::size_t max_connections = 64;
};

// Accepts connections on `acceptor` for ever, serving each in a coroutine of its own.
boost::asio::awaitable<void> serve(boost::asio::ip::tcp::acceptor acceptor,
                                   const ServerSetup& setup, Room& room);

// A token of 128 random bits, as 32 hexadecimal digits, from the kernel's generator.
std::string new_token();

// Whether two strings are equal, in a time that does not depend on where they differ.
bool same_token(std::string_view a, std::string_view b);

}  // namespace overlap::interview
