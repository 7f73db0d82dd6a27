// `overlap interview`: the live interview served from the interviewer's machine (server.hpp), on
// the exercise's session record (room.hpp).
//
//   overlap-serve EXERCISE --sessions DIR --judge FILE --interview FILE --kit DIR --header FILE
//                 [--format 45-minute|15-minute] [--seed S] [--listen ADDR:PORT]
//                 [--tls CERT KEY | --insecure] [--resume]
//
// Listens on loopback (127.0.0.1, a port the kernel picks) unless --listen says otherwise;
// another address needs --tls (a certificate and its key, PEM: every connection HTTPS) or
// --insecure (the traffic, tokens included, in the clear; or forward the port over SSH, README.md).
// Prints the candidate's link and the interviewer's, and serves until stopped (SIGINT or SIGTERM).
// --seed is the interviewer's own seed, which the interviewer's page grades the last version on
// after the interview (a random one if not given, the same one after --resume); the candidate never
// sees it.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <sstream>

#include "../worlds/common/generated.hpp"
#include "command_line.hpp"
#include "room.hpp"
#include "server.hpp"

namespace overlap::interview {

namespace asio = boost::asio;
namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

asio::ip::tcp::endpoint listen_endpoint(const std::string& listen, bool in_the_clear_allowed) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos) throw UsageError("--listen takes ADDR:PORT (127.0.0.1:8080)");
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(listen.substr(0, colon), ec);
  if (ec) throw UsageError(fmt::format("--listen: '{}' is no IP address", listen.substr(0, colon)));
  int port = -1;
  try {
    port = std::stoi(listen.substr(colon + 1));
  } catch (const std::exception&) {
  }
  if (port < 0 || port > 65535) throw UsageError("--listen: the port must be 0 to 65535");
  if (!address.is_loopback() && !in_the_clear_allowed) {
    throw UsageError(
        "--listen on an address other than loopback would send the tokens in the clear: give a "
        "certificate (--tls CERT KEY), forward the port over SSH (README.md), or say --insecure");
  }
  return {address, static_cast<unsigned short>(port)};
}

