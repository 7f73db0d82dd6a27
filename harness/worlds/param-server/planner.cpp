#include "planner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <numeric>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "../../sim/time.hpp"

namespace overlap::param_server {

namespace {

using Time = std::int64_t;  // microseconds, as the scenarios round them

// The pace a program can choose from what it is told, the mean speeds (`means`, fastest first)
// and the staleness bound: 0 (none) or the rank of the pacer that lets the most gradients per ms
// count within the bound. A cycle is taken as its compute + 2 ms (pull and apply about 1 ms
// each). Paced by p, a worker faster than p delivers one gradient per p's cycle; a slower one j
// waits half of p's cycle for the next apply, so its gradient is (c_j + c_p / 2) / c_p versions
// old, plus one for an apply under way. Unpaced, versions advance at most one per ms.
int chosen_pace(const std::vector<double>& means, int staleness_bound) {
  if (staleness_bound < 0) return 0;
  std::vector<double> cycles;
  for (double t : means) cycles.push_back(t + 2);
  double arrivals = 0;
  for (double c : cycles) arrivals += 1 / c;
  const double version_rate = std::min(arrivals, 1.0);
  double best_rate = 0;
  for (double c : cycles) best_rate += c * version_rate + 1 <= staleness_bound ? 1 / c : 0;
  int best = 0;
  for (std::size_t p = 0; p < cycles.size(); ++p) {
    const double pace = cycles[p];
    double rate = 0;
    for (std::size_t j = 0; j < cycles.size(); ++j) {
      const double cycle = j <= p ? pace : cycles[j] + pace / 2;
      if (cycle / pace + 1 <= staleness_bound) rate += 1 / cycle;
    }
    if (rate > best_rate) {
      best_rate = rate;
      best = static_cast<int>(p) + 1;
    }
  }
  return best;
}

// Each worker's compute times, drawn as they are first needed and shared by the runs of a search
// (drawing one is most of a run's work).
class ComputeTimes {
 public:
  explicit ComputeTimes(const Scenario& s) : s_(s), times_(s.workers()) {}
  Time operator()(int w, int k) {
    std::vector<Time>& t = times_[w];
    while (static_cast<int>(t.size()) <= k) {
      t.push_back(sim::from_ms(compute_ms(s_, w, static_cast<int>(t.size()))));
    }
    return t[k];
  }

 private:
  const Scenario& s_;
  std::vector<std::vector<Time>> times_;
};

class Schedule {
 public:
  Schedule(const Scenario& s, const Policy& policy, ComputeTimes& computes)
      : s_(s),
        policy_(policy),
        computes_(computes),
        pull_(sim::from_ms(s.pull_ms)),
        apply_(sim::from_ms(s.apply_ms)),
        fastest_first_(s.workers()),
        workers_(s.workers()),
        handed_(s.mini_batches, false) {
    for (int w = 0; w < s.workers(); ++w) {
      mean_.push_back(sim::from_ms(s.worker_ms[w]));
      fail_at_.push_back(s.fails_at_us(w));
    }
    for (int w = 0; w < s.workers(); ++w) {  // a speed group: the workers of one mean time
      speed_group_.push_back(static_cast<int>(
          std::find(s.worker_ms.begin(), s.worker_ms.end(), s.worker_ms[w]) - s.worker_ms.begin()));
    }
    std::iota(fastest_first_.begin(), fastest_first_.end(), 0);
    std::stable_sort(fastest_first_.begin(), fastest_first_.end(),
                     [&](int a, int b) { return s.worker_ms[a] < s.worker_ms[b]; });
    double rate = 0;  // mini-batches per microsecond, at most
    for (int i = 0; i < policy.team; ++i) {
      const int w = fastest_first_[i];
      workers_[w].in_team = true;
      slowest_mean_ = std::max(slowest_mean_, mean_[w]);
      rate += 1 / (static_cast<double>(pull_) + s.worker_ms[w] * (1 - s.jitter) * 1000 - 1);
    }
    fastest_cycle_ = 1 / rate;
    working_ = policy.team;
    pace_ = policy.pace >= 0 ? policy.pace : pace_of_those_left();
    for (int mb = 0; mb < s.mini_batches; ++mb) pool_.push_back(mb);
    outcome_.pulls_us.resize(s.workers());
  }

