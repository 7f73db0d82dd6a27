#include "planner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "../../sim/time.hpp"

namespace overlap::grad_accum {

namespace {

using sim::Time;  // whole microseconds, as the simulator counts: sums stay exact

// Training and validation advanced one check at a time, the state a search branches on.
class Timeline {
 public:
  explicit Timeline(const Scenario& s, Training training = Training::overlapped)
      : s_(&s),
        training_(training),
        compute_(sim::from_ms(step_compute_ms(s))),
        optimizer_(sim::from_ms(s.optimizer_ms)),
        free_(s.validators, 0) {
    for (int v = 0; v < s.validators; ++v) validation_.push_back(sim::from_ms(s.validation_ms(v)));
  }

  int checks() const { return static_cast<int>(validated_.size()); }
  int num_validators() const { return static_cast<int>(free_.size()); }
  Time snapshot() const { return snapshot_; }
  Time compute() const { return compute_; }
  Time step() const { return compute_ + optimizer_; }
  Time applied() const { return applied_; }
  Time validation(int v) const { return validation_[v]; }
  Time free_at(int v) const { return free_[v]; }
  const std::vector<Time>& validated() const { return validated_; }
  const std::vector<Time>& applied_steps() const { return applied_steps_; }
  const std::vector<Time>& snapshots() const { return snapshots_; }
  const std::vector<int>& assignment() const { return validator_; }

  // Trains up to the next check's step and takes its snapshot as soon as a slot is free; the
  // step after it waits for that snapshot (overlapped: its gradients do not).
  Time next_snapshot() {
    const int check = checks() + 1;
    while (static_cast<int>(applied_steps_.size()) < check * s_->validate_every) next_step();
    Time slot = 0;
    if (check > s_->snapshot_slots) {  // the (check - slots)-th validation to end frees one
      std::vector<Time> ends = validated_;
      const auto nth = ends.begin() + (check - s_->snapshot_slots - 1);
      std::nth_element(ends.begin(), nth, ends.end());
      slot = *nth;
    }
    snapshot_ = std::max(applied_, slot);
    return snapshot_;
  }

  // When validator v would have the pending check's result.
  Time finish_on(int v) const { return std::max(snapshot_, free_[v]) + validation_[v]; }

  void validate_on(int v) {
    free_[v] = finish_on(v);
    snapshots_.push_back(snapshot_);
    validated_.push_back(free_[v]);
    validator_.push_back(v);
  }

  // The steps after the last check, to the step limit (no snapshot holds them back).
  void train_to_limit() {
    while (static_cast<int>(applied_steps_.size()) < s_->max_steps) next_step();
  }

 private:
  // One optimizer step; the first after a check waits for that check's snapshot.
  void next_step() {
    Time start = applied_ + compute_;
    if (!snapshots_.empty() &&
        static_cast<int>(applied_steps_.size()) == checks() * s_->validate_every) {
      start = training_ == Training::overlapped ? std::max(start, snapshots_.back())
                                                : std::max(applied_, snapshots_.back()) + compute_;
    }
    applied_ = start + optimizer_;
    applied_steps_.push_back(applied_);
  }

