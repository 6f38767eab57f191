// A UCI front end for the chess bot, so match_runner (--uci) can play one build of the bot
// against another. It answers with a level's move through ChooseMove, as match_runner does:
//
//   uci, isready, ucinewgame, setoption (ignored), quit
//   position startpos|fen FEN [moves M1 M2 ...]
//   go nodes N      seeded: budget N / kSeededNodesPerMs ms, searched as nodes, not time
//   go movetime T   on the clock, T ms
//   go (anything else): on the clock, --movetime_ms
//
//   match_runner --game=chess --a=10 --seeded --movetime_ms=100 --uci=OLD_UCI_BOT
//       --uci_nodes=25000 --games=400
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "libs/bot/bot.h"
#include "libs/bot/levels.h"
#include "libs/chess/position.h"
#include "libs/games/games.h"

ABSL_FLAG(int, level, 10, "the bot's level, 1..10");
ABSL_FLAG(int, movetime_ms, 100, "budget of a plain \"go\"");

namespace {

using tablero::game::Game;

// The game after a "position" command's words (after "position"); null if malformed.
std::unique_ptr<Game> SetPosition(const std::vector<std::string>& words) {
  tablero::game::NewGameParams params;
  params.kind = tablero::game::Kind::kChess;
  size_t i = 0;
  std::string fen;
  if (i < words.size() && words[i] == "startpos") {
    fen = std::string(tablero::chess::kStartFen);
    ++i;
  } else if (i < words.size() && words[i] == "fen") {
    std::vector<std::string> parts;
    for (++i; i < words.size() && words[i] != "moves"; ++i) parts.push_back(words[i]);
    fen = absl::StrJoin(parts, " ");
  } else {
    return nullptr;
  }
  auto g = tablero::games::FromPosition(params, fen);
  if (!g.ok()) return nullptr;
  if (i < words.size() && words[i] == "moves") {
    for (++i; i < words.size(); ++i) {
      auto m = (*g)->ParseMove(words[i]);
      if (!m.ok() || !(*g)->Play(*m).ok()) return nullptr;
    }
  }
  return std::move(*g);
}

// The budget and seed of a "go" command's words (after "go").
tablero::bot::Request GoRequest(const std::vector<std::string>& words, int ply) {
  tablero::bot::Request req;
  req.level = absl::GetFlag(FLAGS_level);
  req.budget_ms = absl::GetFlag(FLAGS_movetime_ms);
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(words[i + 1], &v) || v <= 0) continue;
    if (words[i] == "nodes") {
      req.budget_ms = int(std::max<int64_t>(1, v / int64_t(tablero::bot::kSeededNodesPerMs)));
      req.seed = uint64_t(ply) * 2 + 1;  // repeatable; level 10 has no noise to select
      req.use_clock = false;
    } else if (words[i] == "movetime") {
      req.budget_ms = int(v);
    }
  }
  return req;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  setvbuf(stdout, nullptr, _IOLBF, 0);
  std::unique_ptr<Game> game = SetPosition({"startpos"});
  char buf[65536];
  while (fgets(buf, sizeof buf, stdin)) {
    std::vector<std::string> words =
        absl::StrSplit(buf, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
    if (words.empty()) continue;
    const std::string cmd = words[0];
    words.erase(words.begin());
    if (cmd == "uci") {
      printf("id name tablero level %d\nid author tablero\nuciok\n", absl::GetFlag(FLAGS_level));
    } else if (cmd == "isready") {
      printf("readyok\n");
    } else if (cmd == "position") {
      game = SetPosition(words);
      if (!game) fprintf(stderr, "bad position: %s", buf);
    } else if (cmd == "go") {
      if (!game || game->result().over) {
        printf("bestmove 0000\n");
        continue;
      }
      auto c = tablero::bot::ChooseMove(*game, GoRequest(words, game->ply()));
      if (!c.ok()) {
        fprintf(stderr, "bot failed: %s\n", std::string(c.status().message()).c_str());
        printf("bestmove 0000\n");
        continue;
      }
      printf("info depth %d nodes %llu score cp %d\nbestmove %s\n", c->depth,
             static_cast<unsigned long long>(c->nodes), c->eval, c->move.notation.c_str());
    } else if (cmd == "quit") {
      break;
    }
  }
  return 0;
}
