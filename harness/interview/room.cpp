#include "room.hpp"

#include <fmt/format.h>

#include <boost/asio/post.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <regex>

#include "../judge/files.hpp"
#include "../judge/sha256.hpp"
#include "../verdict/verdict.hpp"
#include "command_line.hpp"
#include "grade_command.hpp"

namespace overlap::interview {

namespace fs = std::filesystem;
namespace json = boost::json;

struct GradeResult {
  Regrade regrade;
  std::string html;  // the judge's HTML report of the grade ("" when it wrote none)
};

namespace {

std::string text_or_empty(const fs::path& path) {
  return judge::file_bytes(path.string()).value_or("");
}

json::object grade_json(const Event& e, int version, std::int64_t started) {
  json::array scenarios;
  for (const ScenarioLine& s : e.scenarios) {
    scenarios.push_back(json::object{{"name", s.name},
                                     {"verdict", verdict::tier_name(s.verdict)},
                                     {"speedup", s.speedup},
                                     {"violation", s.violation}});
  }
  return {{"kind", "graded"},
          {"version", version},
          {"minute", (e.time - started) / 60},
          {"built", e.built},
          {"verdict", e.built ? verdict::tier_name(e.verdict) : "did not build"},
          {"scenarios", std::move(scenarios)},
          {"report", e.report},
          {"source", e.source}};
}

}  // namespace

std::vector<std::string> hint_questions(const std::string& markdown) {
  static const std::regex heading(R"(^\*\*Hint (\d+):)");
  std::vector<std::string> out;
  std::string current;
  bool inside = false;
  std::size_t start = 0;
  while (start <= markdown.size()) {
    const std::size_t end = std::min(markdown.find('\n', start), markdown.size());
    const std::string line = markdown.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    if (std::regex_search(line, m, heading)) {
      if (inside) out.push_back(current);
      current = line;
      inside = std::stoul(m[1].str()) == out.size() + 1;
      continue;
    }
    // The question ends at its answer, or at a blank line.
    if (line.starts_with("*Unlocks:*") || line.empty()) {
      if (inside) out.push_back(current);
      inside = false;
      continue;
    }
    if (inside) current += " " + line;  // one paragraph, as the page shows it
  }
  if (inside) out.push_back(current);
  return out;
}

Room::Room(RoomSetup setup, boost::asio::any_io_executor executor)
    : setup_(std::move(setup)), executor_(std::move(executor)) {
  questions_ =
      hint_questions(readable_text(setup_.kit / "guides/hints" / (setup_.exercise + ".md")));
  const std::int64_t now = now_seconds();
  run_ = std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count();
  session_ =
      setup_.resume ? current_session(setup_.sessions, now) : start_session(setup_.sessions, now);
  std::vector<Event> events = read_events(session_);
  started_ = events.empty() ? now : events.front().time;
  // Resumed: the pages see the record so far, as it was recorded.
  for (const Event& e : events) {
    if (e.kind == Event::Kind::grade && trusted(e)) {
      const int version = version_of(e.source);
      last_submitted_ = e.source;
      log(true, json::serialize(grade_json(e, version, started_)));
    } else if (e.kind == Event::Kind::hint && trusted(e) && e.hint >= 1 && e.hint <= hint_count()) {
      log(true, json::serialize(json::object{{"kind", "hint"},
                                             {"hint", e.hint},
                                             {"minute", (e.time - started_) / 60},
                                             {"question", questions_[e.hint - 1]}}));
    }
  }
  fs::create_directories(setup_.work);
  // A version submitted before a restart and not graded yet is graded now: none is lost.
  if (setup_.resume) {
    if (auto pending = judge::file_bytes(pending_file().string())) submit(std::move(*pending));
  }
}

fs::path Room::pending_file() const { return setup_.work / "pending.cpp"; }

Room::~Room() {
  if (judge_thread_.joinable()) judge_thread_.join();
}

int Room::version_of(const std::string& source) {
  const std::string sha = judge::sha256_hex(source);
  for (std::size_t i = 0; i < versions_.size(); ++i) {
    if (versions_[i] == sha) return static_cast<int>(i) + 1;
  }
  versions_.push_back(sha);
  return static_cast<int>(versions_.size());
}

void Room::log(bool candidate, std::string json) {
  log_.push_back({static_cast<std::int64_t>(log_.size()) + 1, candidate, std::move(json)});
  // Every page waiting on the log wakes; pages gone are forgotten.
  std::erase_if(subscribers_, [](const auto& weak) {
    const auto timer = weak.lock();
    if (timer) timer->cancel();
    return !timer;
  });
}

std::vector<const PageEvent*> Room::since(std::int64_t since, bool candidate) const {
  std::vector<const PageEvent*> out;
  for (const PageEvent& e : log_) {
    if (e.id > since && (e.candidate || !candidate)) out.push_back(&e);
  }
  return out;
}

std::shared_ptr<boost::asio::steady_timer> Room::subscribe() {
  auto timer = std::make_shared<boost::asio::steady_timer>(executor_);
  timer->expires_at(boost::asio::steady_timer::time_point::max());
  subscribers_.push_back(timer);
  return timer;
}

std::string Room::editor_text() const {
  if (!last_submitted_.empty()) return last_submitted_;
  return text_or_empty(setup_.kit / "exercises" / setup_.exercise / "train.cpp");
}

void Room::submit(std::string source) {
  last_submitted_ = source;
  const int version = version_of(source);
  if (grading_) {
    if (waiting_) {
      log(true, json::serialize(json::object{
                    {"kind", "replaced"}, {"version", version_of(*waiting_)}, {"by", version}}));
    }
    waiting_ = std::move(source);
    log(true, json::serialize(json::object{{"kind", "waiting"}, {"version", version}}));
    return;
  }
  waiting_ = std::move(source);
  start_grade();
}

void Room::start_grade() {
  if (!waiting_) return;
  std::string source = std::move(*waiting_);
  waiting_.reset();
  grading_ = true;
  const int version = version_of(source);
  write_text(pending_file(), source);  // until its grade is recorded
  log(true,
      json::serialize(json::object{
          {"kind", "grading"}, {"version", version}, {"minute", (now_seconds() - started_) / 60}}));
  if (judge_thread_.joinable()) judge_thread_.join();  // it has posted its result already
  judge_thread_ = std::thread([this, version, source = std::move(source)]() mutable {
    GradeResult result;
    const fs::path work = setup_.work / fmt::format("version-{}", version);
    const fs::path html = work / "report.html";
    try {
      fs::remove(html);
      result.regrade = grade_text(setup_.judge, setup_.exercise, source, work, now_seconds(),
                                  {"--html", html.string()});
      result.html = text_or_empty(html);
    } catch (const std::exception& e) {
      result.regrade.exit = 4;
      result.regrade.messages = e.what();
    }
    boost::asio::post(executor_, [this, version, result = std::move(result)]() mutable {
      graded(version, std::move(result));
    });
  });
}

void Room::graded(int version, GradeResult result) {
  grading_ = false;
  if (result.regrade.event) {
    try {
      append(session_, *result.regrade.event);
      fs::remove(pending_file());
    } catch (const std::exception& e) {
      result.regrade.event.reset();
      result.regrade.messages = fmt::format("the record could not be written: {}", e.what());
    }
  }
  if (result.regrade.event) {
    json::object graded = grade_json(*result.regrade.event, version, started_);
    graded["html"] = result.html;
    log(true, json::serialize(graded));
  } else {
    // The judge itself failed (a usage or grader error): nothing recorded, and both pages told.
    log(true, json::serialize(json::object{{"kind", "grader-error"},
                                           {"version", version},
                                           {"exit", result.regrade.exit},
                                           {"messages", result.regrade.messages}}));
  }
  start_grade();
}

bool Room::give_hint(int n) {
  if (n < 1 || n > hint_count()) return false;
  Event e;
  e.kind = Event::Kind::hint;
  e.time = now_seconds();
  e.hint = n;
  append(session_, e);
  log(true, json::serialize(json::object{{"kind", "hint"},
                                         {"hint", n},
                                         {"minute", (e.time - started_) / 60},
                                         {"question", questions_[n - 1]}}));
  return true;
}

}  // namespace overlap::interview
