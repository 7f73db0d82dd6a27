#include "server.hpp"

#include <fmt/format.h>
#include <sys/random.h>

#include <array>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <optional>
#include <regex>
#include <stdexcept>

#include "../judge/files.hpp"
#include "brief_html.hpp"
#include "grade_command.hpp"
#include "judge_run.hpp"

namespace overlap::interview {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using asio::awaitable;
using asio::use_awaitable;

namespace {

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr std::size_t kHeaderLimit = 8 * 1024;
constexpr std::size_t kSmallBody = 4 * 1024;
constexpr auto kHeaderTime = 10s;
constexpr auto kBodyTime = 60s;
constexpr auto kWriteTime = 30s;
constexpr auto kKeepAlive = 15s;  // a stream with nothing to say says so this often

// The pages' own files, by the name they are asked for, and where each comes from.
struct Asset {
  const char* name;
  const char* type;
  bool codemirror;   // from Debian's CodeMirror, else from harness/interview/pages
  const char* path;  // under that folder
};
constexpr std::array kAssets = {
    Asset{"codemirror.js", "text/javascript", true, "lib/codemirror.js"},
    Asset{"codemirror.css", "text/css", true, "lib/codemirror.css"},
    Asset{"clike.js", "text/javascript", true, "mode/clike/clike.js"},
    Asset{"page.css", "text/css", false, "page.css"},
    Asset{"common.js", "text/javascript", false, "common.js"},
    Asset{"candidate.js", "text/javascript", false, "candidate.js"},
    Asset{"interviewer.js", "text/javascript", false, "interviewer.js"},
};

// What a request asks for: whose page (by its token), and the rest of its path.
struct Route {
  enum class Who { none, candidate, interviewer, asset } who = Who::none;
  std::string rest;  // "", "brief", "events", "hint/2", ... (for an asset, its name)
};

Route route_of(std::string_view target, const ServerSetup& setup) {
  target = target.substr(0, target.find('?'));
  Route r;
  if (target.starts_with("/assets/")) {
    r.who = Route::Who::asset;
    r.rest = target.substr(8);
    return r;
  }
  if (target.size() < 4 || target[0] != '/' || target[2] != '/') return r;
  const char kind = target[1];
  target.remove_prefix(3);
  const std::string_view token = target.substr(0, target.find('/'));
  target.remove_prefix(token.size());
  if (!target.empty()) target.remove_prefix(1);  // the slash after the token
  if (kind == 'c' && same_token(token, setup.candidate_token)) r.who = Route::Who::candidate;
  if (kind == 'i' && same_token(token, setup.interviewer_token)) r.who = Route::Who::interviewer;
  r.rest = target;
  return r;
}

Response reply(const Request& req, http::status status, std::string type, std::string body) {
  Response res{status, req.version()};
  res.set(http::field::server, "overlap");
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  // The tokens are in the pages' addresses: never sent elsewhere.
  res.set("Referrer-Policy", "no-referrer");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Content-Security-Policy",
          "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

Response text(const Request& req, http::status status, std::string body) {
  return reply(req, status, "text/plain; charset=utf-8", std::move(body) + "\n");
}

std::optional<std::string> file(const fs::path& path) { return judge::file_bytes(path.string()); }

Response asset(const Request& req, const std::string& name, const ServerSetup& setup) {
  for (const Asset& a : kAssets) {
    if (name != a.name) continue;
    const fs::path path =
        a.codemirror ? setup.codemirror / a.path : setup.kit / "harness/interview/pages" / a.path;
    if (auto body = file(path)) return reply(req, http::status::ok, a.type, std::move(*body));
    return text(req, http::status::internal_server_error, "missing: " + name);
  }
  return text(req, http::status::not_found, "no such file");
}

Response page(const Request& req, const ServerSetup& setup, const char* name) {
  if (auto body = file(setup.kit / "harness/interview/pages" / name)) {
    return reply(req, http::status::ok, "text/html; charset=utf-8", std::move(*body));
  }
  return text(req, http::status::internal_server_error, "missing page");
}

// Everything but the event stream, for the page the token opened.
Response answer(const Request& req, const Route& route, const ServerSetup& setup, Room& room) {
  const bool get = req.method() == http::verb::get;
  const bool post = req.method() == http::verb::post;
  const std::string& exercise = room.setup().exercise;
  if (route.who == Route::Who::candidate) {
    if (get && route.rest.empty()) return page(req, setup, "candidate.html");
    if (get && route.rest == "brief") {
      const auto brief = file(setup.kit / "exercises" / exercise / "README.md");
      return reply(req, http::status::ok, "text/html; charset=utf-8",
                   brief ? markdown_to_html(*brief) : "");
    }
    if (get && route.rest == "header") {
      return reply(req, http::status::ok, "text/plain; charset=utf-8",
                   file(setup.kit / "harness/include" / setup.header).value_or(""));
    }
    if (get && route.rest == "editor") {
      return reply(req, http::status::ok, "text/plain; charset=utf-8", room.editor_text());
    }
    if (post && route.rest == "grade") {
      room.submit(req.body());
      return reply(req, http::status::accepted, "application/json",
                   json::serialize(json::object{{"pending", room.pending()}}));
    }
  } else if (route.who == Route::Who::interviewer) {
    if (get && route.rest.empty()) return page(req, setup, "interviewer.html");
    if (get && route.rest == "hints") {
      json::object out{{"exercise", exercise},
                       {"format", room.setup().format},
                       {"started", room.started()},
                       {"hints", room.hint_count()}};
      return reply(req, http::status::ok, "application/json", json::serialize(out));
    }
    if (post && route.rest.starts_with("hint/")) {
      int n = 0;
      try {
        n = std::stoi(route.rest.substr(5));
      } catch (const std::exception&) {
      }
      if (!room.give_hint(n)) {
        return text(req, http::status::bad_request,
                    fmt::format("no hint {}: 1 to {}", route.rest.substr(5), room.hint_count()));
      }
      return reply(req, http::status::ok, "application/json", "{}");
    }
  } else if (route.who == Route::Who::asset && get) {
    return asset(req, route.rest, setup);
  } else {
    // A wrong or missing token learns nothing, not even which part was wrong.
    return text(req, http::status::not_found, "not found");
  }
  return text(req, get || post ? http::status::not_found : http::status::method_not_allowed,
              "not found");
}

// The score command's options from the form's marks (a JSON object of strings and booleans):
// each mark as `overlap score` takes it, "2", "2,1", "-" (not asked); what is wrong with one is
// for the command to say.
std::vector<std::string> score_args(const std::string& body, const Room& room,
                                    const ServerSetup& setup) {
  const json::object form = json::parse(body).as_object();
  std::vector<std::string> args = {"score",      room.setup().exercise,
                                   "--sessions", room.setup().sessions.string(),
                                   "--rule",     (setup.kit / "guides/score.json").string(),
                                   "--judge",    setup.judge,
                                   "--format",   room.setup().format};
  static const std::regex mark(R"(^[0-9-]+(,[0-9-]+){0,2}$)");
  for (const char* name :
       {"predictions", "communication", "follow-ups", "approach", "debrief", "defended"}) {
    const json::value* v = form.if_contains(name);
    if (!v || !v->is_string() || v->as_string().empty()) continue;
    const std::string given(v->as_string());
    if (!std::regex_match(given, mark)) throw std::invalid_argument(name);
    if (std::string_view(name) == "defended") {
      if (given == "1") args.push_back("--defended");
      if (given == "-") args.push_back("--defended=-");
      continue;
    }
    args.push_back(fmt::format("--{}", name));
    args.push_back(given);
  }
  if (const json::value* v = form.if_contains("gap-explained"); v && v->is_bool() && v->as_bool()) {
    args.push_back("--gap-explained");
  }
  // The last version graded on the unseen seed (POST /unseen) caps the code score as a `fail`.
  if (const fs::path unseen = room.setup().work / "unseen.json"; fs::exists(unseen)) {
    args.insert(args.end(), {"--unseen", unseen.string()});
  }
  return args;
}

// Runs `work` on the scoring pool and comes back: the pages are never held up by it.
template <typename Work>
awaitable<JudgeRun> off_the_server(const ServerSetup& setup, Work work) {
  const auto home = co_await asio::this_coro::executor;
  co_await asio::post(setup.scoring->get_executor(), use_awaitable);
  JudgeRun run;
  try {
    run = work();
  } catch (const std::exception& e) {
    run.exit = 4;
    run.messages = e.what();
  }
  co_await asio::post(home, use_awaitable);
  co_return run;
}

// The record for a second interviewer (`overlap session --export`), whose --import regrades it.
awaitable<Response> export_record(const Request& req, const ServerSetup& setup, Room& room) {
  const fs::path out = room.setup().work / "export.json";
  const std::vector<std::string> args = {"session",    room.setup().exercise,
                                         "--sessions", room.setup().sessions.string(),
                                         "--export",   out.string()};
  const JudgeRun run =
      co_await off_the_server(setup, [&] { return run_program(setup.interview, args, false); });
  const auto body = file(out);
  if (run.exit != 0 || !body) {
    co_return text(req, http::status::internal_server_error, run.printed + run.messages);
  }
  Response res = reply(req, http::status::ok, "application/json", *body);
  res.set(http::field::content_disposition,
          fmt::format("attachment; filename=\"overlap-session-{}.json\"", room.setup().exercise));
  co_return res;
}

// How each best known of the default set is reached, and the stretch scenarios: the reference
// graded with --interviewer, the first time it is asked for.
awaitable<Response> detail(const Request& req, const ServerSetup& setup, Room& room) {
  if (room.interviewer_detail().empty()) {
    const RoomSetup& r = room.setup();
    const JudgeRun run = co_await off_the_server(setup, [&] {
      return run_judge(
          setup.judge,
          {r.exercise, "--submission",
           (setup.kit / "solutions" / r.exercise / "train.cpp").string(), "--interviewer"},
          "", false);
    });
    if (run.exit != 0 && run.exit != 1) {
      co_return text(req, http::status::internal_server_error, run.printed + run.messages);
    }
    room.interviewer_detail() = run.printed;
  }
  co_return text(req, http::status::ok, room.interviewer_detail());
}

// The session's last version graded on the interviewer's seed, which the candidate never sees:
// its report, kept for the score (--unseen), and printed for this page alone.
awaitable<Response> grade_unseen(const Request& req, const ServerSetup& setup, Room& room) {
  const RoomSetup& r = room.setup();
  const fs::path last = r.work / "unseen.cpp", report = r.work / "unseen.json";
  const JudgeRun run = co_await off_the_server(setup, [&] {
    fs::remove(report);
    JudgeRun wrote = run_program(
        setup.interview,
        {"session", r.exercise, "--sessions", r.sessions.string(), "--last", last.string()}, false);
    if (wrote.exit != 0) return wrote;
    return run_judge(setup.judge,
                     {r.exercise, "--submission", last.string(), "--submission-name",
                      fmt::format("exercises/{}/train.cpp", r.exercise), "--scenario", "generated",
                      "--seed", std::to_string(setup.unseen_seed)},
                     report.string(), false);
  });
  const bool graded = run.exit == 0 || run.exit == 1;
  co_return text(req, graded ? http::status::ok : http::status::bad_request,
                 run.printed + run.messages);
}

// The room's log as server-sent events, from the id after `last`, until the page goes away. An
// event's id is the server's run and its place in the log ("RUN.N"): a page that saw an earlier
// run (before a restart) is told to start over, and is sent the whole log.
template <typename Stream>
awaitable<void> stream_events(Stream& stream, Room& room, bool candidate,
                              std::optional<std::int64_t> last) {
  std::string out =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
      "Referrer-Policy: no-referrer\r\nX-Content-Type-Options: nosniff\r\n"
      "Connection: close\r\n\r\n";
  if (!last) out += "data: {\"kind\":\"reset\"}\n\n";
  std::int64_t seen = last.value_or(0);
  for (;;) {
    for (const PageEvent* e : room.since(seen, candidate)) {
      out += fmt::format("id: {}.{}\ndata: {}\n\n", room.run(), e->id, e->json);
      seen = e->id;
    }
    if (out.empty()) out = ": still here\n\n";
    beast::get_lowest_layer(stream).expires_after(kWriteTime);
    co_await asio::async_write(stream, asio::buffer(out), use_awaitable);
    out.clear();
    if (!room.since(seen, candidate).empty()) continue;  // it grew while we wrote
    const auto timer = room.subscribe();
    timer->expires_after(kKeepAlive);
    boost::system::error_code ec;
    co_await timer->async_wait(asio::redirect_error(use_awaitable, ec));
  }
}

// The last event a reconnecting page saw: 0 for a new page, none for one of an earlier run.
std::optional<std::int64_t> last_event_id(const Request& req, const Room& room) {
  const auto it = req.find("Last-Event-ID");
  if (it == req.end()) return 0;
  const std::string id(it->value());
  const std::string run = fmt::format("{}.", room.run());
  if (!id.starts_with(run)) return std::nullopt;
  try {
    return std::stoll(id.substr(run.size()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The outcome for the form's marks, by `overlap score` (run where it cannot hold up the pages).
awaitable<Response> score(const Request& req, const ServerSetup& setup, Room& room) {
  std::vector<std::string> args;
  try {
    args = score_args(req.body(), room, setup);
  } catch (const std::exception&) {
    co_return text(req, http::status::bad_request,
                   "each mark is 0, 1, 2 or - (not asked), several with commas");
  }
  const JudgeRun run =
      co_await off_the_server(setup, [&] { return run_program(setup.interview, args, false); });
  co_return reply(req, run.exit == 0 ? http::status::ok : http::status::bad_request,
                  "text/plain; charset=utf-8", run.printed + run.messages);
}

// Requests on one connection, plain or TLS, until the client closes it or breaks a limit.
template <typename Stream>
awaitable<void> serve_connection(Stream& stream, const ServerSetup& setup, Room& room) {
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(kMaxSourceBytes);  // Beast checks it against the header's length
    beast::get_lowest_layer(stream).expires_after(kHeaderTime);
    co_await http::async_read_header(stream, buffer, parser, use_awaitable);
    const Route route = route_of(parser.get().target(), setup);
    // Only a version may be large, and only the candidate sends one.
    const bool version = route.who == Route::Who::candidate && route.rest == "grade";
    if (!version && (parser.chunked() || parser.content_length().value_or(0) > kSmallBody)) {
      Response res = text(parser.get(), http::status::payload_too_large, "too large");
      res.keep_alive(false);
      beast::get_lowest_layer(stream).expires_after(kWriteTime);
      co_await http::async_write(stream, res, use_awaitable);
      co_return;
    }
    beast::get_lowest_layer(stream).expires_after(kBodyTime);
    co_await http::async_read(stream, buffer, parser, use_awaitable);
    Request req = parser.release();
    if (req.method() == http::verb::get && route.rest == "events" &&
        (route.who == Route::Who::candidate || route.who == Route::Who::interviewer)) {
      co_await stream_events(stream, room, route.who == Route::Who::candidate,
                             last_event_id(req, room));
      co_return;
    }
    Response res;
    const bool interviewer = route.who == Route::Who::interviewer;
    const bool post = req.method() == http::verb::post;
    if (interviewer && post && route.rest == "score") {
      res = co_await score(req, setup, room);
    } else if (interviewer && post && route.rest == "unseen") {
      res = co_await grade_unseen(req, setup, room);
    } else if (interviewer && req.method() == http::verb::get && route.rest == "export") {
      res = co_await export_record(req, setup, room);
    } else if (interviewer && req.method() == http::verb::get && route.rest == "detail") {
      res = co_await detail(req, setup, room);
    } else {
      res = answer(req, route, setup, room);
    }
    beast::get_lowest_layer(stream).expires_after(kWriteTime);
    co_await http::async_write(stream, res, use_awaitable);
    if (!res.keep_alive()) co_return;
  }
}

}  // namespace

std::string new_token() {
  std::array<unsigned char, 16> bytes{};
  if (getrandom(bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
    throw std::runtime_error("the kernel gave no random bytes for a token");
  }
  std::string out;
  for (unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

bool same_token(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    differ |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return differ == 0;
}

namespace {

// One connection, counted in `open` (by the acceptor) until it ends: TLS first when the server
// has a certificate.
awaitable<void> connection(asio::ip::tcp::socket socket, const ServerSetup& setup, Room& room,
                           std::shared_ptr<std::size_t> open) {
  try {
    beast::tcp_stream plain(std::move(socket));
    if (setup.tls) {
      beast::ssl_stream<beast::tcp_stream> secure(std::move(plain), *setup.tls);
      beast::get_lowest_layer(secure).expires_after(kHeaderTime);
      co_await secure.async_handshake(asio::ssl::stream_base::server, use_awaitable);
      co_await serve_connection(secure, setup, room);
    } else {
      co_await serve_connection(plain, setup, room);
    }
  } catch (const std::exception&) {
    // A client gone, too slow or malformed: its connection ends, nothing else.
  }
  --*open;
}

}  // namespace

awaitable<void> serve(asio::ip::tcp::acceptor acceptor, const ServerSetup& setup, Room& room) {
  const auto open = std::make_shared<std::size_t>(0);  // connections being served
  for (;;) {
    asio::ip::tcp::socket socket = co_await acceptor.async_accept(use_awaitable);
    if (*open >= setup.max_connections) continue;  // closed unanswered: the bound holds
    ++*open;
    asio::co_spawn(acceptor.get_executor(), connection(std::move(socket), setup, room, open),
                   asio::detached);
  }
}

}  // namespace overlap::interview