  // With a cutoff (>= 0), the run stops once it cannot end by then (the search's runs that
  // could not beat the best so far).
  Outcome run(Time cutoff = -1) {
    // Scheduled first: a failure at t comes before anything else ending at t.
    for (const Failure& f : s_.failures) at(sim::from_ms(f.at_ms), Kind::failure, f.worker);
    decide(0);
    while (!events_.empty()) {
      const Time now = events_.top().time;
      if (cutoff >= 0 && applied_ != s_.mini_batches && earliest_end(now) > cutoff) break;
      bool observed = false;  // a failure of an idle worker wakes nobody up
      while (!events_.empty() && events_.top().time == now) {
        const Event e = events_.top();
        events_.pop();
        observed |= handle(e, now);
      }
      if (observed) decide(now);
    }
    if (applied_ != s_.mini_batches) outcome_.makespan_ms = -1;
    for (const Worker& w : workers_) {
      outcome_.last_start_us.push_back(w.cycle_start);
      outcome_.last_end_us.push_back(w.last_end);
    }
    return outcome_;
  }

 private:
  enum class State { idle, pulling, computing, waiting, sending, gone };
  enum class Kind { failure, pulled, computed, applied };
  struct Worker {
    State state = State::idle;
    bool in_team = false, failed = false, declined = false;
    int mini_batch = -1, version = 0, computes = 0, operation = 0;
    Time cycle_start = 0, busy_until = 0, last_end = 0;
    int arrival_staleness = 0;
  };
  struct Event {
    Time time;
    long sequence;
    Kind kind;
    int worker;
    int operation;
    bool operator>(const Event& o) const {
      return time != o.time ? time > o.time : sequence > o.sequence;
    }
  };

  // A time the run cannot end before: the pool's mini-batches computed at the team's fastest
  // (every compute as short as the jitter allows, no worker failing) and the last one applied;
  // or, pushing, every gradient not yet applied applied in turn.
  double earliest_end(Time now) const {
    double end = static_cast<double>(now);
    if (!pool_.empty()) end += static_cast<double>(pool_.size()) * fastest_cycle_ + apply_;
    if (policy_.server == Policy::Server::push) {
      const auto unapplied =
          static_cast<double>(s_.mini_batches - applied_) - static_cast<double>(batch_.size());
      end = std::max(end, static_cast<double>(now) + unapplied * static_cast<double>(apply_));
    }
    return end;
  }

  void at(Time t, Kind kind, int w, int operation = 0) {
    events_.push({t, sequence_++, kind, w, operation});
  }
  Time mean(int w) const { return mean_[w]; }
  Time actual(int w, int k) const { return s_.jitter == 0 ? mean_[w] : computes_(w, k); }
  bool fails_before(int w, Time t) const { return fail_at_[w] >= 0 && fail_at_[w] <= t; }

  void give_back(int mb) {
    pool_.push_back(mb);
    for (Worker& w : workers_) w.declined = false;  // the end game is judged again
    to_hand_out_ = true;
  }
  void stop(int w) {
    workers_[w].state = State::gone;
    --working_;
    if (policy_.pace < 0) pace_ = pace_of_those_left();
  }

  // The pace of Policy::kChosenPace, from the mean speeds of the team's working workers.
  int pace_of_those_left() const {
    std::vector<double> means;
    for (int w : fastest_first_) {
      if (workers_[w].in_team && workers_[w].state != State::gone) means.push_back(s_.worker_ms[w]);
    }
    return chosen_pace(means, s_.staleness_bound);
  }

  // Returns whether a program could see the event: one of its operations ended.
  bool handle(const Event& e, Time now) {
    switch (e.kind) {
      case Kind::failure:
        return fail(e.worker);
      case Kind::pulled: {
        Worker& w = workers_[e.worker];
        if (e.operation != w.operation) return false;  // it failed first
        w.state = State::computing;
        w.busy_until = now + actual(e.worker, w.computes++);
        at(w.busy_until, Kind::computed, e.worker, w.operation);
        return true;
      }
      case Kind::computed: {
        Worker& w = workers_[e.worker];
        if (e.operation != w.operation) return false;
        w.state = State::waiting;
        w.arrival_staleness = version_ - w.version;
        waiting_.push_back(e.worker);
        return true;
      }
      case Kind::applied:
        server_busy_ = false;
        ++version_;
        for (int w : batch_) {
          ++applied_;
          workers_[w].last_end = now;
          if (workers_[w].failed) {
            stop(w);
          } else {
            workers_[w].state = State::idle;
            to_hand_out_ = true;
          }
        }
        batch_.clear();
        if (applied_ == s_.mini_batches) outcome_.makespan_ms = static_cast<double>(now) / 1000;
        return true;
    }
    return false;
  }