  const Scenario* s_;
  Training training_;
  Time compute_, optimizer_;
  std::vector<Time> validation_, free_;
  Time applied_ = 0, snapshot_ = 0;
  std::vector<Time> applied_steps_, snapshots_, validated_;
  std::vector<int> validator_;
};

// The validator `how` gives the pending check (check `check`), for every assignment but the search.
int pick(const Timeline& t, int check, Assignment how) {
  const int validators = t.num_validators();
  if (how == Assignment::round_robin) return (check - 1) % validators;
  if (how == Assignment::lowest_idle) {
    for (int v = 0; v < validators; ++v) {
      if (t.free_at(v) <= t.snapshot()) return v;
    }
  }
  int first = 0;  // free first; if several are idle, the one idle longest, as a queue serves them
  for (int v = 1; v < validators; ++v) {
    if (t.free_at(v) < t.free_at(first)) first = v;
  }
  return first;
}

Schedule record(const Timeline& t, int decisive_checks) {
  Schedule out;
  for (Time a : t.applied_steps()) out.applied_ms.push_back(sim::to_ms(a));
  for (Time a : t.snapshots()) out.snapshot_ms.push_back(sim::to_ms(a));
  for (Time a : t.validated()) out.validated_ms.push_back(sim::to_ms(a));
  out.validator = t.assignment();
  const auto& done = t.validated();
  out.makespan_ms = sim::to_ms(*std::max_element(done.begin(), done.begin() + decisive_checks));
  return out;
}

std::string assignment_name(Assignment how) {
  switch (how) {
    case Assignment::free_first:
      return "every check to the validator free first (among idle ones, the one idle longest)";
    case Assignment::lowest_idle:
      return "every check to the idle validator of the lowest index, or else the one free first";
    case Assignment::round_robin:
      return "check c to validator (c - 1) mod V";
  }
  return "";
}

// Branch and bound over which validator takes each of the decisive checks, in check order; a
// later check cannot change an earlier one's timing, so the checks after the decisive one are not
// searched. A branch is cut when a lower bound on its makespan (below) is no better than the
// best found. Validators of one speed that are free by the snapshot are interchangeable: only
// one of them is tried.
class Search {
 public:
  Search(const Scenario& s, int decisive_checks, Time incumbent, std::int64_t node_limit)
      : s_(&s), decisive_(decisive_checks), best_(incumbent), limit_(node_limit) {}

  // Whether it found an assignment better than the incumbent.
  bool run() {
    Timeline t(*s_);
    branch(t, 0);
    return !assignment_.empty();
  }
  Time best() const { return best_; }
  const std::vector<int>& best_assignment() const { return assignment_; }
  bool exhaustive() const { return nodes_ <= limit_; }

 private:
  void branch(Timeline& t, Time done) {
    if (t.checks() == decisive_) {
      if (done < best_) best_ = done, assignment_ = t.assignment();
      return;
    }
    if (++nodes_ > limit_) return;
    const Time snapshot = t.next_snapshot();
    if (lower_bound(t, snapshot, done) >= best_) return;
    std::vector<int> order;
    for (int v = 0; v < t.num_validators(); ++v) {
      const bool same = std::any_of(order.begin(), order.end(), [&](int u) {
        return t.validation(u) == t.validation(v) && t.free_at(u) <= snapshot &&
               t.free_at(v) <= snapshot;
      });
      if (!same) order.push_back(v);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return t.finish_on(a) < t.finish_on(b); });
    for (int v : order) {
      Timeline next = t;
      next.validate_on(v);
      branch(next, std::max(done, next.validated().back()));
    }
  }

  // For each j, checks c + j to the decisive one cannot be validated before check c + j's
  // snapshot: K steps per check after the last one applied (check c's is taken). From then on,
  // the earliest the validators can have them all in is to give each to the validator that would
  // finish it first (the best for equal jobs on validators of fixed speeds).
  Time lower_bound(const Timeline& t, Time snapshot, Time done) const {
    const int left = decisive_ - t.checks();
    const int validators = t.num_validators();
    Time bound = done;
    std::vector<Time> end(validators);
    for (int j = 0; j < left; ++j) {
      const Time release =
          j == 0 ? snapshot
                 : std::max(snapshot,
                            t.applied() + static_cast<Time>(j) * s_->validate_every * t.step());
      for (int v = 0; v < validators; ++v) end[v] = std::max(t.free_at(v), release);
      Time last = 0;
      for (int n = j; n < left; ++n) {
        int pick = 0;
        for (int v = 1; v < validators; ++v) {
          if (end[v] + t.validation(v) < end[pick] + t.validation(pick)) pick = v;
        }
        end[pick] += t.validation(pick);
        last = end[pick];
      }
      bound = std::max(bound, last);
    }
    return bound;
  }

  const Scenario* s_;
  int decisive_;
  Time best_;
  std::int64_t limit_, nodes_ = 0;
  std::vector<int> assignment_;
};

}  // namespace

