// What the interview's commands share: their exit codes, options parsed with the exercise first,
// the sessions folder and its current record, files read and written whole.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "session.hpp"

namespace overlap::interview {

inline constexpr int kUsage = 2;
inline constexpr int kRecordError = 4;
inline constexpr const char* kDefaultFormat = "45-minute";

// A mistake in the command line or in a file it names: exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string readable_text(const std::filesystem::path& path);
void write_text(const std::filesystem::path& path, const std::string& text);

// The options shared by the commands, parsed with the exercise as the first argument.
boost::program_options::variables_map parse(
    int argc, char** argv, const boost::program_options::options_description& options);
std::filesystem::path sessions_of(const boost::program_options::variables_map& args);

// The session as it stands: its folder and events (none yet: an empty record).
struct Record {
  std::filesystem::path folder;
  std::vector<Event> events;
};
Record current_record(const std::filesystem::path& sessions);

// Runs `command`: a UsageError is exit 2, any other exception exit 4, each said on stderr.
int guarded(int (*command)(int, char**), int argc, char** argv);

}  // namespace overlap::interview