  // The operation running on the worker ends with an error and its mini-batch goes back; a send
  // under way still lands. A waiting gradient is found out when the server next looks.
  bool fail(int w) {
    Worker& x = workers_[w];
    x.failed = true;
    using At = Outcome::At;
    const State st = x.state;
    Outcome::FailureSeen seen;
    seen.worker = w;
    seen.at = st == State::pulling     ? At::pull
              : st == State::computing ? At::compute
              : st == State::waiting   ? At::waiting
              : st == State::sending   ? At::sending
                                       : At::idle;
    seen.pool = pool_.size();
    seen.pool_dry = handed_count_ == s_.mini_batches;
    for (int o = 0; o < s_.workers(); ++o) {
      const State other = workers_[o].state;
      seen.others_busy += o != w && other != State::idle && other != State::gone;
    }
    outcome_.failures.push_back(seen);
    if (st == State::pulling || st == State::computing) {
      ++x.operation;  // its end event is void
      give_back(x.mini_batch);
      stop(w);
      return true;
    }
    if (st == State::idle && x.in_team) stop(w);
    return false;
  }

  void decide(Time now) {
    const bool wait = policy_.hand_out_between_applies;
    if (wait && server_busy_) return;
    hand_out(now);
    serve(now);
    if (!(wait && server_busy_)) hand_out(now);  // to workers whose gradient was too stale
  }

  void hand_out(Time now) {
    // A pass hands out to every idle worker, or declines it until a mini-batch comes back (half
    // way: until the next pass, as the reference judges again each time it looks).
    if (!to_hand_out_ && policy_.end_game != Policy::EndGame::half_way) return;
    to_hand_out_ = false;
    // The team is the first of the fastest.
    for (int i = 0; i < policy_.team && !pool_.empty(); ++i) {
      const int w = fastest_first_[i];
      Worker& x = workers_[w];
      if (x.state != State::idle || x.declined) continue;
      if (policy_.end_game != Policy::EndGame::none && !worth_taking(w, now)) {
        x.declined = policy_.end_game != Policy::EndGame::half_way;
        continue;
      }
      x.mini_batch = pool_.front();
      pool_.pop_front();
      if (!handed_[x.mini_batch]) {
        handed_[x.mini_batch] = true;
        ++handed_count_;
      }
      x.state = State::pulling;
      x.version = version_;
      x.cycle_start = now;
      outcome_.pulls_us[w].push_back(now);
      x.busy_until = now + pull_;
      at(x.busy_until, Kind::pulled, w, ++x.operation);
    }
  }

  // Whether worker w's next completion is among the earliest the pool's mini-batches can have,
  // counting the next completions of every other worker still in the game.
  bool worth_taking(int w, Time now) const {
    if (policy_.end_game == Policy::EndGame::half_way) return !others_finish_sooner(w);
    const bool offline = policy_.end_game == Policy::EndGame::actual;
    const Time done = now + pull_ + (offline ? actual(w, workers_[w].computes) : mean(w));
    if (offline && fails_before(w, done)) return false;
    const Time finish = done + apply_;
    const auto left = static_cast<Time>(pool_.size());
    // Most of the run, the team cannot get through the pool by then, even at its fastest and
    // with every worker free now (a program's estimate may start one late by its jitter).
    const double ahead = static_cast<double>(finish - now) +
                         (offline ? 0 : s_.jitter * static_cast<double>(slowest_mean_));
    if (static_cast<double>(left) > ahead / fastest_cycle_ + 1) return true;
    Time sooner = 0;
    for (int j = 0; j < s_.workers(); ++j) {
      const Worker& o = workers_[j];
      if (j == w || !o.in_team || o.state == State::gone || o.declined) continue;
      // When it could start its next cycle, and which compute that is.
      Time free = now;
      int k = o.computes;
      switch (o.state) {
        case State::pulling:
          free = offline ? o.busy_until + actual(j, k++) + apply_
                         : o.cycle_start + pull_ + mean(j) + apply_;
          break;
        case State::computing:
          free = offline ? o.busy_until + apply_ : o.cycle_start + pull_ + mean(j) + apply_;
          break;
        case State::waiting:
          free = now + apply_;
          break;
        case State::sending:
          free = o.busy_until;
          break;
        default:
          break;
      }
      if (!offline) {
        const Time cycle = pull_ + mean(j) + apply_;
        if (finish > free) sooner += (finish - free - 1) / cycle;
      } else {
        for (Time end = free + pull_ + actual(j, k); end < finish && !fails_before(j, end - apply_);
             end += pull_ + actual(j, ++k) + apply_) {
          if (++sooner >= left) break;
        }
      }
      if (sooner >= left) return false;
    }
    return true;
  }

