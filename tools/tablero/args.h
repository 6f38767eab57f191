// The client's command line, parsed with Abseil flags: unknown flags and bad values (e.g.
// `--cpu abc`) are errors, --help lists the flags, --version prints the build.
#ifndef TABLERO_TOOLS_TABLERO_ARGS_H_
#define TABLERO_TOOLS_TABLERO_ARGS_H_

#include <map>
#include <string>
#include <vector>

namespace tablero::cli {

struct Args {
  std::vector<std::string> pos;              // the command and its arguments
  std::map<std::string, std::string> flags;  // the flags given, by name ("1" for a set bool)
  std::vector<std::string> opts;             // every --opt NAME=VALUE, in order
};

// Exits (as Abseil does) on --help, --version, an unknown flag or a bad value.
Args ParseArgs(int argc, char** argv, const char* usage);

}  // namespace tablero::cli

#endif  // TABLERO_TOOLS_TABLERO_ARGS_H_
