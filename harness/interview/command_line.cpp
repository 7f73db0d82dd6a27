#include "command_line.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <fstream>
#include <optional>

#include "../judge/files.hpp"

namespace overlap::interview {

namespace fs = std::filesystem;
namespace po = boost::program_options;

std::string readable_text(const fs::path& path) {
  std::optional<std::string> text = judge::file_bytes(path);
  if (!text) throw UsageError("cannot read " + path.string());
  return std::move(*text);
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw UsageError("cannot write " + path.string());
}

po::variables_map parse(int argc, char** argv, const po::options_description& options) {
  po::positional_options_description positional;
  positional.add("exercise", 1);
  po::variables_map args;
  try {
    po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(),
              args);
    po::notify(args);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (!args.count("exercise")) throw UsageError("name an exercise");
  return args;
}

fs::path sessions_of(const po::variables_map& args) {
  if (!args.count("sessions")) throw UsageError("--sessions DIR is required");
  return args["sessions"].as<std::string>();
}

Record current_record(const fs::path& sessions) {
  Record r{current_session(sessions), {}};
  r.events = read_events(r.folder);
  return r;
}

int guarded(int (*command)(int, char**), int argc, char** argv) {
  try {
    return command(argc, argv);
  } catch (const UsageError& e) {
    fmt::print(stderr, "overlap: {}\n", e.what());
    return kUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: {}\n", e.what());
    return kRecordError;
  }
}

}  // namespace overlap::interview