  // Whether the team's other busy workers would complete every mini-batch in the pool before
  // worker w completed one, on cycles of mean + 2 ms, each busy worker half-way through its
  // cycle and each waiting gradient's worker at the start of its next.
  bool others_finish_sooner(int w) const {
    const double mine = s_.worker_ms[w] + 2;
    double sooner = 0;
    for (int j = 0; j < s_.workers(); ++j) {
      const Worker& o = workers_[j];
      if (j == w || !o.in_team) continue;
      const bool busy = o.state == State::pulling || o.state == State::computing;
      if (!busy && o.state != State::waiting && o.state != State::sending) continue;
      const double cycle = s_.worker_ms[j] + 2;
      sooner += std::max(0.0, std::floor((mine - (busy ? cycle / 2 : 0)) / cycle));
      if (sooner >= static_cast<double>(pool_.size())) return true;
    }
    return false;
  }

  // The j-th fastest working worker of the team is still computing.
  bool pacer_busy() const {
    int rank = 0;
    for (int w : fastest_first_) {
      const Worker& x = workers_[w];
      if (!x.in_team || x.state == State::gone) continue;
      if (++rank == pace_) return x.state == State::pulling || x.state == State::computing;
    }
    return false;
  }

  // Workers of the team pulling or computing: gradients still to come.
  int computing() const {
    int n = 0;
    for (const Worker& x : workers_) {
      n += x.in_team && (x.state == State::pulling || x.state == State::computing);
    }
    return n;
  }

  // No worker of the team in speed group g is pulling or computing: its gradients are all in.
  bool group_complete(int g) const {
    for (int w = 0; w < s_.workers(); ++w) {
      const Worker& x = workers_[w];
      if (speed_group_[w] == g && x.in_team &&
          (x.state == State::pulling || x.state == State::computing)) {
        return false;
      }
    }
    return true;
  }

  // The waiting gradient a push sends next (ties: the first to arrive).
  std::size_t first_in_order() const {
    std::size_t best = 0;
    for (std::size_t i = 1; i < waiting_.size(); ++i) {
      const Time a = mean(waiting_[i]), b = mean(waiting_[best]);
      if ((policy_.order == Policy::Order::fastest_first && a < b) ||
          (policy_.order == Policy::Order::slowest_first && a > b)) {
        best = i;
      }
    }
    return best;
  }

