// The judge's options, the one list of them: grade's (what `./overlap grade` takes and passes on,
// what --help and a usage error list, what the README names) and the judge's own (what the script
// and the kit's tests add).
#pragma once

#include <boost/program_options.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace overlap::judge {

// Grade's options.
boost::program_options::options_description grade_options();

// Grade's options as a usage error lists them: "--solution, --submission FILE, ...".
std::string grade_option_list();

// The judge's options: grade's, then its own.
boost::program_options::options_description judge_options();

// A command line the options table rejects; the message says what to give instead.
struct OptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Which options a command line may hold: grade's alone (a user's, through the script), or the
// judge's, its own included.
enum class Table { grade, judge };

// The command line parsed against that table, the exercise its first argument (no prefix of an
// option stands for it), and checked as far as the table goes: an unknown option, a missing or
// malformed value, an unknown compiler. Throws OptionError.
boost::program_options::variables_map parse_options(int argc, char** argv,
                                                    Table table = Table::judge);

}  // namespace overlap::judge
