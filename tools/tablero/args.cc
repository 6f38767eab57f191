#include "tools/tablero/args.h"

#include <optional>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "libs/version/version.h"

ABSL_FLAG(std::string, server, "",
          "matchmaking service, HOST:PORT (default: $TABLERO_SERVER or 127.0.0.1:50052)");
ABSL_FLAG(std::string, rating_server, "",
          "rating service, HOST:PORT (default: $TABLERO_RATING_SERVER or 127.0.0.1:50053)");
ABSL_FLAG(std::string, name, "", "guest: your display name");
ABSL_FLAG(bool, ranked, false, "settings: a ranked game");
ABSL_FLAG(bool, unranked, false, "settings: an unranked game");
ABSL_FLAG(std::optional<int>, cpu, std::nullopt, "settings: level of the CPU seats (1-10)");
ABSL_FLAG(std::optional<int>, seats, std::nullopt,
          "settings: seats (empty seats are played by the CPU)");
ABSL_FLAG(std::optional<int>, turn, std::nullopt, "settings: seconds per turn (0, 30, 60)");
ABSL_FLAG(std::optional<int>, first, std::nullopt, "settings: the seat that moves first");
ABSL_FLAG(std::vector<std::string>, opt, {},
          "settings, quick: a game option NAME=VALUE (repeat the flag for more)");
ABSL_FLAG(std::optional<int>, players, std::nullopt, "quick: players in the game");
ABSL_FLAG(std::string, player, "", "games: another player's id");
ABSL_FLAG(std::optional<int>, ply, std::nullopt,
          "move: the ply the move is for (default: the game's current ply)");

namespace tablero::cli {
namespace {

// Abseil keeps only the last of repeated flags: every `--opt V` / `--opt=V` becomes part
// of one `--opt=V1,V2` (a std::vector flag splits at commas).
std::vector<std::string> JoinOpts(int argc, char** argv) {
  std::vector<std::string> out, opts;
  for (int i = 0; i < argc; ++i) {
    absl::string_view a = argv[i];
    if (a == "--") {
      for (; i < argc; ++i) out.emplace_back(argv[i]);
      break;
    }
    absl::string_view f = a;
    if (absl::StartsWith(f, "--"))
      f.remove_prefix(2);
    else if (absl::StartsWith(f, "-"))
      f.remove_prefix(1);
    if (i > 0 && f == "opt" && i + 1 < argc) {
      opts.emplace_back(argv[++i]);
    } else if (i > 0 && f != a && absl::StartsWith(f, "opt=")) {
      opts.emplace_back(f.substr(4));
    } else {
      out.emplace_back(a);
    }
  }
  if (!opts.empty()) out.insert(out.begin() + 1, "--opt=" + absl::StrJoin(opts, ","));
  return out;
}

}  // namespace

Args ParseArgs(int argc, char** argv, const char* usage) {
  // --help lists the client's own flags, named by their path in the repository.
  absl::FlagsUsageConfig config;
  config.contains_help_flags = [](absl::string_view file) {
    return absl::StrContains(file, "tools/tablero/");
  };
  config.normalize_filename = [](absl::string_view file) {
    size_t at = file.find("tools/tablero/");
    return std::string(at == absl::string_view::npos ? file : file.substr(at));
  };
  InitFlagsUsage("client", usage, config);
  std::vector<std::string> joined = JoinOpts(argc, argv);
  std::vector<char*> args;
  for (std::string& s : joined) args.push_back(s.data());
  std::vector<char*> pos = absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  Args a;
  a.pos.assign(pos.begin() + 1, pos.end());
  auto text = [&](const char* name, const std::string& v) {
    if (!v.empty()) a.flags[name] = v;
  };
  auto number = [&](const char* name, std::optional<int> v) {
    if (v.has_value()) a.flags[name] = std::to_string(*v);
  };
  text("server", absl::GetFlag(FLAGS_server));
  text("rating_server", absl::GetFlag(FLAGS_rating_server));
  text("name", absl::GetFlag(FLAGS_name));
  text("player", absl::GetFlag(FLAGS_player));
  number("cpu", absl::GetFlag(FLAGS_cpu));
  number("seats", absl::GetFlag(FLAGS_seats));
  number("turn", absl::GetFlag(FLAGS_turn));
  number("first", absl::GetFlag(FLAGS_first));
  number("players", absl::GetFlag(FLAGS_players));
  number("ply", absl::GetFlag(FLAGS_ply));
  if (absl::GetFlag(FLAGS_ranked)) a.flags["ranked"] = "1";
  if (absl::GetFlag(FLAGS_unranked)) a.flags["unranked"] = "1";
  a.opts = absl::GetFlag(FLAGS_opt);
  return a;
}

}  // namespace tablero::cli