  void serve(Time now) {
    if (server_busy_ || waiting_.empty()) return;
    // A worker that failed while waiting cannot send: its mini-batch goes back.
    for (std::size_t i = 0; i < waiting_.size();) {
      const int w = waiting_[i];
      if (!workers_[w].failed) {
        ++i;
        continue;
      }
      waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
      give_back(workers_[w].mini_batch);
      stop(w);
    }
    if (waiting_.empty()) return;
    const bool group = policy_.server == Policy::Server::group;
    const bool average = policy_.server == Policy::Server::average || group;
    if (average && pace_ > 0 && pacer_busy()) return;
    if (average && static_cast<int>(waiting_.size()) < policy_.quorum && computing() > 0) return;
    // Averages take every waiting gradient (by group: of the groups complete), in arrival order; a
    // push takes the first in order.
    for (std::size_t i = 0; i < waiting_.size();) {
      if (group && !group_complete(speed_group_[waiting_[i]])) {
        ++i;
        continue;
      }
      const std::size_t next = average ? i : first_in_order();
      const int w = waiting_[next];
      Worker& x = workers_[w];
      if (s_.staleness_bound >= 0 && version_ - x.version > s_.staleness_bound) {
        if (x.arrival_staleness <= s_.staleness_bound) ++outcome_.crossed;
        waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(next));
        give_back(x.mini_batch);
        if (policy_.stale == Policy::Stale::retire && working_ > 1) {
          stop(w);
          ++outcome_.retired;
        } else {
          x.state = State::idle;
          to_hand_out_ = true;
        }
        continue;
      }
      outcome_.max_staleness = std::max(outcome_.max_staleness, version_ - x.version);
      batch_.push_back(w);
      waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(next));
      if (!average) break;
    }
    if (batch_.empty()) return;
    for (int w : batch_) {
      workers_[w].state = State::sending;
      workers_[w].busy_until = now + apply_;
    }
    server_busy_ = true;
    at(now + apply_, Kind::applied, -1);
  }

  const Scenario& s_;
  const Policy policy_;
  ComputeTimes& computes_;
  const Time pull_, apply_;
  double fastest_cycle_ = 0;  // microseconds per mini-batch, the whole team at its fastest
  Time slowest_mean_ = 0;     // of the team's compute times
  std::vector<int> fastest_first_;
  std::vector<int> speed_group_;  // per worker: the first worker of its mean time
  std::vector<Worker> workers_;
  std::vector<Time> mean_, fail_at_;
  std::vector<bool> handed_;  // per mini-batch: handed out at least once
  int handed_count_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  long sequence_ = 0;
  std::deque<int> pool_;
  std::vector<int> waiting_;  // workers whose gradient waits for the server, in arrival order
  std::vector<int> batch_;    // the gradients being applied
  bool server_busy_ = false;
  bool to_hand_out_ = true;  // a worker may have become idle, or may take what it declined
  int version_ = 0, applied_ = 0, working_ = 0;
  int pace_ = 0;  // the rank of the pacing worker among the team's working workers (0: none)
  Outcome outcome_;
};

}  // namespace

Outcome simulate(const Scenario& s, const Policy& policy) {
  ComputeTimes computes(s);
  return Schedule(s, policy, computes).run();
}

Policy pull_based(const Scenario& s, Policy::Server server) {
  Policy p;
  p.team = s.workers();
  p.server = server;
  return p;
}

namespace {

// The search. First the families drawn scenarios are accepted on (generator.cpp): every family
// on the whole cluster, then, under a staleness bound, the team and the pace each refined in turn
// from the best so far (a coarse pass over their values, then the neighbours of the best). Then,
// wide, the averages of a quorum: every quorum on the whole cluster under each stale rule, the
// team and the quorum (or the pace) refined in turn from the best, and the end game and the stale
// rule varied on the best. Not every team is tried with every quorum (on 32 workers, a thousand
// runs of a scenario): the quorums above 12 are sampled, and only the two best quorums are tried
// with smaller teams: about 120 runs of a scenario in all, where the narrow search takes 35.
class Search {
 public:
  explicit Search(const Scenario& s) : s_(s), computes_(s) {
    std::vector<double> speeds = s.worker_ms;
    std::sort(speeds.begin(), speeds.end());
    // A team ends where a speed ends; a pace is the first worker of a speed.
    for (int n = 1; n <= s.workers(); ++n) {
      if (n == s.workers() || speeds[n] != speeds[n - 1]) teams_.push_back(n);
      if (n == 1 || speeds[n - 1] != speeds[n - 2]) paces_.push_back(n);
    }
    // Variants that cannot differ on a scenario are skipped: actual times where they are the
    // mean and nothing fails, the stale rule where there is no bound.
    end_games_ = {Policy::EndGame::none, Policy::EndGame::mean};
    if (s.jitter != 0 || !s.failures.empty()) end_games_.push_back(Policy::EndGame::actual);
    stale_rules_ = {Policy::Stale::retire};
    if (s.staleness_bound >= 0) stale_rules_.push_back(Policy::Stale::recompute);
  }

