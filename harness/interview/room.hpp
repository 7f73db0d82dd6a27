// A live interview on the interviewer's machine: one exercise's session record (the same record
// `overlap grade`, `session` and `score` keep), the version being graded and the one waiting
// behind it, and the log of what happened that the two pages follow.
//
// Everything here runs on the server's one thread but the judge: a version is graded by the
// judge as a user runs it (grade_text), on a thread of its own, and its result comes back to the
// server's thread. The record is written only here, from what this machine graded and what the
// interviewer did; the candidate's page can only send a version to grade.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "session.hpp"

namespace overlap::interview {

struct RoomSetup {
  std::string exercise;
  std::filesystem::path kit;       // the kit's root: the brief, the hints, the header
  std::filesystem::path sessions;  // the exercise's sessions folder
  std::filesystem::path work;      // for the files the judge grades
  std::string judge;               // the exercise's judge program
  std::string format = "45-minute";
  bool resume = false;  // continue the current session instead of starting one
};

// One line of the log: what a page is told, in order. `candidate` says whether the candidate's
// page may see it (the interviewer's sees everything).
struct PageEvent {
  std::int64_t id = 0;
  bool candidate = false;
  std::string json;
};

struct GradeResult;

class Room {
 public:
  Room(RoomSetup setup, boost::asio::any_io_executor executor);
  ~Room();
  Room(const Room&) = delete;
  Room& operator=(const Room&) = delete;

  const RoomSetup& setup() const { return setup_; }
  std::int64_t started() const { return started_; }
  // This run of the server: a restart (--resume) rebuilds the log, and its ids start again.
  std::int64_t run() const { return run_; }

  // A new version from the candidate: graded at once if nothing is, else it waits, replacing
  // the version that waited before it (the log says so).
  void submit(std::string source);
  // Hint n given now, as the interviewer sends it: recorded, and its question shown to the
  // candidate. False when there is no hint n.
  bool give_hint(int n);

  // The log from after `since` (an event id), for one page.
  std::vector<const PageEvent*> since(std::int64_t since, bool candidate) const;
  // Wakes when the log grows: a timer a page's stream waits on, cancelled by the next event.
  std::shared_ptr<boost::asio::steady_timer> subscribe();

  // The text the candidate's editor starts from: the last version submitted, or the starter.
  std::string editor_text() const;
  int hint_count() const { return static_cast<int>(questions_.size()); }
  // The interviewer's detail of the default set (how each best known is reached, the stretch
  // scenarios): the reference graded with --interviewer, once, kept here ("" until then).
  std::string& interviewer_detail() { return detail_; }
  // The number of versions the judge has not finished with (being graded, or waiting).
  int pending() const { return (grading_ ? 1 : 0) + (waiting_ ? 1 : 0); }

 private:
  void log(bool candidate, std::string json);
  void start_grade();
  void graded(int version, GradeResult result);
  int version_of(const std::string& source);
  std::filesystem::path pending_file() const;  // the version being graded, kept across a restart

  RoomSetup setup_;
  boost::asio::any_io_executor executor_;
  std::filesystem::path session_;
  std::int64_t started_ = 0;
  std::int64_t run_ = 0;
  std::vector<std::string> questions_;  // hint n's question at [n - 1]
  std::vector<std::string> versions_;   // distinct texts by SHA-256, version n's at [n - 1]
  std::vector<PageEvent> log_;
  std::vector<std::weak_ptr<boost::asio::steady_timer>> subscribers_;
  std::optional<std::string> waiting_;
  bool grading_ = false;
  std::string last_submitted_;
  std::string detail_;
  std::thread judge_thread_;
};

// Hint questions of an exercise's hints file: each `**Hint N: ...**` paragraph up to its
// `*Unlocks:*` line (never the answer), in order.
std::vector<std::string> hint_questions(const std::string& hints_markdown);

}  // namespace overlap::interview
