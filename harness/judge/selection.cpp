#include "selection.hpp"

#include <fmt/format.h>

#include <boost/json/parse.hpp>
#include <fstream>
#include <sstream>

namespace overlap::judge {

namespace {

// The scenarios an earlier report graded, with its seed: the same names give the same
// scenarios, so the same submission gets the same report.
Selection replayed(const worlds::Exercise& exercise, const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read the report to replay, {}", file));
  std::ostringstream text;
  text << in.rdbuf();
  boost::system::error_code error;
  const boost::json::value report = boost::json::parse(text.str(), error);
  const auto* object = report.if_object();
  const auto* exercise_name = object ? object->if_contains("exercise") : nullptr;
  const auto* seed = object ? object->if_contains("seed") : nullptr;
  const auto* scenarios = object ? object->if_contains("scenarios") : nullptr;
  if (error || !exercise_name || !exercise_name->is_string() || !seed || !seed->is_number() ||
      !scenarios || !scenarios->is_array()) {
    throw UsageError(fmt::format("{} is not a JSON report of overlap (written by --json)", file));
  }
  if (exercise_name->as_string() != exercise.name()) {
    throw UsageError(fmt::format("{} is a report of {}, not of {}", file,
                                 std::string(exercise_name->as_string()), exercise.name()));
  }
  Selection out;
  out.seed = seed->to_number<std::uint64_t>();
  for (const boost::json::value& s : scenarios->as_array()) {
    const auto* name = s.is_object() ? s.as_object().if_contains("name") : nullptr;
    if (!name || !name->is_string()) {
      throw UsageError(fmt::format("{}: a scenario without a name", file));
    }
    const std::string wanted(name->as_string());
    auto found = exercise.find(wanted);
    if (!found) {
      throw UsageError(
          fmt::format("{} names a scenario {} does not have: {}", file, exercise.name(), wanted));
    }
    out.scenarios.push_back(std::move(*found));
  }
  if (out.scenarios.empty()) throw UsageError(fmt::format("{} graded no scenario", file));
  return out;
}

}  // namespace

std::string valid_scenarios(const worlds::Exercise& exercise) {
  std::vector<std::string> names;
  for (const auto& s : exercise.scenarios()) names.push_back(s.name);
  for (const auto& s : exercise.stretch()) names.push_back(s.name);
  return fmt::format(
      "{}, seed-S-k (the k-th generated scenario of seed S), named, generated, stretch",
      fmt::join(names, ", "));
}

Selection select_scenarios(const worlds::Exercise& exercise, const SelectionRequest& request) {
  if (request.replay) return replayed(exercise, *request.replay);
  if (request.generated < 0 || request.generated > kMaxGenerated) {
    throw UsageError(fmt::format("--generated must be 0 to {}", kMaxGenerated));
  }
  Selection out;
  out.seed = request.seed;
  const std::string wanted = request.scenario.value_or("");
  if (wanted.empty() || wanted == "named") out.scenarios = exercise.scenarios();
  if (wanted.empty() || wanted == "generated") {
    for (auto& s : exercise.generated(request.seed, request.generated)) {
      out.scenarios.push_back(std::move(s));
    }
  }
  if (wanted == "stretch") out.scenarios = exercise.stretch();
  if (!wanted.empty() && wanted != "named" && wanted != "generated" && wanted != "stretch") {
    auto found = exercise.find(wanted);
    if (!found) {
      throw UsageError(fmt::format("unknown scenario '{}' for {}; valid scenarios: {}", wanted,
                                   exercise.name(), valid_scenarios(exercise)));
    }
    out.scenarios.push_back(std::move(*found));
    if (const auto generated = worlds::parse_generated_name(wanted)) out.seed = generated->seed;
  }
  if (out.scenarios.empty()) {
    throw UsageError(wanted == "stretch"
                         ? fmt::format("{} has no stretch scenarios", exercise.name())
                         : "no scenario to grade: --scenario generated with --generated 0");
  }
  return out;
}

}  // namespace overlap::judge