  Found run(Breadth breadth) {
    families();
    if (s_.staleness_bound >= 0) {
      for (int round = 0; round < rounds(); ++round) {
        refine_team();
        if (best_.policy.server == Policy::Server::average) refine_pace();
      }
      vary_end_game_and_stale_rule();
    }
    if (breadth == Breadth::wide) {
      quorums();
      groups();
    }
    return best_;
  }

 private:
  int rounds() const { return s_.workers() > 16 ? 1 : 2; }

  void families() {
    using P = Policy;
    for (auto end_game : end_games_) {
      P p;
      p.team = s_.workers();
      p.end_game = end_game;
      // The order of pushes matters on a few workers; on many, pushes queue whatever it is.
      for (auto order : {P::Order::arrival, P::Order::fastest_first, P::Order::slowest_first}) {
        if (order != P::Order::arrival && s_.workers() > 8) continue;
        p.order = order;
        consider(p);
      }
      p.server = P::Server::average;
      p.order = P::Order::arrival;
      for (int pace : {0, 1}) {
        p.pace = pace;
        consider(p);
      }
    }
  }

  void quorums() {
    // Quorums on the whole cluster, under each stale rule, with the best end game so far: every
    // one up to 12, every fourth above (the best are small: a large one waits on slow workers).
    std::vector<std::pair<double, Policy>> swept;
    for (auto stale : stale_rules_) {
      Policy p;
      p.team = s_.workers();
      p.server = Policy::Server::average;
      p.end_game = best_.policy.end_game;
      p.stale = stale;
      for (int q = 2; q <= s_.workers(); q += q < 12 ? 1 : 4) {
        p.quorum = q;
        // Only the two best are used: a run longer than the second best so far is cut short.
        const double ms = consider(p, swept.size() < 2 ? -1 : swept[1].first);
        if (ms > 0) {
          swept.emplace_back(ms, p);
          std::stable_sort(swept.begin(), swept.end(),
                           [](const auto& a, const auto& b) { return a.first < b.first; });
          swept.resize(std::min<std::size_t>(swept.size(), 2));
        }
      }
    }
    // The two best of them with fewer workers: teams spread over the speeds, each with the
    // quorum and its neighbours (a smaller team may want a smaller quorum).
    const std::size_t step = std::max<std::size_t>(1, teams_.size() / 8);
    for (const auto& [ms, centre] : swept) {
      for (std::size_t i = 0; i < teams_.size(); i += step) {
        for (int q = centre.quorum - 1; q <= centre.quorum + 1; ++q) {
          Policy p = centre;
          p.team = teams_[i];
          p.quorum = std::clamp(q, 2, p.team);
          consider(p);
        }
      }
    }
    // Then the best so far refined, team and quorum (or pace) in turn.
    for (int round = 0; round < rounds(); ++round) {
      refine_team();
      if (best_.policy.server != Policy::Server::average) continue;
      if (best_.policy.quorum == 0) refine_pace();
      if (best_.policy.pace == 0) {
        std::vector<int> quorums = {0};
        for (int q = 2; q <= best_.policy.team; ++q) quorums.push_back(q);
        refine(
            quorums, [](const Policy& p) { return p.quorum; },
            [](Policy& p, int q) { p.quorum = q; });
      }
    }
    vary_end_game_and_stale_rule();
  }

  // One average per speed group, on teams of the fastest workers: every team under each stale
  // rule and end game a program can follow, up to 16 teams spread over the speeds, then the
  // neighbours of the best of them.
  void groups() {
    Found best_group;
    auto run = [&](Policy p) {
      const double ms = consider(p);
      if (ms > 0 && (best_group.ms < 0 || ms < best_group.ms)) best_group = {ms, p};
    };
    const std::size_t step = std::max<std::size_t>(1, teams_.size() / 16);
    for (auto stale : stale_rules_) {
      for (auto end_game : {Policy::EndGame::none, Policy::EndGame::mean}) {
        Policy p;
        p.server = Policy::Server::group;
        p.stale = stale;
        p.end_game = end_game;
        for (std::size_t i = 0; i < teams_.size(); i += step) {
          p.team = teams_[i];
          run(p);
        }
        p.team = teams_.back();
        run(p);
      }
    }
    if (best_group.ms < 0) return;
    const auto centre = std::find(teams_.begin(), teams_.end(), best_group.policy.team);
    for (auto t = centre - std::min<std::ptrdiff_t>(step, centre - teams_.begin());
         t != teams_.end() && t <= centre + static_cast<std::ptrdiff_t>(step); ++t) {
      Policy p = best_group.policy;
      p.team = *t;
      run(p);
    }
  }

