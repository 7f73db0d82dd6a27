// The best known makespans against the correct programs of the kit, over JSON reports of the
// same generated scenarios (one report per program): no correct run may beat its scenario's best
// known by more than the margin, since `optimal` is graded against it. Prints, per exercise, how
// far the best known sits above the bound, where a hindsight figure lies below it, and each
// program's standing, in all and per family of scenarios (seed-S-K is of family K mod 4).
//   overlap-best-known-check [--check] [--reached] [--margin 0.02] REPORT...
// With --check, exits 1 when a correct run beats its best known by more than the margin; with
// --reached also when some scenario's best known is reached, within the margin, by no correct
// run: a best known that no program of the kit reaches may ask for more than a program is told.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace json = boost::json;

namespace {

struct Run {
  std::string scenario;
  double makespan_ms = 0, best_known_ms = 0, bound_ms = 0, hindsight_ms = 0;
  bool correct = false;
  std::string verdict;
};

struct Program {
  std::string name;  // its file's stem
  std::string exercise;
  std::vector<Run> runs;
};

double number(const json::value& v) { return v.to_number<double>(); }

Program read_report(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const json::object report = json::parse(text.str()).as_object();
  Program p;
  p.exercise = std::string(report.at("exercise").as_string());
  p.name = std::filesystem::path(std::string(report.at("submission").as_string())).stem().string();
  // The references are all train.cpp: named by their folder.
  if (p.name == "train") p.name = "reference";
  for (const json::value& v : report.at("scenarios").as_array()) {
    const json::object& s = v.as_object();
    p.runs.push_back({std::string(s.at("name").as_string()), number(s.at("makespan_ms")),
                      number(s.at("best_known_ms")), number(s.at("bound_ms")),
                      number(s.at("hindsight_ms")), s.at("correct").as_bool(),
                      std::string(s.at("verdict").as_string())});
  }
  return p;
}

// The q-quantile of sorted values (nearest rank).
double quantile(const std::vector<double>& sorted, double q) {
  const auto i = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[i];
}

double percent(std::size_t part, std::size_t whole) {
  return whole == 0 ? 0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// seed-S-K is of family K mod 4 (every world's generator); -1 for any other name.
int family(const std::string& scenario) {
  const auto dash = scenario.rfind('-');
  if (scenario.rfind("seed-", 0) != 0 || dash == std::string::npos) return -1;
  return std::atoi(scenario.c_str() + dash + 1) % 4;
}

constexpr int kFamilies = 4;

}  // namespace

int main(int argc, char** argv) {
  bool check = false, reached = false;
  double margin = 0.02;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--check") {
      check = true;
    } else if (arg == "--reached") {
      reached = true;
    } else if (arg == "--margin" && i + 1 < argc) {
      margin = std::atof(argv[++i]);
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: overlap-best-known-check [--check] [--reached] [--margin M] REPORT...\n";
    return 2;
  }
  std::map<std::string, std::vector<Program>> by_exercise;
  for (const std::string& f : files) {
    Program p = read_report(f);
    by_exercise[p.exercise].push_back(std::move(p));
  }

