// tune_eval: the chess evaluation's weights tuned on labelled positions (libs/bot/chess_tune.h).
//
//   tune_eval --generate --uci=stockfish --games=600 --depth=8 > positions.txt
//       plays games from random openings with the UCI engine's best moves (a tenth of the
//       moves random, for variety) and writes "FEN;score" for each quiet position (not in
//       check, the engine's best move neither a capture nor a promotion), the score being
//       the engine's own evaluation at --depth, in centipawns for the side to move.
//   tune_eval --generate --uci=stockfish --games=2000 --static_nodes=2000 > positions.txt
//       the same from games the bot plays (2000 nodes a move, the weights table, a tenth of
//       the moves random), labelled with Stockfish's static evaluation ("eval"): about fifty
//       times the games for the time, the data train_net learns the network from.
//       --play_net: the bot plays with the shipped network instead of the table.
//   tune_eval --data=positions.txt --start=handcrafted --out=params.txt [--inc=FILE]
//       tunes from the --start table (handcrafted, tuned or a file) on nine tenths of the
//       positions and reports the loss (with the real evaluation, rounded weights) on the
//       other tenth (whole blocks of 64 lines: games apart) before and after; writes the table
//       (text, and as chess_eval_tuned.inc).
//   tune_eval --print=handcrafted   the table as text
//
// benchmarks/bot/tune_data.sh generates the data and runs the tuning. See the README.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "benchmarks/bot/uci.h"
#include "libs/bot/chess_eval.h"
#include "libs/bot/chess_net.h"
#include "libs/bot/chess_search.h"
#include "libs/bot/chess_tune.h"
#include "libs/chess/game.h"
#include "libs/chess/movegen.h"
#include "libs/chess/notation.h"

ABSL_FLAG(bool, generate, false, "generate labelled positions on stdout");
ABSL_FLAG(std::string, uci, "", "--generate: the UCI engine that plays and labels");
ABSL_FLAG(int, games, 400, "--generate: games to play");
ABSL_FLAG(int, depth, 8, "--generate: the engine's search depth per position");
ABSL_FLAG(int, opening_plies, 8, "--generate: random plies at the start of each game");
ABSL_FLAG(uint64_t, seed, 1, "--generate: seed of the random moves");
ABSL_FLAG(int, static_nodes, 0,
          "--generate: instead, the bot plays (this many nodes a move, the weights table) "
          "and the engine labels with its static evaluation (Stockfish's eval command)");
ABSL_FLAG(bool, play_net, false,
          "--static_nodes: the bot plays with the shipped network instead of the weights table");
ABSL_FLAG(std::string, data, "", "tune on this file of FEN;score lines");
ABSL_FLAG(std::string, start, "handcrafted",
          "the table to start from: handcrafted, tuned or a file");
ABSL_FLAG(int, epochs, 400, "gradient steps");
ABSL_FLAG(double, step, 1.0, "Adam's step in centipawns");
ABSL_FLAG(double, pull, 1e-4, "pull toward the starting weights");
ABSL_FLAG(bool, mirror_pst, true, "tie piece-square weights to their mirror images");
ABSL_FLAG(std::string, freeze, "",
          "comma-separated name prefixes of weights left as they start (e.g. material.)");
ABSL_FLAG(std::string, out, "", "write the tuned table (text) here");
ABSL_FLAG(std::string, inc, "", "and as the C++ include the bot ships (chess_eval_tuned.inc)");
ABSL_FLAG(std::string, print, "", "print this table (handcrafted or tuned) and exit");

namespace {

using tablero::bot::ChessEvalParams;
using tablero::chess::Position;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  return bool(out);
}

ChessEvalParams Table(const std::string& name) {
  if (name == "handcrafted") return tablero::bot::HandcraftedChessEvalParams();
  if (name == "tuned") return tablero::bot::TunedChessEvalParams();
  auto p = tablero::bot::ParseChessEvalParams(ReadFile(name));
  if (!p.ok()) {
    fprintf(stderr, "%s: %s\n", name.c_str(), std::string(p.status().message()).c_str());
    exit(2);
  }
  return *p;
}

