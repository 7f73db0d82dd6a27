// The judge against a client that is not the kit's: a scripted submission program (a Link that
// plays back frames) sends malformed, oversized, out-of-order or unknown messages, or handles the
// judge never issued. Each run ends with one `protocol` violation (or a `misuse`, for a call the
// world refuses), and the judge returns normally.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "../../protocol/frames.hpp"
#include "../../protocol/message.hpp"
#include "../../worlds/common/exercise.hpp"
#include "../../worlds/param-server/wire.hpp"
#include "../../worlds/pipeline/wire.hpp"

using namespace overlap;
using protocol::Frame;
using protocol::Writer;

namespace {

Writer frame(Frame type) { return Writer(static_cast<std::uint16_t>(type)); }
// A call frame by its operation code alone: arguments, if any, written by hand (malformed ones).
Writer call(std::int64_t op) { return std::move(frame(Frame::call).integer(op)); }
// The call frame of `op` (protocol/operation.hpp), its arguments written.
template <protocol::DeclaredOperation Op>
Writer call(const Op& op) {
  Writer w = call(protocol::code<Op>);
  protocol::write(w, op);
  return w;
}
using protocol::Handle;
namespace pw = pipeline::wire;

// Plays one batch of frames per judge batch; after the script, the program "closes its pipe".
class ScriptedLink final : public worlds::Link {
 public:
  explicit ScriptedLink(std::vector<std::vector<std::string>> batches) {
    for (auto& batch : batches) {
      for (auto& f : batch) frames_.push_back(std::move(f));
    }
  }
  Status send(std::string_view) override { return Status::ok; }
  Status receive(std::string& body) override {
    if (frames_.empty()) return Status::closed;
    body = frames_.front().substr(protocol::kHeaderBytes);
    frames_.pop_front();
    return Status::ok;
  }
  std::pair<std::string, std::string> ended(Status) override {
    return {"crash", "the scripted program ended"};
  }

