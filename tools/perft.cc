// perft: counts the leaves of the legal move tree of any game through the common
// interface (each engine's fast path behind Game::Perft).
//
//   perft --game chess [--fen "<FEN>"] --depth N [--divide]
//   perft --game shogi4 [--position "<text>"] [--option name=value ...] --depth N [--divide]
//   perft --game checkers --players N [--japanese] [--position "<text>"]
//         [--option name=value ...] --depth N [--divide]
//   perft --version
//
// Output: with --divide, one "<move>: <count>" line per root move first; the last line is
// "nodes <N>". Errors go to stderr with exit code 2.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "libs/games/games.h"
#include "libs/version/version.h"

namespace {

int Usage(const std::string& why) {
  std::cerr << "perft: " << why << "\n"
            << "usage: perft --game chess|shogi4|checkers [--fen F | --position P] [--players N]\n"
            << "             [--japanese] [--option name=value ...] --depth N [--divide]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using tablero::game::Kind;
  std::string game_name, position;
  int depth = -1, players = 0;
  bool divide = false;
  tablero::game::Options options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--version") {
      std::cout << tablero::VersionLine("perft") << "\n";
      return 0;
    }
    if (a == "--game") {
      if (!value(&game_name)) return Usage("--game needs a value");
    } else if (a == "--fen" || a == "--position") {
      if (!value(&position)) return Usage(a + " needs a value");
    } else if (a == "--depth") {
      if (!value(&v) || !absl::SimpleAtoi(v, &depth) || depth < 0 || depth > 20) {
        return Usage("--depth needs an integer from 0 to 20");
      }
    } else if (a == "--players") {
      if (!value(&v) || !absl::SimpleAtoi(v, &players) || players < 1) {
        return Usage("--players needs a positive integer");
      }
    } else if (a == "--japanese") {
      options["rules"] = "japanese";
    } else if (a == "--divide") {
      divide = true;
    } else if (a == "--option") {
      if (!value(&v)) return Usage("--option needs name=value");
      std::pair<std::string, std::string> kv = absl::StrSplit(v, absl::MaxSplits('=', 1));
      if (kv.first.empty() || v.find('=') == std::string::npos) {
        return Usage("--option needs name=value, got \"" + v + "\"");
      }
      options[kv.first] = kv.second;
    } else {
      return Usage("unknown argument \"" + a + "\"");
    }
  }
  if (game_name.empty()) return Usage("--game is required");
  if (depth < 0) return Usage("--depth is required");
  auto kind = tablero::game::ParseKind(game_name);
  if (!kind.ok()) return Usage(std::string(kind.status().message()));

  tablero::game::NewGameParams params;
  params.kind = *kind;
  params.options = options;
  params.seats = players;
  auto game = position.empty() ? tablero::games::NewGame(params)
                               : tablero::games::FromPosition(params, position);
  if (!game.ok()) {
    std::cerr << "perft: " << game.status().message() << "\n";
    return 2;
  }
  if (divide) {
    uint64_t total = 0;
    for (const auto& [move, count] : (*game)->Divide(depth)) {
      std::printf("%s: %llu\n", move.c_str(), static_cast<unsigned long long>(count));
      total += count;
    }
    std::printf("nodes %llu\n", static_cast<unsigned long long>(total));
  } else {
    std::printf("nodes %llu\n", static_cast<unsigned long long>((*game)->Perft(depth)));
  }
  return 0;
}