// The start position after --opening_plies random moves.
Position RandomOpening(std::mt19937_64& rng) {
  Position pos = Position::StartPosition();
  for (int i = 0; i < absl::GetFlag(FLAGS_opening_plies); ++i) {
    tablero::chess::MoveList legal(pos);
    if (legal.size == 0) break;
    pos.DoMove(legal.moves[rng() % legal.size]);
  }
  return pos;
}

// --static_nodes: many more games for the same time (each position from a game of its
// own matters more than the label's depth: a game's positions are alike).
int GenerateStatic() {
  Uci engine(absl::GetFlag(FLAGS_uci), 20);
  if (!engine.ok()) return 2;
  tablero::bot::ScopedChessNet net(absl::GetFlag(FLAGS_play_net) ? tablero::bot::ShippedChessNet()
                                                                 : nullptr);
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  int written = 0;
  for (int game = 0; game < absl::GetFlag(FLAGS_games); ++game) {
    Position pos = RandomOpening(rng);
    std::vector<uint64_t> keys;
    for (int ply = 0; ply < 300; ++ply) {
      tablero::chess::MoveList legal(pos);
      if (legal.size == 0 || pos.halfmove_clock() >= 100 || pos.InsufficientMaterial()) break;
      tablero::bot::ChessLimits limits;
      limits.max_nodes = absl::GetFlag(FLAGS_static_nodes);
      const tablero::bot::ChessResult r = tablero::bot::SearchChess(pos, keys, limits);
      if (std::abs(r.score) > 1500) break;  // decided: the rest of the game teaches nothing
      int cp = 0;
      const bool quiet = !pos.InCheck() && !pos.IsCapture(r.move) &&
                         r.move.kind() != tablero::chess::Move::kPromotion;
      const std::string fen = pos.Fen();
      if (quiet && engine.StaticEval(fen, pos.side_to_move() == tablero::chess::kWhite, &cp) &&
          std::abs(cp) <= 2000) {
        printf("%s;%d\n", fen.c_str(), cp);
        ++written;
      }
      keys.push_back(tablero::chess::RepetitionKey(pos));
      pos.DoMove(rng() % 10 == 0 ? legal.moves[rng() % legal.size] : r.move);
    }
    fflush(stdout);
    if ((game + 1) % 100 == 0) fprintf(stderr, "game %d: %d positions so far\n", game + 1, written);
  }
  return 0;
}

int Generate() {
  if (absl::GetFlag(FLAGS_static_nodes) > 0) return GenerateStatic();
  Uci engine(absl::GetFlag(FLAGS_uci), 20);
  if (!engine.ok()) return 2;
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  int written = 0;
  for (int game = 0; game < absl::GetFlag(FLAGS_games); ++game) {
    engine.NewGame();
    Position pos = RandomOpening(rng);
    for (int ply = 0; ply < 300; ++ply) {
      tablero::chess::MoveList legal(pos);
      if (legal.size == 0 || pos.halfmove_clock() >= 100 || pos.InsufficientMaterial()) break;
      const std::string fen = pos.Fen();
      const Uci::Analysis a = engine.Analyse(fen, absl::GetFlag(FLAGS_depth));
      auto best = tablero::chess::ParseUci(pos, a.best_move);
      if (!best.ok()) break;
      const bool quiet = !pos.InCheck() && !pos.IsCapture(*best) &&
                         best->kind() != tablero::chess::Move::kPromotion;
      if (quiet && !a.mate && std::abs(a.score_cp) <= 2000) {
        printf("%s;%d\n", fen.c_str(), a.score_cp);
        ++written;
      }
      if (a.mate) break;  // decided: the rest of the game teaches nothing
      pos.DoMove(rng() % 10 == 0 ? legal.moves[rng() % legal.size] : *best);
    }
    fflush(stdout);
    fprintf(stderr, "game %d: %d positions so far\n", game + 1, written);
  }
  return 0;
}