  void refine_team() {
    refine(
        teams_, [](const Policy& p) { return p.team; },
        [](Policy& p, int team) {
          p.team = team;
          p.pace = std::min(p.pace, team);
          p.quorum = std::min(p.quorum, team);
        });
  }

  void refine_pace() {
    std::vector<int> paces = {0};
    for (int pace : paces_) {
      if (pace <= best_.policy.team) paces.push_back(pace);
    }
    refine(
        paces, [](const Policy& p) { return p.pace; },
        [](Policy& p, int pace) {
          p.pace = pace;
          p.quorum = 0;
        });
  }

  void vary_end_game_and_stale_rule() {
    const Policy best = best_.policy;
    for (auto end_game : end_games_) {
      for (auto stale : stale_rules_) {
        Policy p = best;
        p.end_game = end_game;
        p.stale = stale;
        consider(p);
      }
    }
  }

 private:
  double consider(const Policy& p) { return consider(p, best_.ms); }

  // The policy's makespan (-1: it never finishes, it was tried before, or it would end after
  // `cutoff` ms, when that is positive).
  double consider(const Policy& p, double cutoff) {
    const auto key =
        std::make_tuple(p.team, static_cast<int>(p.server), static_cast<int>(p.order), p.pace,
                        p.quorum, static_cast<int>(p.end_game), static_cast<int>(p.stale));
    if (!tried_.insert(key).second) return -1;
    const double ms =
        Schedule(s_, p, computes_).run(cutoff > 0 ? sim::from_ms(cutoff) : -1).makespan_ms;
    if (ms > 0 && (best_.ms < 0 || ms < best_.ms)) best_ = {ms, p};
    return ms;
  }

  // Varies one setting of the best policy over `values`: about eight spread over them, then
  // the neighbours of the best.
  template <typename Get, typename Set>
  void refine(const std::vector<int>& values, Get get, Set set) {
    if (values.empty()) return;
    const std::size_t n = values.size();
    const std::size_t step = std::max<std::size_t>(1, n / 6);
    auto at = [&](std::size_t i) {
      Policy p = best_.policy;
      set(p, values[i]);
      consider(p);
    };
    for (std::size_t i = 0; i < n; i += step) at(i);
    at(n - 1);
    for (int pass = 0; pass < 2; ++pass) {
      const auto centre = std::find(values.begin(), values.end(), get(best_.policy));
      if (centre == values.end()) break;
      const auto i = static_cast<std::size_t>(centre - values.begin());
      for (std::size_t j = i > step ? i - step : 0; j < std::min(n, i + step + 1); ++j) at(j);
    }
  }

  const Scenario& s_;
  std::vector<int> teams_, paces_;
  std::vector<Policy::EndGame> end_games_;
  std::vector<Policy::Stale> stale_rules_;
  ComputeTimes computes_;
  std::set<std::tuple<int, int, int, int, int, int, int>> tried_;
  Found best_;  // the search refines around it
};

}  // namespace

Found search(const Scenario& s, Breadth breadth) { return Search(s).run(breadth); }

std::vector<KitRule> kit_rules(const Scenario& s) {
  using P = Policy;
  std::vector<KitRule> rules;
  auto add = [&](const char* program, P p) { rules.push_back({program, p}); };
  P reference;
  reference.team = s.workers();
  reference.server = P::Server::average;
  reference.pace = P::kChosenPace;
  reference.end_game = P::EndGame::half_way;
  reference.hand_out_between_applies = true;
  add("the reference", reference);
  const P push = pull_based(s);
  add("the styles", push);
  if (s.staleness_bound >= 0) {
    for (P p : {reference, push}) {
      p.stale = P::Stale::recompute;
      add(p.server == P::Server::push ? "the styles' variant push_recompute"
                                      : "the reference's variant never_retire",
          p);
    }
  }
  // The workers within twice the fastest's time.
  P group;
  group.server = P::Server::group;
  const double fastest = *std::min_element(s.worker_ms.begin(), s.worker_ms.end());
  for (double t : s.worker_ms) group.team += t <= 2 * fastest;
  add("designs/group_average", group);
  return rules;
}

