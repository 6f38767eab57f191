// Match runner: plays the bot against itself at two levels, against a random mover, or
// (chess) against a UCI engine such as Stockfish at a given Skill Level, over many games
// with both colours / every seat, and prints the score with a 95% error bar and the Elo
// difference it implies. See benchmarks/bot/README.md.
//
//   match_runner --game=chess --a=10 --b=1 --games=100 --movetime_ms=100
//   match_runner --game=chess --a=10 --uci=stockfish --skill=5 --games=100 --movetime_ms=100
//   match_runner --game=checkers --seats=3 --a=10 --b=random --games=30
//
// Each opening (a few random plies from the start) is played once per seat of player A, so
// colour and seat advantages cancel. In games of 3+ seats, A takes one seat and B all the
// others; A's score is the mean over opponents of 1 (better place), 0.5 (same), 0 (worse).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/marshalling.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "benchmarks/bot/uci.h"
#include "libs/bot/bot.h"
#include "libs/bot/chess_eval.h"
#include "libs/games/games.h"

ABSL_FLAG(std::string, game, "chess", "chess, shogi4 or checkers");
ABSL_FLAG(int, seats, 0, "seat count (0 = the game's minimum)");
ABSL_FLAG(std::string, options, "", "engine options as name=value,name=value");
ABSL_FLAG(std::string, a, "10", "player A: a level 1..10");
ABSL_FLAG(std::string, b, "1", "player B: a level 1..10, or \"random\"");
ABSL_FLAG(std::string, uci, "", "player B is this UCI engine binary instead (chess only)");
ABSL_FLAG(int, skill, 20, "UCI engine's Skill Level");
ABSL_FLAG(std::vector<std::string>, uci_option, {},
          "further UCI options as NAME=VALUE, comma-separated, set after Skill Level, e.g. "
          "UCI_LimitStrength=true,UCI_Elo=1500");
ABSL_FLAG(int, uci_depth, 0,
          "the UCI engine searches to this depth (go depth) instead of --movetime_ms");
ABSL_FLAG(uint64_t, uci_nodes, 0,
          "the UCI engine searches this many nodes (go nodes) instead of --movetime_ms");
ABSL_FLAG(int, games, 20, "games to play (rounded up to a multiple of the seat count)");
ABSL_FLAG(int, movetime_ms, 100, "thinking time per move for every player");
ABSL_FLAG(int, opening_plies, 4, "random plies played before the match players take over");
ABSL_FLAG(int, max_plies, 600, "a game still running after this many plies is a draw");
ABSL_FLAG(uint64_t, seed, 1, "seed for the openings");
ABSL_FLAG(bool, verbose, false, "print every game");
ABSL_FLAG(bool, seeded, false,
          "give the bot a seed per move (repeatable node-limited searches, chess and "
          "checkers never stopped by the clock, so the result does not depend on the "
          "machine's load) instead of seed 0 (searches limited by the clock)");
ABSL_FLAG(std::string, a_eval, "",
          "chess: player A's evaluation weights, \"handcrafted\" or a file written by "
          "tune_eval (default: the tuned table the bot ships with)");
ABSL_FLAG(std::string, b_eval, "", "chess: player B's evaluation weights, as --a_eval");
ABSL_FLAG(std::string, a_net, "",
          "chess: player A's evaluation network, \"none\" (the weights table) or a file "
          "written by train_net (default: the network the bot ships with, if any)");
ABSL_FLAG(std::string, b_net, "", "chess: player B's evaluation network, as --a_net");