 private:
  std::deque<std::string> frames_;
};

std::string bytes(const Writer& w) { return std::string(w.frame()); }
std::string idle() { return bytes(frame(Frame::idle)); }

// Runs an exercise's default scenario (pipeline's unless named) against the script; returns the
// violations' kinds.
std::vector<std::string> kinds_after(std::vector<std::vector<std::string>> batches,
                                     std::string* first_message = nullptr,
                                     const char* exercise_name = "pipeline",
                                     std::string* second_message = nullptr) {
  const auto exercise = worlds::exercise_named(exercise_name);
  BOOST_REQUIRE(exercise);
  ScriptedLink link(std::move(batches));
  const verdict::ScenarioResult result = exercise->run("default", link);
  std::vector<std::string> kinds;
  for (const auto& v : result.violations) kinds.push_back(v.kind);
  if (first_message && !result.violations.empty()) *first_message = result.violations[0].message;
  if (second_message && result.violations.size() > 1) {
    *second_message = result.violations[1].message;
  }
  return kinds;
}

const std::vector<std::string> kProtocol{"protocol"};

// The run ended on a protocol failure (calls applied before it may have left violations too).
bool ends_in_protocol(const std::vector<std::string>& kinds) {
  return !kinds.empty() && kinds.back() == "protocol";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge)

BOOST_AUTO_TEST_CASE(an_unknown_frame_type_is_a_protocol_failure) {
  std::string message;
  BOOST_TEST(kinds_after({{bytes(Writer(999)), idle()}}, &message) == kProtocol,
             boost::test_tools::per_element());
  BOOST_TEST(message.find("unknown type 999") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_judge_frame_sent_by_the_client_is_a_protocol_failure) {
  BOOST_TEST(kinds_after({{bytes(frame(Frame::completion).integer(1)), idle()}}) == kProtocol,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_unknown_operation_is_a_protocol_failure) {
  std::string message;
  BOOST_TEST(kinds_after({{bytes(call(77)), idle()}}, &message) == kProtocol,
             boost::test_tools::per_element());
  BOOST_TEST(message.find("no operation 77") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(missing_extra_or_mistyped_arguments_are_protocol_failures) {
  // forward takes stage, micro-batch, tensor.
  BOOST_TEST(
      kinds_after({{bytes(call(protocol::code<pw::Forward>).integer(0)), idle()}}) == kProtocol,
      boost::test_tools::per_element());
  // An extra field is seen once the call's own arguments are read: the call was applied.
  BOOST_TEST(
      ends_in_protocol(kinds_after({{bytes(call(pw::OptimizerStep{0}).integer(1)), idle()}})));
  BOOST_TEST(kinds_after({{bytes(call(protocol::code<pw::OptimizerStep>).text("0")), idle()}}) ==
                 kProtocol,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_index_out_of_range_is_a_protocol_failure_not_a_judge_crash) {
  std::string message;
  BOOST_TEST(kinds_after({{bytes(call(pw::OptimizerStep{4})), idle()}}, &message) == kProtocol,
             boost::test_tools::per_element());
  BOOST_TEST(message.find("stage 4 is out of range [0, 3]") != std::string::npos);
}

// A handle the judge never issued, or whose object is gone, is refused as the call's misuse
// (the script then ends: a crash, as the link says).
BOOST_AUTO_TEST_CASE(a_handle_never_issued_is_a_misuse_naming_the_call) {
  // Call 1 makes a tensor (handle 1); call 2 names handle 5, and then itself (2).
  const std::string input = bytes(call(pw::Input{0, 0}));
  const std::vector<std::string> refused{"misuse", "crash"};
  std::string message;
  BOOST_TEST(kinds_after({{input, bytes(call(pw::Forward{0, 0, Handle{5}})), idle()}}, &message) ==
                 refused,
             boost::test_tools::per_element());
  BOOST_TEST(message ==
             "forward: handle 5 (the input) names no call made before this one: an object the "
             "cluster never issued");
  BOOST_TEST(kinds_after({{input, bytes(call(pw::Forward{0, 0, Handle{2}})), idle()}}) == refused,
             boost::test_tools::per_element());
  // A handle of a call that made no tensor (an optimizer step, itself wrong: no
  // micro-batches went through) names nothing either.
  const auto kinds = kinds_after(
      {{bytes(call(pw::OptimizerStep{0})), bytes(call(pw::Forward{0, 0, Handle{1}})), idle()}},
      nullptr, "pipeline", &message);
  BOOST_TEST(kinds == (std::vector<std::string>{"lost-update", "misuse", "crash"}),
             boost::test_tools::per_element());
  BOOST_TEST(message == "forward: handle 1 names no tensor: call 1 made none");
  // An instant call (no completion to refuse) is named the same way.
  BOOST_TEST(
      kinds_after({{bytes(call(pw::LossGradient{0, 0, Handle{9}})), idle()}}, &message) == refused,
      boost::test_tools::per_element());
  BOOST_TEST(message.starts_with("loss_gradient: handle 9 (the output) names no call"));
}

BOOST_AUTO_TEST_CASE(an_object_used_twice_is_a_misuse_naming_the_call) {
  // param-server: pull on worker 0 (call 1, its weights ready at 1 ms), then two computes on
  // them: the first consumes them, the second is refused.
  const auto compute = [](int mb) {
    return bytes(call(param_server::wire::Compute{0, Handle{1}, mb}));
  };
  std::string message;
  BOOST_TEST(kinds_after({{bytes(call(param_server::wire::Pull{0})), idle()},
                          {compute(0), compute(1), idle()}},
                         &message, "param-server") == (std::vector<std::string>{"misuse", "crash"}),
             boost::test_tools::per_element());
  BOOST_TEST(message ==
             "compute: handle 1 (weights) was consumed by an earlier call: each is used once");
}

BOOST_AUTO_TEST_CASE(an_empty_handle_is_the_submissions_misuse) {
  // Handle 0 is a moved-from or default tensor: the world refuses the call, the run goes on.
  const auto kinds = kinds_after({{bytes(call(pw::Forward{0, 0, Handle{0}})), idle()}});
  BOOST_TEST(kinds.front() == "misuse");
}

BOOST_AUTO_TEST_CASE(cancelling_a_call_never_made_or_returning_twice_is_a_protocol_failure) {
  BOOST_TEST(kinds_after({{bytes(frame(Frame::cancel).integer(3)), idle()}}) == kProtocol,
             boost::test_tools::per_element());
  BOOST_TEST(kinds_after({{bytes(frame(Frame::returned).integer(1)), idle()}}) == kProtocol,
             boost::test_tools::per_element());
  BOOST_TEST(kinds_after({{bytes(frame(Frame::threw).integer(-2).text("x").integer(0)), idle()}}) ==
                 kProtocol,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_program_that_ends_mid_run_is_reported_as_the_link_says) {
  BOOST_TEST(kinds_after({}) == std::vector<std::string>{"crash"},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(what_the_program_says_of_itself_only_makes_the_verdict_worse) {
  // "returned" with nothing done (then quiet when asked to settle): the run is checked, and
  // nothing was trained.
  const auto kinds = kinds_after({{bytes(frame(Frame::returned).integer(0)), idle()}, {idle()}});
  BOOST_TEST(kinds.size() >= 2u);
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "lost-update") >= 1);
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "wrong-result") >= 1);
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "protocol") == 0);
}

BOOST_AUTO_TEST_CASE(a_call_from_a_foreign_thread_is_one_misuse_and_names_the_operation) {
  const std::string foreign = bytes(frame(Frame::foreign_call).text("Stage::forward"));
  std::string message;
  const auto kinds = kinds_after({{foreign, foreign, idle()}}, &message);
  BOOST_TEST(kinds.front() == "misuse");
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "misuse") == 1);  // told twice, counted once
  BOOST_TEST(message.starts_with("Stage::forward was called from a thread other than"));
  // The name is shown in the report: only an operation's name is taken.
  BOOST_TEST(kinds_after({{bytes(frame(Frame::foreign_call).text("\x1b[2J forged")), idle()}}) ==
                 kProtocol,
             boost::test_tools::per_element());
  BOOST_TEST(kinds_after({{bytes(frame(Frame::foreign_call).integer(3)), idle()}}) == kProtocol,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(before_a_deadlock_the_client_is_asked_once_to_settle) {
  // Idle with nothing running: the judge asks again (the program's own threads may still call),
  // and only a second idle with nothing new in between is a deadlock.
  const auto twice = kinds_after({{idle()}, {idle()}});
  BOOST_TEST(std::count(twice.begin(), twice.end(), "deadlock") == 1);
  BOOST_TEST(std::count(twice.begin(), twice.end(), "crash") == 0);
  BOOST_TEST(kinds_after({{idle()}}) == std::vector<std::string>{"crash"},
             boost::test_tools::per_element());  // it asked, and the program was gone
}

BOOST_AUTO_TEST_SUITE_END()
