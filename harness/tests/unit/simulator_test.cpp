// The simulator core: event order and ties, contention, memory, deadlock, timeline,
// cancellation.
#include <fmt/format.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/test/unit_test.hpp>
#include <optional>
#include <string>
#include <vector>

#include "../../sim/operation.hpp"

namespace asio = boost::asio;
using namespace overlap::sim;

namespace {

// A test device operation in the async_initiate form the worlds use.
template <typename Token>
auto async_work(Simulator& sim, Device& device, double duration_ms, int value, Token&& token,
                Cancellable cancellable = Cancellable::no) {
  return asio::async_initiate<Token, void(boost::system::error_code, int)>(
      [&sim, &device, duration_ms, cancellable](auto handler, int v) {
        Operation<int>::start(sim, device, {"work", std::to_string(v), 'W'}, from_ms(duration_ms),
                              std::move(handler), {v}, cancellable);
      },
      token, value);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(simulator)

BOOST_AUTO_TEST_CASE(events_at_one_time_fire_in_the_order_they_were_scheduled) {
  Simulator sim;
  std::vector<int> fired;
  sim.schedule(from_ms(20), [&] { fired.push_back(3); });
  sim.schedule(from_ms(10), [&] { fired.push_back(1); });
  sim.schedule(from_ms(10), [&] { fired.push_back(2); });
  sim.schedule(from_ms(20), [&] { fired.push_back(4); });
  BOOST_TEST((sim.run([] { return false; }) == RunEnd::deadlock));
  BOOST_TEST(fired == (std::vector<int>{1, 2, 3, 4}), boost::test_tools::per_element());
  BOOST_TEST(sim.now() == from_ms(20));
}

BOOST_AUTO_TEST_CASE(an_operation_ending_at_t_frees_its_device_before_a_submission_at_t) {
  Simulator sim;
  Device& gpu = sim.add_device("gpu");
  std::vector<std::pair<int, Time>> completions;
  auto record = [&](boost::system::error_code, int v) {
    completions.emplace_back(v, sim.now());
    if (v == 1)
      async_work(sim, gpu, 5, 2, [&](auto, int w) { completions.emplace_back(w, sim.now()); });
  };
  async_work(sim, gpu, 10, 1, record);
  sim.run([] { return false; });
  BOOST_TEST(sim.violations().empty());
  BOOST_REQUIRE_EQUAL(completions.size(), 2u);
  BOOST_TEST(completions[0].second == from_ms(10));
  BOOST_TEST(completions[1].second == from_ms(15));
  BOOST_TEST(sim.finish_time() == from_ms(15));
}

BOOST_AUTO_TEST_CASE(a_busy_device_is_a_contention_violation_naming_both_operations) {
  Simulator sim;
  Device& gpu = sim.add_device("stage 1");
  async_work(sim, gpu, 10, 7, [](auto, int) {});
  sim.schedule(from_ms(4), [&] { async_work(sim, gpu, 10, 8, [](auto, int) {}); });
  sim.run([] { return false; });
  BOOST_REQUIRE_EQUAL(sim.violations().total(), 1u);
  const Violation& v = sim.violations().list().front();
  BOOST_TEST(v.kind == "contention");
  BOOST_TEST(v.at == from_ms(4));
  BOOST_TEST(v.message ==
             "stage 1 is busy: work(8) was submitted at 4 ms while work(7) runs from 0 to 10 ms");
  // Both still ran: the rest of the run stays visible.
  BOOST_TEST(sim.timeline().ops.size() == 2u);
  BOOST_TEST(sim.timeline().ops[1].end == from_ms(14));
}

BOOST_AUTO_TEST_CASE(a_flood_of_violations_keeps_the_first_of_every_kind) {
  Violations v;
  for (int i = 0; i < 50; ++i) v.add("lost-update", "again", 0);
  v.add("wrong-result", "the weights differ", from_ms(5));
  BOOST_TEST(v.total() == 51u);
  BOOST_TEST(v.list().size() == Violations::kCap + 1);
  BOOST_TEST(v.list().back().kind == "wrong-result");
}

BOOST_AUTO_TEST_CASE(device_busy_time_counts_overlaps_once) {
  Simulator sim;
  Device& gpu = sim.add_device("gpu");
  async_work(sim, gpu, 10, 1, [](auto, int) {});
  async_work(sim, gpu, 4, 2, [](auto, int) {});
  sim.run([] { return false; });
  BOOST_TEST(gpu.busy == from_ms(10));
}

BOOST_AUTO_TEST_CASE(a_contention_names_the_oldest_operation_still_running) {
  Simulator sim;
  Device& gpu = sim.add_device("gpu");
  async_work(sim, gpu, 10, 1, [](auto, int) {});
  async_work(sim, gpu, 4, 2, [](auto, int) {});  // ends behind the first, at 4 ms
  async_work(sim, gpu, 2, 3, [](auto, int) {});  // ends first, at 2 ms
  sim.schedule(from_ms(6), [&] { async_work(sim, gpu, 1, 4, [](auto, int) {}); });
  sim.schedule(from_ms(12), [&] { async_work(sim, gpu, 1, 5, [](auto, int) {}); });
  sim.run([] { return false; });
  BOOST_REQUIRE_EQUAL(sim.violations().total(), 3u);
  BOOST_TEST(sim.violations().list()[2].message ==
             "gpu is busy: work(4) was submitted at 6 ms while work(1) runs from 0 to 10 ms");
  // Idle again from 10 ms: the last one runs alone, and busy time counts 0 to 10 and 12 to 13.
  BOOST_TEST(gpu.busy == from_ms(11));
  BOOST_TEST(gpu.idle());
}

BOOST_AUTO_TEST_CASE(a_real_time_deadline_ends_a_run_between_two_events_of_an_instant) {
  Simulator sim;
  std::atomic<bool> passed{false};
  sim.set_deadline(passed);
  int fired = 0;
  for (int i = 0; i < 5; ++i) {
    sim.schedule(from_ms(10), [&] {
      if (++fired == 2) passed = true;  // the alarm's signal, as it lands
    });
  }
  BOOST_TEST((sim.advance() == std::optional<RunEnd>(RunEnd::out_of_time)));
  BOOST_TEST(fired == 2);
  int handlers = 0;
  asio::post(sim.io(), [&] { ++handlers; });
  sim.run_ready();
  BOOST_TEST(handlers == 0);  // nor does a handler run past it
}

BOOST_AUTO_TEST_CASE(memory_over_budget_is_reported_once_per_excursion_with_its_cause) {
  Simulator sim;
  MemoryPool& pool = sim.add_pool("stage 0 activations", "stashes", 2);
  pool.charge(1, "a", 0);
  pool.charge(1, "b", 0);
  BOOST_TEST(sim.violations().empty());
  pool.charge(1, "forward(step 0, mb 2)", from_ms(30));
  pool.charge(1, "d", from_ms(40));  // the same excursion
  BOOST_REQUIRE_EQUAL(sim.violations().total(), 1u);
  BOOST_TEST(sim.violations().list()[0].kind == "out-of-memory");
  BOOST_TEST(sim.violations().list()[0].at == from_ms(30));
  BOOST_TEST(sim.violations().list()[0].message ==
             "forward(step 0, mb 2): stage 0 activations holds 3 stashes, over its budget of 2");
  pool.release(3);
  pool.charge(2, "e", from_ms(50));  // back within budget, then over again
  BOOST_TEST(sim.violations().total() == 2u);
  BOOST_TEST(pool.peak() == 4);
}

BOOST_AUTO_TEST_CASE(a_receive_nobody_sends_to_is_a_deadlock_not_a_hang) {
  Simulator sim;
  Device& gpu = sim.add_device("gpu");
  asio::experimental::channel<void(boost::system::error_code, int)> never(sim.io(), 0);
  bool returned = false;
  // Named: a coroutine lambda's captures live in the closure, which must outlive the coroutine.
  auto waits_forever = [&]() -> asio::awaitable<void> {
    co_await async_work(sim, gpu, 10, 1, asio::use_awaitable);
    co_await never.async_receive(asio::use_awaitable);
  };
  asio::co_spawn(sim.io(), waits_forever(), [&](std::exception_ptr) { returned = true; });
  BOOST_TEST((sim.run([&] { return returned; }) == RunEnd::deadlock));
  BOOST_TEST(sim.now() == from_ms(10));
  BOOST_TEST(!returned);
  never.cancel();  // let the coroutine unwind before the channel goes
  sim.io().restart();
  sim.io().poll();
}

BOOST_AUTO_TEST_CASE(the_virtual_time_limit_stops_a_run) {
  Simulator sim;
  sim.set_limits(from_ms(100), 1000);
  std::function<void()> again = [&] { sim.schedule(sim.now() + from_ms(30), again); };
  again();
  BOOST_TEST((sim.run([] { return false; }) == RunEnd::time_limit));
  BOOST_TEST(sim.now() == from_ms(90));
}

BOOST_AUTO_TEST_CASE(a_rejected_call_is_a_misuse_and_completes_later_with_the_error) {
  Simulator sim;
  sim.add_device("stage 0");
  sim.schedule(from_ms(5), [] {});
  bool completed_inline = false;
  boost::system::error_code error;
  int result = -1;
  Time completed_at = -1;
  sim.schedule(from_ms(5), [&] {
    reject(sim, overlap::Handler<int>([&](boost::system::error_code ec, int v) {
             error = ec;
             result = v;
             completed_at = sim.now();
           }),
           "stage 0: backward(micro_batch 3) without its forward on this stage");
    completed_inline = completed_at >= 0;
  });
  sim.run([] { return false; });
  BOOST_TEST(!completed_inline);  // posted, like every completion
  BOOST_TEST((error == overlap::errc::misuse));
  BOOST_TEST(result == 0);  // default results
  BOOST_TEST(completed_at == from_ms(5));
  BOOST_TEST(sim.timeline().ops.empty());  // nothing ran
  BOOST_REQUIRE_EQUAL(sim.violations().list().size(), 1u);
  BOOST_TEST(sim.violations().list()[0].kind == "misuse");
  BOOST_TEST(sim.violations().list()[0].message ==
             "stage 0: backward(micro_batch 3) without its forward on this stage");
  BOOST_TEST(sim.violations().list()[0].at == from_ms(5));
}

BOOST_AUTO_TEST_CASE(cancellation_ends_the_operation_early_with_operation_aborted) {
  Simulator sim;
  Device& gpu = sim.add_device("gpu");
  asio::cancellation_signal signal;
  boost::system::error_code got;
  Time completed_at = -1;
  async_work(sim, gpu, 100, 1,
             asio::bind_cancellation_slot(signal.slot(),
                                          [&](auto ec, int) {
                                            got = ec;
                                            completed_at = sim.now();
                                          }),
             Cancellable::yes);
  sim.schedule(from_ms(25), [&] { signal.emit(asio::cancellation_type::terminal); });
  sim.run([] { return false; });
  BOOST_TEST((got == asio::error::operation_aborted));
  BOOST_TEST(completed_at == from_ms(25));
  BOOST_TEST((sim.timeline().ops[0].status == OpStatus::cancelled));
  BOOST_TEST(sim.timeline().ops[0].end == from_ms(25));
  BOOST_TEST(gpu.busy == from_ms(25));
}

BOOST_AUTO_TEST_CASE(a_failed_operation_completes_with_its_error_at_the_failure_time) {
  Simulator sim;
  Device& worker = sim.add_device("worker");
  boost::system::error_code got;
  auto op = Operation<int>::start(sim, worker, {"gradient", "", 'G'}, from_ms(50),
                                  [&](auto ec, int) { got = ec; }, {1});
  sim.schedule(from_ms(20), [&] { Operation<int>::fail(op, asio::error::connection_reset); });
  sim.run([] { return false; });
  BOOST_TEST((got == asio::error::connection_reset));
  BOOST_TEST((sim.timeline().ops[0].status == OpStatus::failed));
  BOOST_TEST(sim.timeline().ops[0].end == from_ms(20));
}

BOOST_AUTO_TEST_SUITE_END()