Plan best_known(const Scenario& s) {
  Plan best;
  const char* program = "";
  for (const KitRule& rule : kit_rules(s)) {
    const double ms = simulate(s, rule.policy).makespan_ms;
    if (ms > 0 && (best.ms < 0 || ms < best.ms)) {
      best.ms = ms;
      best.policy = rule.policy;
      program = rule.program;
    }
  }
  if (best.ms < 0) throw std::logic_error("param-server: no rule of the kit finishes " + s.name);
  const bool proven = best.ms == lower_bound(s).ms;
  best.note = fmt::format("{}: {} ({}'s rule)",
                          proven ? "optimal, on the bound" : "best known, not proven optimal",
                          describe(s, best.policy), program);
  const Found searched = search(s, Breadth::wide);
  if (searched.ms > 0 && searched.ms < best.ms) {
    best.hindsight_ms = searched.ms;
    best.hindsight_policy = searched.policy;
    best.note +=
        fmt::format("; in hindsight {:g} ms: {}", searched.ms, describe(s, searched.policy));
  }
  return best;
}

std::string hindsight_note(const Scenario& s) {
  const char* search =
      "the best of a search that tries teams, paces, quorums and end games on "
      "this very scenario";
  if (s.jitter != 0 || !s.failures.empty()) {
    return fmt::format(
        "{}, knowing each compute's actual time and when each worker fails, which a program is "
        "not told",
        search);
  }
  return fmt::format("{}, in simulation: no program of the kit plans that way", search);
}

std::string describe(const Scenario& s, const Policy& p) {
  using P = Policy;
  std::string out =
      p.team == s.workers() ? "every worker" : fmt::format("the {} fastest workers", p.team);
  if (p.server == P::Server::group) {
    out +=
        ", the gradients of each speed group averaged in one apply once the whole group's are "
        "in";
  } else if (p.server == P::Server::push) {
    out += p.order == P::Order::arrival ? ", gradients pushed one at a time as they arrive"
           : p.order == P::Order::fastest_first
               ? ", gradients pushed one at a time, the fastest worker's first"
               : ", gradients pushed one at a time, the slowest worker's first";
  } else if (p.pace == 0 && p.quorum > 1) {
    out += fmt::format(
        ", waiting gradients averaged in one apply once {} wait (or no other is coming)", p.quorum);
  } else if (p.pace == 0 || (p.pace == P::kChosenPace && s.staleness_bound < 0)) {
    out += ", waiting gradients averaged in one apply as soon as the server is free";
  } else if (p.pace == P::kChosenPace) {
    out +=
        ", waiting gradients averaged once per cycle of a pacer chosen from the mean speeds and "
        "the bound, and chosen again whenever a worker stops";
  } else {
    const int j = p.pace;
    const char* suffix = j % 10 == 1 && j % 100 != 11   ? "st"
                         : j % 10 == 2 && j % 100 != 12 ? "nd"
                         : j % 10 == 3 && j % 100 != 13 ? "rd"
                                                        : "th";
    out += j == 1 ? ", waiting gradients averaged once per cycle of the fastest working worker"
                  : fmt::format(
                        ", waiting gradients averaged once per cycle of the {}{} fastest "
                        "working worker",
                        j, suffix);
  }
  if (p.end_game == P::EndGame::mean) {
    out += ", slow workers kept off the last mini-batches (judged on mean times)";
  } else if (p.end_game == P::EndGame::half_way) {
    out +=
        ", slow workers kept off the last mini-batches (judged on mean times, every busy worker "
        "taken as half-way through its cycle)";
  } else if (p.end_game == P::EndGame::actual) {
    out +=
        ", slow workers kept off the last mini-batches (planned on the actual times and failures, "
        "which a program cannot know)";
  }
  if (s.staleness_bound >= 0) {
    out += p.stale == P::Stale::retire ? ", a worker whose gradient is too stale retires"
                                       : ", a too stale gradient's mini-batch recomputed";
  }
  return out;
}

}  // namespace overlap::param_server