namespace {

using tablero::game::Game;

struct Player {
  int level = 0;  // 0 = random mover
  Uci* uci = nullptr;
  const tablero::bot::ChessEvalParams* eval = nullptr;  // chess: the table its search uses
  bool net_set = false;  // chess: `net` replaces the shipped network (null: none)
  const tablero::bot::ChessNet* net = nullptr;
  // What `eval` and `net` point to when read from a file.
  std::unique_ptr<const tablero::bot::ChessEvalParams> eval_read;
  std::unique_ptr<const tablero::bot::ChessNet> net_read;
};

struct Stats {
  double sum = 0, sum2 = 0;
  int n = 0, wins = 0, draws = 0, losses = 0;
  int firsts = 0;  // games A finished in first place, alone (place 1)
  int64_t think_ms = 0, moves = 0, overruns = 0;
  std::map<std::string, int> ended;  // how the games ended: the result's reason, or unfinished
  void Add(double s) {
    sum += s;
    sum2 += s * s;
    ++n;
    if (s > 0.99) {
      ++wins;
    } else if (s < 0.01) {
      ++losses;
    } else {
      ++draws;
    }
  }
};

std::unique_ptr<Game> Opening(const tablero::game::NewGameParams& params, int plies,
                              std::mt19937_64& rng) {
  while (true) {
    auto g = *tablero::games::NewGame(params);
    for (int i = 0; i < plies && !g->result().over; ++i) {
      auto legal = g->LegalMoves();
      (void)g->Play(legal[rng() % legal.size()]);
    }
    if (!g->result().over) return g;
  }
}

// What the UCI engine is told after "go": --uci_depth, else --uci_nodes, else --movetime_ms.
std::string UciLimit() {
  if (absl::GetFlag(FLAGS_uci_depth) > 0)
    return absl::StrCat("depth ", absl::GetFlag(FLAGS_uci_depth));
  if (absl::GetFlag(FLAGS_uci_nodes) > 0)
    return absl::StrCat("nodes ", absl::GetFlag(FLAGS_uci_nodes));
  return absl::StrCat("movetime ", absl::GetFlag(FLAGS_movetime_ms));
}

// Plays one game; returns A's score in [0, 1].
double PlayGame(std::unique_ptr<Game> g, int a_seat, const Player& a, const Player& b,
                std::mt19937_64& rng, Stats* stats, std::string* log) {
  const int ms = absl::GetFlag(FLAGS_movetime_ms);
  const std::string uci_limit = UciLimit();
  const std::string start_fen = g->kind() == tablero::game::Kind::kChess ? g->PositionText() : "";
  std::vector<std::string> uci_moves;
  if (b.uci) b.uci->NewGame();
  if (log) absl::StrAppend(log, "[", g->PositionText(), "] ");
  int plies = 0;
  while (!g->result().over && plies < absl::GetFlag(FLAGS_max_plies)) {
    const int seat = g->to_move();
    const Player& p = seat == a_seat ? a : b;
    tablero::game::Move move;
    const auto t0 = std::chrono::steady_clock::now();
    if (p.uci) {
      const std::string text = p.uci->Go(start_fen, uci_moves, uci_limit);
      auto m = g->ParseMove(text);
      if (!m.ok()) {
        fprintf(stderr, "engine move %s refused: %s\n", text.c_str(),
                std::string(m.status().message()).c_str());
        break;
      }
      move = *m;
    } else if (p.level == 0) {
      auto legal = g->LegalMoves();
      move = legal[rng() % legal.size()];
    } else {
      tablero::bot::Request req;
      req.level = p.level;
      req.budget_ms = ms;
      req.seed = absl::GetFlag(FLAGS_seeded) ? rng() | 1 : 0;
      req.use_clock = !absl::GetFlag(FLAGS_seeded);
      std::optional<tablero::bot::ScopedChessEvalParams> eval;
      if (p.eval) eval.emplace(*p.eval);
      std::optional<tablero::bot::ScopedChessNet> net;
      if (p.net_set) net.emplace(p.net);
      auto c = tablero::bot::ChooseMove(*g, req);
      if (!c.ok()) {
        fprintf(stderr, "bot failed: %s\n", std::string(c.status().message()).c_str());
        break;
      }
      move = c->move;
      if (log && absl::GetFlag(FLAGS_verbose))
        *log += absl::StrCat("{d", c->depth, " ", c->eval, " n", c->nodes, "} ");
      const int64_t spent = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - t0)
                                .count();
      if (seat == a_seat) {
        stats->think_ms += spent;
        ++stats->moves;
        if (spent > ms) ++stats->overruns;
      }
    }
    if (g->kind() == tablero::game::Kind::kChess) uci_moves.push_back(move.notation);
    if (log) *log += move.display + " ";
    if (!g->Play(move).ok()) {
      fprintf(stderr, "illegal move %s\n", move.notation.c_str());
      return 0;
    }
    ++plies;
  }
  const auto res = g->result();
  ++stats->ended[res.over ? res.reason : "unfinished after --max_plies"];
  if (!res.over) return 0.5;
  const int mine = res.places[a_seat];
  if (mine == 1 && std::count(res.places.begin(), res.places.end(), 1) == 1) ++stats->firsts;
  double s = 0;
  int others = 0;
  for (int i = 0; i < int(res.places.size()); ++i) {
    if (i == a_seat) continue;
    const int theirs = res.places[i];
    // 0 = unplaced: only in a running game, already handled; treat as equal.
    s += mine == theirs || mine == 0 || theirs == 0 ? 0.5 : mine < theirs ? 1.0 : 0.0;
    ++others;
  }
  if (log) absl::StrAppend(log, "{", res.reason, "}");
  return others ? s / others : 0.5;
}