int serve_command(int argc, char** argv) {
  po::options_description options("interview options");
  options.add_options()                                                    //
      ("exercise", po::value<std::string>())                               //
      ("sessions", po::value<std::string>())                               //
      ("judge", po::value<std::string>())                                  //
      ("interview", po::value<std::string>())                              //
      ("kit", po::value<std::string>())                                    //
      ("header", po::value<std::string>())                                 //
      ("format", po::value<std::string>()->default_value(kDefaultFormat))  //
      ("listen", po::value<std::string>()->default_value("127.0.0.1:0"))   //
      ("seed", po::value<std::uint64_t>())                                 //
      ("tls", po::value<std::vector<std::string>>()->multitoken())         //
      ("insecure", po::bool_switch())                                      //
      ("resume", po::bool_switch());
  const po::variables_map args = parse(argc, argv, options);
  for (const char* needed : {"judge", "interview", "kit", "header"}) {
    if (!args.count(needed)) throw UsageError(fmt::format("interview needs --{}", needed));
  }
  const std::string format = args["format"].as<std::string>();
  if (format != "45-minute" && format != "15-minute") {
    throw UsageError(
        fmt::format("unknown format '{}'; valid formats: 45-minute, 15-minute", format));
  }
  std::optional<asio::ssl::context> tls;
  if (args.count("tls")) {
    const auto files = args["tls"].as<std::vector<std::string>>();
    if (files.size() != 2) throw UsageError("--tls takes two files: the certificate and its key");
    if (args["insecure"].as<bool>()) throw UsageError("--tls and --insecure: choose one");
    tls.emplace(asio::ssl::context::tls_server);
    tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                     asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                     asio::ssl::context::no_tlsv1_1);
    try {
      tls->use_certificate_chain_file(files[0]);
      tls->use_private_key_file(files[1], asio::ssl::context::pem);
    } catch (const boost::system::system_error& e) {
      throw UsageError(fmt::format("--tls {} {}: {}", files[0], files[1], e.code().message()));
    }
  }
  auto endpoint = listen_endpoint(args["listen"].as<std::string>(),
                                  tls.has_value() || args["insecure"].as<bool>());

  // One interview of an exercise at a time on this machine: two would write one record.
  fs::create_directories(sessions_of(args));
  const fs::path lock_path = sessions_of(args) / "served.lock";
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0 || ::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    throw UsageError(fmt::format("an interview of {} is already served from this machine",
                                 args["exercise"].as<std::string>()));
  }

  asio::io_context io;
  RoomSetup room_setup;
  room_setup.exercise = args["exercise"].as<std::string>();
  room_setup.kit = args["kit"].as<std::string>();
  room_setup.sessions = sessions_of(args);
  room_setup.work = room_setup.sessions / "served";
  room_setup.judge = args["judge"].as<std::string>();
  room_setup.format = format;
  room_setup.resume = args["resume"].as<bool>();
  Room room(room_setup, io.get_executor());

  asio::thread_pool scoring(1);
  ServerSetup setup;
  setup.kit = room_setup.kit;
  setup.interview = args["interview"].as<std::string>();
  setup.judge = room_setup.judge;
  setup.scoring = &scoring;
  setup.tls = tls ? &*tls : nullptr;
  setup.header = args["header"].as<std::string>();
  // Resumed, the links stay the same (tokens and port): the pages open before the restart
  // reconnect by themselves.
  const fs::path links = room_setup.sessions / "served-links";
  std::istringstream saved(room_setup.resume && fs::exists(links) ? readable_text(links) : "");
  unsigned short port = 0;
  if (saved >> setup.candidate_token >> setup.interviewer_token >> port >> setup.unseen_seed) {
    if (endpoint.port() == 0) endpoint.port(port);
  } else {
    setup.candidate_token = new_token();
    setup.interviewer_token = new_token();
    // Past the public seed 1 and the small seeds a candidate might try.
    setup.unseen_seed = 1000 + std::stoull(new_token().substr(0, 8), nullptr, 16) % 1'000'000'000;
  }
  if (args.count("seed")) setup.unseen_seed = args["seed"].as<std::uint64_t>();
  if (setup.unseen_seed == worlds::kPublicSeed) {
    throw UsageError("--seed 1 is the public seed, which the candidate grades on: choose another");
  }

  asio::ip::tcp::acceptor acceptor(io);
  acceptor.open(endpoint.protocol());
  acceptor.set_option(asio::socket_base::reuse_address(true));
  acceptor.bind(endpoint);
  acceptor.listen();
  const auto bound = acceptor.local_endpoint();
  write_text(links, fmt::format("{}\n{}\n{}\n{}\n", setup.candidate_token, setup.interviewer_token,
                                bound.port(), setup.unseen_seed));
  fs::permissions(links, fs::perms::owner_read | fs::perms::owner_write);
  const std::string host = bound.address().is_v6()
                               ? fmt::format("[{}]", bound.address().to_string())
                               : bound.address().to_string();
  const char* scheme = tls ? "https" : "http";
  fmt::print("overlap: the interview of {} is served at {}://{}:{}/\n", room_setup.exercise, scheme,
             host, bound.port());
  fmt::print("  candidate:   {}://{}:{}/c/{}/\n", scheme, host, bound.port(),
             setup.candidate_token);
  fmt::print("  interviewer: {}://{}:{}/i/{}/\n", scheme, host, bound.port(),
             setup.interviewer_token);
  fmt::print(
      "Send the candidate their link alone; Ctrl-C ends the interview (--resume continues it).\n");
  std::cout.flush();
  std::fflush(stdout);

  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) { io.stop(); });
  asio::co_spawn(io, serve(std::move(acceptor), setup, room), [](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();
  return 0;
}

}  // namespace

}  // namespace overlap::interview

int main(int argc, char** argv) {
  return overlap::interview::guarded(overlap::interview::serve_command, argc, argv);
}