int Tune() {
  std::vector<tablero::bot::TuneSample> train, test;
  std::vector<std::pair<Position, double>> test_positions;
  std::ifstream in(absl::GetFlag(FLAGS_data));
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f = absl::StrSplit(line, ';');
    int cp = 0;
    if (f.size() != 2 || !absl::SimpleAtoi(f[1], &cp)) continue;
    auto pos = Position::ParseFen(f[0]);
    if (!pos.ok()) continue;
    const double label = tablero::bot::WinProbability(cp);
    // Held out: every tenth block of 64 lines (about a game, whose positions are alike).
    if (line_number++ / 64 % 10 == 9) {
      test_positions.emplace_back(*pos, label);
    } else {
      train.push_back(tablero::bot::MakeTuneSample(*pos, label));
    }
  }
  if (train.empty()) {
    fprintf(stderr, "no positions in %s\n", absl::GetFlag(FLAGS_data).c_str());
    return 2;
  }
  // The loss of the real evaluation (rounded weights, every term) on the held-out tenth.
  auto held_out = [&](const ChessEvalParams& p) {
    double sum = 0;
    for (const auto& [pos, label] : test_positions) {
      const double d = tablero::bot::WinProbability(tablero::bot::Evaluate(pos, p)) - label;
      sum += d * d;
    }
    return test_positions.empty() ? 0.0 : sum / test_positions.size();
  };
  const ChessEvalParams start = Table(absl::GetFlag(FLAGS_start));
  printf("%zu training, %zu held-out positions\n", train.size(), test_positions.size());
  printf("start: training loss %.6f, held-out loss %.6f\n",
         tablero::bot::TuneLoss(train, tablero::bot::WeightsOf(start)), held_out(start));
  tablero::bot::TuneOptions options;
  options.epochs = absl::GetFlag(FLAGS_epochs);
  options.step = absl::GetFlag(FLAGS_step);
  options.pull = absl::GetFlag(FLAGS_pull);
  options.mirror_pst = absl::GetFlag(FLAGS_mirror_pst);
  for (absl::string_view prefix :
       absl::StrSplit(absl::GetFlag(FLAGS_freeze), ',', absl::SkipEmpty()))
    for (int i = 0; i < tablero::bot::eval_index::kCount; ++i)
      if (absl::StartsWith(tablero::bot::ChessEvalParamName(i), prefix))
        options.frozen.push_back(i);
  const std::vector<double> w = tablero::bot::TuneWeights(
      train, tablero::bot::WeightsOf(start), options, [](int epoch, double loss) {
        if (epoch % 50 == 0) fprintf(stderr, "epoch %d: training loss %.6f\n", epoch, loss);
      });
  const ChessEvalParams tuned = tablero::bot::ParamsOf(w);
  printf("tuned: training loss %.6f, held-out loss %.6f\n",
         tablero::bot::TuneLoss(train, tablero::bot::WeightsOf(tuned)), held_out(tuned));
  const std::string text = tablero::bot::FormatChessEvalParams(tuned);
  if (!absl::GetFlag(FLAGS_out).empty() && !WriteFile(absl::GetFlag(FLAGS_out), text)) return 1;
  if (!absl::GetFlag(FLAGS_inc).empty() &&
      !WriteFile(absl::GetFlag(FLAGS_inc),
                 "// Written by tune_eval (benchmarks/bot/tune_data.sh).\nR\"(\n" + text + ")\"\n"))
    return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  if (!absl::GetFlag(FLAGS_print).empty()) {
    printf("%s", tablero::bot::FormatChessEvalParams(Table(absl::GetFlag(FLAGS_print))).c_str());
    return 0;
  }
  if (absl::GetFlag(FLAGS_generate)) return Generate();
  return Tune();
}