// --a_eval / --b_eval into the player (none: the shipped table).
void LoadEval(const std::string& spec, Player* player) {
  if (spec.empty()) return;
  if (spec == "handcrafted") {
    player->eval = &tablero::bot::HandcraftedChessEvalParams();
    return;
  }
  std::string text;
  if (FILE* f = fopen(spec.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    fclose(f);
  } else {
    fprintf(stderr, "cannot read %s\n", spec.c_str());
    exit(2);
  }
  auto p = tablero::bot::ParseChessEvalParams(text);
  if (!p.ok()) {
    fprintf(stderr, "%s: %s\n", spec.c_str(), std::string(p.status().message()).c_str());
    exit(2);
  }
  player->eval_read = std::make_unique<const tablero::bot::ChessEvalParams>(*p);
  player->eval = player->eval_read.get();
}

// --a_net / --b_net into the player.
void LoadNet(const std::string& spec, Player* p) {
  if (spec.empty()) return;
  p->net_set = true;
  if (spec == "none") return;
  std::ifstream in(spec, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto net = tablero::bot::ParseChessNet(bytes);
  if (!in || !net.ok()) {
    fprintf(stderr, "%s: %s\n", spec.c_str(),
            in ? std::string(net.status().message()).c_str() : "cannot read");
    exit(2);
  }
  p->net_read = *std::move(net);
  p->net = p->net_read.get();
}

Player ParsePlayer(const std::string& text) {
  Player p;
  if (text == "random") return p;
  int level = 0;
  if (!absl::SimpleAtoi(text, &level) || level < 1 || level > 10) {
    fprintf(stderr, "bad player %s\n", text.c_str());
    exit(2);
  }
  p.level = level;
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  signal(SIGPIPE, SIG_IGN);
  auto kind = tablero::game::ParseKind(absl::GetFlag(FLAGS_game));
  if (!kind.ok()) {
    fprintf(stderr, "%s\n", std::string(kind.status().message()).c_str());
    return 2;
  }
  tablero::game::NewGameParams params;
  params.kind = *kind;
  params.seats = absl::GetFlag(FLAGS_seats);
  for (absl::string_view kv :
       absl::StrSplit(absl::GetFlag(FLAGS_options), ',', absl::SkipEmpty())) {
    std::pair<std::string, std::string> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
    params.options[p.first] = p.second;
  }
  auto probe = tablero::games::NewGame(params);
  if (!probe.ok()) {
    fprintf(stderr, "%s\n", std::string(probe.status().message()).c_str());
    return 2;
  }
  const int seats = (*probe)->seats();

  Player a = ParsePlayer(absl::GetFlag(FLAGS_a));
  Player b;
  std::unique_ptr<Uci> uci;
  std::string b_name = absl::GetFlag(FLAGS_b);
  if (!absl::GetFlag(FLAGS_uci).empty()) {
    uci = std::make_unique<Uci>(absl::GetFlag(FLAGS_uci), absl::GetFlag(FLAGS_skill),
                                absl::GetFlag(FLAGS_uci_option));
    if (!uci->ok()) return 2;
    b.uci = uci.get();
    b_name = absl::StrCat("uci(skill ", absl::GetFlag(FLAGS_skill));
    for (const std::string& o : absl::GetFlag(FLAGS_uci_option)) absl::StrAppend(&b_name, ", ", o);
    absl::StrAppend(&b_name, ", go ", UciLimit(), ")");
  } else {
    b = ParsePlayer(b_name);
  }
  LoadEval(absl::GetFlag(FLAGS_a_eval), &a);
  LoadEval(absl::GetFlag(FLAGS_b_eval), &b);
  LoadNet(absl::GetFlag(FLAGS_a_net), &a);
  LoadNet(absl::GetFlag(FLAGS_b_net), &b);

  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  Stats stats;
  const int rounds = (absl::GetFlag(FLAGS_games) + seats - 1) / seats;
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r) {
    auto opening = Opening(params, absl::GetFlag(FLAGS_opening_plies), rng);
    for (int seat = 0; seat < seats; ++seat) {
      std::string log;
      const double s = PlayGame(opening->Clone(), seat, a, b, rng, &stats,
                                absl::GetFlag(FLAGS_verbose) ? &log : nullptr);
      stats.Add(s);
      if (absl::GetFlag(FLAGS_verbose))
        printf("game %d seat %d score %.2f: %s\n", stats.n, seat, s, log.c_str());
      fflush(stdout);
    }
    const double mean = stats.sum / stats.n;
    fprintf(stderr, "after %d games: %.3f (+%d =%d -%d)\n", stats.n, mean, stats.wins, stats.draws,
            stats.losses);
  }
  const double n = stats.n, mean = stats.sum / n;
  const double var = std::max(0.0, stats.sum2 / n - mean * mean);
  const double err = 1.96 * std::sqrt(var / n);
  auto elo = [](double s) {
    s = std::clamp(s, 0.001, 0.999);
    return -400.0 * std::log10(1.0 / s - 1.0);
  };
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("%s %d seats: A=level %s vs B=%s, %d games, %d ms/move\n",
         absl::GetFlag(FLAGS_game).c_str(), seats, absl::GetFlag(FLAGS_a).c_str(), b_name.c_str(),
         stats.n, absl::GetFlag(FLAGS_movetime_ms));
  printf("A score %.3f +/- %.3f (95%%)  +%d =%d -%d  Elo %+.0f [%+.0f, %+.0f]\n", mean, err,
         stats.wins, stats.draws, stats.losses, elo(mean), elo(mean - err), elo(mean + err));
  // Wilson score interval: sound near 0% and 100%, where the normal error bar is not.
  const double p = stats.firsts / n, z = 1.96, den = 1 + z * z / n;
  const double mid = (p + z * z / (2 * n)) / den;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den;
  printf("A first place: %d of %d = %.1f%% [%.1f%%, %.1f%%] (95%% Wilson)\n", stats.firsts, stats.n,
         100 * p, 100 * (mid - half), 100 * (mid + half));
  printf("A: %lld moves, mean think %.1f ms, %lld over budget; wall %.0f s\n",
         static_cast<long long>(stats.moves),
         stats.moves ? double(stats.think_ms) / stats.moves : 0.0,
         static_cast<long long>(stats.overruns), secs);
  printf("ended:");
  for (const auto& [reason, count] : stats.ended) printf(" %s %d;", reason.c_str(), count);
  printf("\n");
  return 0;
}