  std::vector<std::string> beaten, unreached;
  for (const auto& [exercise, programs] : by_exercise) {
    // The scenarios' facts, from any report that has them (every program graded the same ones).
    std::map<std::string, const Run*> facts;
    for (const Program& p : programs) {
      for (const Run& r : p.runs) facts.emplace(r.scenario, &r);
    }
    std::vector<double> ratios;
    std::size_t on_bound = 0, over_5 = 0;
    for (const auto& [name, r] : facts) {
      const double ratio = r->bound_ms > 0 ? r->best_known_ms / r->bound_ms : 1;
      ratios.push_back(ratio);
      on_bound += ratio <= 1.0 + 1e-9;
      over_5 += ratio > 1.05;
    }
    std::sort(ratios.begin(), ratios.end());
    fmt::print("{}: {} scenarios\n", exercise, facts.size());
    fmt::print(
        "  best known / bound: min {:.3f}, median {:.3f}, 90th percentile {:.3f}, max {:.3f}; "
        "on the bound {} ({:.1f} %), more than 5 % above it {} ({:.1f} %)\n",
        ratios.front(), quantile(ratios, 0.5), quantile(ratios, 0.9), ratios.back(), on_bound,
        percent(on_bound, ratios.size()), over_5, percent(over_5, ratios.size()));
    // Where a schedule that knows more than a program is told does better, how much better.
    std::array<std::vector<double>, kFamilies> hindsight;
    std::array<std::size_t, kFamilies> in_family{};
    for (const auto& [name, r] : facts) {
      if (family(name) < 0) continue;
      ++in_family[family(name)];
      if (r->hindsight_ms > 0)
        hindsight[family(name)].push_back(1 - r->hindsight_ms / r->best_known_ms);
    }
    for (int f = 0; f < kFamilies; ++f) {
      std::vector<double>& gaps = hindsight[f];
      if (gaps.empty()) continue;
      std::sort(gaps.begin(), gaps.end());
      fmt::print(
          "  family {}: a hindsight figure below the best known on {} of {}, by {:.1f} % "
          "(median), {:.1f} % (max)\n",
          f, gaps.size(), in_family[f], 100 * quantile(gaps, 0.5), 100 * gaps.back());
    }
    std::map<std::string, double> closest;  // each scenario's lowest correct makespan / best known
    for (const Program& p : programs) {
      std::size_t correct = 0, optimal = 0, pass = 0;
      std::array<std::size_t, kFamilies> optimal_in{}, runs_in{};
      double lowest = 0;
      std::string lowest_name = "none";
      for (const Run& r : p.runs) {
        optimal += r.verdict == "optimal";
        pass += r.verdict == "pass";
        if (family(r.scenario) >= 0) {
          ++runs_in[family(r.scenario)];
          optimal_in[family(r.scenario)] += r.verdict == "optimal";
        }
        if (!r.correct) continue;
        ++correct;
        const double ratio = r.makespan_ms / r.best_known_ms;
        if (!closest.count(r.scenario) || ratio < closest[r.scenario]) closest[r.scenario] = ratio;
        if (lowest_name == "none" || ratio < lowest) lowest = ratio, lowest_name = r.scenario;
        if (ratio < 1 - margin) {
          beaten.push_back(
              fmt::format("{} {}: {} ran {:g} ms, {:.1f} % under the best known {:g} ms", exercise,
                          r.scenario, p.name, r.makespan_ms, 100 * (1 - ratio), r.best_known_ms));
        }
      }
      fmt::print(
          "  {:<16} correct {}/{}, optimal {} ({:.1f} %), pass {}, below {}; closest to or under "
          "its best known: {} at {:+.1f} %\n",
          p.name, correct, p.runs.size(), optimal, percent(optimal, p.runs.size()), pass,
          p.runs.size() - optimal - pass, lowest_name, 100 * (lowest - 1));
      std::string families;
      for (int f = 0; f < kFamilies; ++f) {
        if (runs_in[f] == 0) continue;
        families += fmt::format("{}family {} {}/{}", families.empty() ? "" : ", ", f, optimal_in[f],
                                runs_in[f]);
      }
      if (!families.empty()) fmt::print("  {:<16} optimal per family: {}\n", "", families);
    }
    if (reached) {
      for (const auto& [name, r] : facts) {
        if (!closest.count(name) || closest[name] > 1 + margin) {
          unreached.push_back(
              fmt::format("{} {}: no correct run within {:g} % of the best known {:g} ms{}",
                          exercise, name, 100 * margin, r->best_known_ms,
                          closest.count(name)
                              ? fmt::format(" (the closest {:+.1f} %)", 100 * (closest[name] - 1))
                              : ""));
        }
      }
    }
  }
  if (reached) {
    if (unreached.empty()) {
      fmt::print("every best known is reached within {:g} % by a correct run\n", 100 * margin);
    } else {
      fmt::print("best knowns no correct run reaches within {:g} %: {}\n", 100 * margin,
                 unreached.size());
      for (const std::string& u : unreached) fmt::print("  {}\n", u);
    }
  }
  if (beaten.empty()) {
    fmt::print("no correct run beats its best known by more than {:g} %\n", 100 * margin);
  } else {
    fmt::print("correct runs more than {:g} % under their best known: {}\n", 100 * margin,
               beaten.size());
    for (const std::string& b : beaten) fmt::print("  {}\n", b);
  }
  return check && !(beaten.empty() && unreached.empty()) ? 1 : 0;
}
