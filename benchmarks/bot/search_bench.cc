// Search speed of the bot: nodes per second of ChooseMove (level 10, on the clock) over a
// fixed set of positions of one game. Only the public bot API is used, so the same source
// built from an older commit measures the older search on the same positions (see
// search_speed.sh, which prints both beside Stockfish's own `bench` figure).
//
//   search_bench --game=chess --budget_ms=1000
//   search_bench --game=shogi4 --budget_ms=1000
//   search_bench --game=shogi4 --moves_file=benchmarks/bot/shogi4_game_positions.txt
//   search_bench --game=shogi4 --seed=1 --depth=5 --budget_ms=1000000   (time to depth 5)
//
// Chess positions are fixed FENs (opening, middlegames, endgames); four-player shogi
// positions are the start and random walks of fixed length and seed from it (the engine's
// move order, not the bot's, decides them), or those of --moves_file (positions of games,
// shogi4_game_positions.txt). Prints one line per position and a total:
// nodes, milliseconds, thousands of nodes per second.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "libs/bot/bot.h"
#include "libs/games/games.h"

ABSL_FLAG(std::string, game, "chess", "chess or shogi4");
ABSL_FLAG(int, budget_ms, 1000, "thinking time per position");
ABSL_FLAG(uint64_t, seed, 0,
          "0: on the clock; else seeded (node-limited, repeatable: two versions of a search "
          "that should explore the same tree must print the same nodes and moves)");
ABSL_FLAG(int, depth, 0,
          "four-player shogi: > 0 stops each search after this depth (with a --budget_ms that "
          "does not stop it first, every version searches to the same depth: the time to it)");
ABSL_FLAG(std::string, moves_file, "",
          "four-player shogi: the positions are read from this file instead, one a line: a "
          "position's text, \" | \", then the moves from it (move texts separated by spaces)");
ABSL_FLAG(int, repeat, 1, "passes over the positions (the TT is kept between chess searches)");

namespace {

using tablero::game::Game;

const char* const kChessFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r2rk1/pp1bqpp1/2n1p2p/3pP3/3P4/P1PB1N2/5PPP/R2Q1RK1 w - - 0 16",
    "r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R b KQkq - 3 7",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 30",
    "6k1/5pp1/4p2p/3pP3/1r1P1P2/6P1/3R2KP/8 w - - 0 35",
    "8/8/1p3k2/p1r3p1/P4p2/2R2P2/5KPP/8 w - - 0 40",
    "2kr3r/ppp2ppp/2n5/2b1p3/4P1b1/2NP1N2/PPP2PPP/R1B1K2R w KQ - 2 11",
};

std::vector<std::unique_ptr<Game>> Positions(const std::string& game) {
  std::vector<std::unique_ptr<Game>> out;
  tablero::game::NewGameParams params;
  if (game == "chess") {
    params.kind = tablero::game::Kind::kChess;
    for (const char* fen : kChessFens) {
      auto g = tablero::games::FromPosition(params, fen);
      if (!g.ok()) {
        fprintf(stderr, "bad FEN %s\n", fen);
        exit(2);
      }
      out.push_back(std::move(*g));
    }
  } else if (game == "shogi4") {
    params.kind = tablero::game::Kind::kShogi4;
    if (const std::string file = absl::GetFlag(FLAGS_moves_file); !file.empty()) {
      std::ifstream in(file);
      if (!in) {
        fprintf(stderr, "cannot read %s\n", file.c_str());
        exit(2);
      }
      for (std::string line; std::getline(in, line);) {
        const size_t bar = line.find(" | ");
        auto start = tablero::games::FromPosition(params, line.substr(0, bar));
        if (bar == std::string::npos || !start.ok()) {
          fprintf(stderr, "%s: not a position | moves line: %s\n", file.c_str(), line.c_str());
          exit(2);
        }
        auto g = std::move(*start);
        std::istringstream moves(line.substr(bar + 3));
        for (std::string text; moves >> text;) {
          auto m = g->ParseMove(text);
          if (!m.ok() || !g->Play(*m).ok()) {
            fprintf(stderr, "%s: move %s refused\n", file.c_str(), text.c_str());
            exit(2);
          }
        }
        if (!g->result().over) out.push_back(std::move(g));
      }
      return out;
    }
    std::mt19937_64 rng(20261203);
    for (int plies : {0, 8, 16, 24, 32, 40, 48, 56}) {
      auto g = *tablero::games::NewGame(params);
      for (int i = 0; i < plies && !g->result().over; ++i) {
        auto legal = g->LegalMoves();
        (void)g->Play(legal[rng() % legal.size()]);
      }
      if (!g->result().over) out.push_back(std::move(g));
    }
  } else {
    fprintf(stderr, "--game: chess or shogi4\n");
    exit(2);
  }
  return out;
}

// Request::max_depth, where the bot has it (search_bench is built from older commits too:
// baseline_bench.sh).
template <class R>
void SetMaxDepth(R& r, int depth) {
  if constexpr (requires { r.max_depth; }) {
    r.max_depth = depth;
  } else if (depth > 0) {
    fprintf(stderr, "--depth: this version of the bot has no depth limit\n");
    exit(2);
  }
}

double ThreadCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string game = absl::GetFlag(FLAGS_game);
  const auto positions = Positions(game);
  uint64_t total_nodes = 0;
  double total_ms = 0, total_cpu_ms = 0;
  for (int r = 0; r < absl::GetFlag(FLAGS_repeat); ++r) {
    for (size_t i = 0; i < positions.size(); ++i) {
      tablero::bot::Request req;
      req.level = 10;
      req.budget_ms = absl::GetFlag(FLAGS_budget_ms);
      req.seed = absl::GetFlag(FLAGS_seed);
      SetMaxDepth(req, absl::GetFlag(FLAGS_depth));
      const auto t0 = std::chrono::steady_clock::now();
      const double cpu0 = ThreadCpuMs();
      auto c = tablero::bot::ChooseMove(*positions[i], req);
      const double cpu = ThreadCpuMs() - cpu0;
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!c.ok()) {
        fprintf(stderr, "position %zu: %s\n", i, std::string(c.status().message()).c_str());
        return 1;
      }
      total_nodes += c->nodes;
      total_ms += ms;
      total_cpu_ms += cpu;
      printf(
          "%s position %zu: depth %d eval %d nodes %llu ms %.0f cpu_ms %.0f knps_cpu %.0f move "
          "%s\n",
          game.c_str(), i, c->depth, c->eval, static_cast<unsigned long long>(c->nodes), ms, cpu,
          double(c->nodes) / cpu, c->move.notation.c_str());
    }
  }
  // nps_cpu: per second of this thread's CPU time, which load from other processes barely
  // changes (the wall-clock figure, nps, does).
  printf("total %s nodes %llu ms %.0f cpu_ms %.0f nps %.0f nps_cpu %.0f\n", game.c_str(),
         static_cast<unsigned long long>(total_nodes), total_ms, total_cpu_ms,
         double(total_nodes) / total_ms * 1e3, double(total_nodes) / total_cpu_ms * 1e3);
  return 0;
}