bool Schedule::computing_at(const Scenario& s, double t) const {
  const double compute = step_compute_ms(s);
  for (std::size_t step = 0; step < applied_ms.size(); ++step) {
    // A step's gradients start when the step before it is applied.
    const double start = step == 0 ? 0 : applied_ms[step - 1];
    if (t > start && t < start + compute) return true;
  }
  return false;
}

bool Schedule::results_out_of_order(int decisive_checks) const {
  for (int c = 1; c < decisive_checks; ++c) {
    if (validated_ms[c] < validated_ms[c - 1]) return true;
  }
  return false;
}

Schedule plan(const Scenario& s, int decisive_checks, Assignment how, Training training) {
  Timeline t(s, training);
  const int checks = s.max_steps / s.validate_every;
  for (int c = 1; c <= checks; ++c) {
    t.next_snapshot();
    t.validate_on(pick(t, c, how));
  }
  t.train_to_limit();
  return record(t, decisive_checks);
}

double best_by_rule(const Scenario& s, const Decision& d) {
  double best = std::numeric_limits<double>::infinity();
  for (Assignment how :
       {Assignment::free_first, Assignment::lowest_idle, Assignment::round_robin}) {
    best = std::min(best, plan(s, d.stop_check, how).makespan_ms);
  }
  return best;
}

Searched search_assignments(const Scenario& s, int decisive_checks, std::int64_t node_limit) {
  // The rules first: the search starts from the best of them and keeps it on a tie.
  Searched out;
  Time incumbent = std::numeric_limits<Time>::max();
  for (Assignment how :
       {Assignment::free_first, Assignment::lowest_idle, Assignment::round_robin}) {
    const Schedule planned = plan(s, decisive_checks, how);
    const Time ms = sim::from_ms(planned.makespan_ms);
    if (ms < incumbent) {
      incumbent = ms;
      out.validator.assign(planned.validator.begin(), planned.validator.begin() + decisive_checks);
      out.rule = how;
    }
  }
  Search search(s, decisive_checks, incumbent, node_limit);
  if (search.run()) {
    out.validator = search.best_assignment();
    out.rule.reset();
  }
  out.makespan_ms = sim::to_ms(search.best());
  out.exhaustive = search.exhaustive();
  return out;
}

namespace {

std::string schedule_note(const Scenario& s, Training training, const std::string& assignment,
                          int stop_check) {
  return fmt::format(
      "training at full speed ({} micro-batches split over the workers by speed, {:g} ms a step "
      "with the optimizer; a check's snapshot as soon as a slot is free, {}), {}; stop() when "
      "check {} and every earlier one are in",
      s.micro_batches, step_compute_ms(s) + s.optimizer_ms,
      training == Training::overlapped
          ? "the next step's gradients computed meanwhile"
          : "the next step's gradients only after it (a later snapshot can find a faster "
            "validator free)",
      assignment, stop_check);
}

}  // namespace

BestKnown best_known(const Scenario& s, const Decision& d) {
  BestKnown best{std::numeric_limits<double>::infinity(), ""};
  for (Training training : {Training::overlapped, Training::after_snapshot}) {
    for (Assignment how :
         {Assignment::free_first, Assignment::lowest_idle, Assignment::round_robin}) {
      const double ms = plan(s, d.stop_check, how, training).makespan_ms;
      if (ms < best.ms) {
        best = {ms, fmt::format("{:g} ms: {}", ms,
                                schedule_note(s, training, assignment_name(how), d.stop_check))};
      }
    }
  }
  return best;
}

std::optional<BestKnown> hindsight(const Scenario& s, const Decision& d) {
  const Searched found = search_assignments(s, d.stop_check);
  if (found.rule) return std::nullopt;
  return BestKnown{
      found.makespan_ms,
      fmt::format("{:g} ms in hindsight: {}{}", found.makespan_ms,
                  schedule_note(s, Training::overlapped,
                                fmt::format("checks 1 to {} to validators {}, some waiting for a "
                                            "faster validator",
                                            d.stop_check, fmt::join(found.validator, " ")),
                                d.stop_check),
                  found.exhaustive ? " (the best over every assignment)"
                                   : " (the best a cut-short search found)")};
}

}  // namespace overlap::grad_accum
