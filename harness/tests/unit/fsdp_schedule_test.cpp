// The FSDP scenarios' figures, checked against an independent computation of a prefetching
// schedule (earliest start times by relaxation over its dependencies, no Asio, no simulator).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <vector>

#include "../../worlds/fsdp/scenarios.hpp"

using namespace overlap::fsdp;

namespace {

// Every rank: copies run at most one ahead of the gathers; a gather waits for its copy, for its
// stream and for a free parameter buffer (the layer `param_buffers` gathers back released);
// forward and backward wait for their gather and the compute stream, backward also for a free
// gradient buffer; a reduce-scatter waits for its backward and its stream. Collectives finish
// when the last rank has issued them. Returns the makespan.
double prefetching(const Scenario& s, int param_buffers) {
  const int L = s.layers, N = 2 * L - 1, R = s.ranks;
  std::vector<int> needed;
  for (int l = 0; l < L; ++l) needed.push_back(l);
  for (int l = L - 2; l >= 0; --l) needed.push_back(l);
  auto index_of_backward = [&](int l) { return l == L - 1 ? L - 1 : 2 * L - 2 - l; };

  struct Times {
    std::vector<double> copy_end, gather_issue, forward_end, backward_end, rs_issue;
  };
  std::vector<Times> t(R, {std::vector<double>(N), std::vector<double>(N), std::vector<double>(L),
                           std::vector<double>(L), std::vector<double>(L)});
  std::vector<double> gather_end(N), rs_end(L);
  for (bool changed = true; changed;) {  // a DAG: relaxation settles on earliest times
    changed = false;
    auto set = [&](double& x, double v) {
      if (v != x) x = v, changed = true;
    };
    for (int r = 0; r < R; ++r) {
      Times& x = t[r];
      auto released = [&](int i) {  // when needed[i]'s parameter buffer comes back
        const int l = needed[i];
        return i < L - 1 ? x.forward_end[l] : x.backward_end[l];
      };
      for (int i = 0; i < N; ++i) {
        double start = i == 0 ? 0 : std::max(x.copy_end[i - 1], x.gather_issue[i - 1]);
        set(x.copy_end[i], start + s.copy_ms);
        double issue = x.copy_end[i];
        if (i > 0) issue = std::max(issue, gather_end[i - 1]);
        if (i >= param_buffers) issue = std::max(issue, released(i - param_buffers));
        set(x.gather_issue[i], issue);
      }
      for (int l = 0; l < L; ++l) {
        const double start = std::max(gather_end[l], l == 0 ? 0 : x.forward_end[l - 1]);
        set(x.forward_end[l], start + s.forward_on(r));
      }
      for (int l = L - 1; l >= 0; --l) {
        double start = std::max(gather_end[index_of_backward(l)],
                                l == L - 1 ? x.forward_end[L - 1] : x.backward_end[l + 1]);
        if (l + s.grad_buffers < L) start = std::max(start, rs_end[l + s.grad_buffers]);
        set(x.backward_end[l], start + s.backward_on(r));
        set(x.rs_issue[l], std::max(x.backward_end[l], l == L - 1 ? 0 : rs_end[l + 1]));
      }
    }
    for (int i = 0; i < N; ++i) {
      double last = 0;
      for (int r = 0; r < R; ++r) last = std::max(last, t[r].gather_issue[i]);
      set(gather_end[i], last + s.all_gather_ms);
    }
    for (int l = 0; l < L; ++l) {
      double last = 0;
      for (int r = 0; r < R; ++r) last = std::max(last, t[r].rs_issue[l]);
      set(rs_end[l], last + s.reduce_scatter_ms);
    }
  }
  return rs_end[0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fsdp_schedule)

BOOST_AUTO_TEST_CASE(prefetching_reaches_every_scenarios_bound) {
  for (const Scenario& s : scenarios()) {
    BOOST_TEST_CONTEXT(s.name) {
      const double reached = prefetching(s, s.param_buffers);
      BOOST_TEST(reached == s.optimum_ms, boost::test_tools::tolerance(1e-6));
      BOOST_TEST(lower_bound(s).ms == s.optimum_ms, boost::test_tools::tolerance(1e-6));
      BOOST_TEST(baseline_ms(s) > 1.8 * s.optimum_ms);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_figures_the_brief_states) {
  const Scenario& d = *find_scenario("default");
  BOOST_TEST(baseline_ms(d) == 12 * 30 + 11 * 20 + 12 * 40);  // 1060
  BOOST_TEST(lower_bound(d).ms == 400);
  BOOST_TEST(prefetching(d, 1) == 620);  // one parameter buffer: no prefetch
  // All-gather and reduce-scatter at 30 ms: the stream bound alone says 750, but nothing can be
  // reduced before the forwards (gathers one at a time, 380 ms) and the first backward end.
  const Scenario& comm = *find_scenario("comm-bound");
  BOOST_TEST(lower_bound(comm).ms == 760);
  BOOST_TEST(comm.copy_ms + (2 * comm.layers - 1) * comm.all_gather_ms + comm.backward_ms +
                 comm.reduce_scatter_ms ==
             750);
}

BOOST_AUTO_TEST_SUITE_END()
