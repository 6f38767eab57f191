// Trains the chess network (libs/bot/chess_net.h) on Stockfish-labelled positions:
//   train_net --data=positions.txt[,more.txt] --out=net.bin [--inc=libs/bot/chess_net.inc]
// The data is what tune_eval --generate writes ("FEN;score" per line, the score Stockfish's
// evaluation in centipawns for the side to move; benchmarks/bot/tune_data.sh). A share of
// the positions (--holdout) is kept out of training: each epoch prints the loss on them
// beside the training loss, and the start prints the tuned handcrafted evaluation's loss on
// the same positions, the one to beat. match_runner plays a network file with --a_net.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/bot/chess_eval.h"
#include "libs/bot/chess_net.h"
#include "libs/bot/chess_net_train.h"
#include "libs/bot/chess_tune.h"

ABSL_FLAG(std::string, data, "", "comma-separated files of FEN;score lines");
ABSL_FLAG(double, holdout, 0.02, "share of the positions kept out of training");
ABSL_FLAG(std::string, holdout_data, "",
          "instead, hold out this file's positions (positions of games not trained on)");
ABSL_FLAG(bool, residual, false,
          "train the network on what the tuned table's evaluation misses (added to it)");
// The training's defaults are NetTrainOptions's (those of the shipped network).
constexpr tablero::bot::NetTrainOptions kDefaults;
ABSL_FLAG(int, epochs, kDefaults.epochs, "passes over the training positions");
ABSL_FLAG(int, batch, kDefaults.batch, "positions per step");
ABSL_FLAG(double, rate, kDefaults.rate, "Adam's step");
ABSL_FLAG(double, drop_at, kDefaults.drop_at, "share of the epochs after which the step drops");
ABSL_FLAG(double, drop, kDefaults.drop, "the step's factor after drop_at");
ABSL_FLAG(int, threads, kDefaults.threads, "threads");
ABSL_FLAG(uint64_t, seed, 1, "seed of the starting weights, the holdout and the order");
ABSL_FLAG(std::string, out, "", "write the network here (binary)");
ABSL_FLAG(std::string, inc, "", "and as the C++ include the bot ships (libs/bot/chess_net.inc)");

namespace {

using tablero::bot::ChessNet;
using tablero::bot::NetSample;
using tablero::chess::Position;

std::string IncludeText(const ChessNet& net) {
  std::string out =
      "// Written by train_net (benchmarks/bot/train_net.cc): the chess network the bot "
      "ships.\n";
  int column = 0;
  auto put = [&](int64_t v) {
    absl::StrAppend(&out, v, ",");
    if (++column % 32 == 0) out += "\n";
  };
  for (const auto& row : net.w1)
    for (int16_t v : row) put(v);
  for (int16_t v : net.b1) put(v);
  for (const auto& row : net.w2)
    for (int16_t v : row) put(v);
  put(net.b2);
  out += "\n";
  return out;
}

bool WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
  return bool(f);
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  const std::string holdout_file = absl::GetFlag(FLAGS_holdout_data);
  std::bernoulli_distribution held(holdout_file.empty() ? absl::GetFlag(FLAGS_holdout) : 0.0);
  std::vector<NetSample> train, holdout;
  std::vector<Position> holdout_positions;
  std::vector<std::string> paths =
      absl::StrSplit(absl::GetFlag(FLAGS_data), ',', absl::SkipEmpty());
  if (!holdout_file.empty()) paths.push_back(holdout_file);
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) {
      fprintf(stderr, "cannot read %s\n", path.c_str());
      return 2;
    }
    std::string line;
    size_t skipped = 0;  // lines that are not FEN;score
    while (std::getline(in, line)) {
      std::vector<absl::string_view> parts = absl::StrSplit(line, ';');
      int score;
      if (parts.size() != 2 || !absl::SimpleAtoi(parts[1], &score)) {
        ++skipped;
        continue;
      }
      auto pos = Position::ParseFen(parts[0]);
      if (!pos.ok()) {
        ++skipped;
        continue;
      }
      NetSample s = tablero::bot::MakeNetSample(*pos, tablero::bot::WinProbability(score));
      if (absl::GetFlag(FLAGS_residual))
        s.base_cp = float(tablero::bot::Evaluate(*pos, tablero::bot::TunedChessEvalParams()));
      if (path == holdout_file || held(rng)) {
        holdout.push_back(s);
        holdout_positions.push_back(*pos);
      } else {
        train.push_back(s);
      }
    }
    if (skipped != 0)
      fprintf(stderr, "%s: %zu lines skipped (not FEN;score)\n", path.c_str(), skipped);
  }
  if (train.empty()) {
    fprintf(stderr, "no positions (--data)\n");
    return 2;
  }
  double handcrafted = 0;
  for (size_t i = 0; i < holdout.size(); ++i) {
    const double d = tablero::bot::WinProbability(tablero::bot::Evaluate(
                         holdout_positions[i], tablero::bot::TunedChessEvalParams())) -
                     holdout[i].label;
    handcrafted += d * d;
  }
  printf("%zu positions to train on, %zu held out; the tuned evaluation's loss on those: %.6f\n",
         train.size(), holdout.size(), holdout.empty() ? 0.0 : handcrafted / holdout.size());
  fflush(stdout);

  tablero::bot::FloatChessNet net = tablero::bot::RandomChessNet(absl::GetFlag(FLAGS_seed));
  tablero::bot::NetTrainOptions options;
  options.epochs = absl::GetFlag(FLAGS_epochs);
  options.batch = absl::GetFlag(FLAGS_batch);
  options.rate = absl::GetFlag(FLAGS_rate);
  options.drop_at = absl::GetFlag(FLAGS_drop_at);
  options.drop = absl::GetFlag(FLAGS_drop);
  options.threads = absl::GetFlag(FLAGS_threads);
  options.seed = absl::GetFlag(FLAGS_seed);
  tablero::bot::TrainChessNet(train, options, &net, [&](int epoch, double loss) {
    printf("epoch %d: training loss %.6f, held out %.6f\n", epoch, loss,
           tablero::bot::ChessNetLoss(holdout, net));
    fflush(stdout);
  });

  const auto q = tablero::bot::QuantizeChessNet(net);
  double quantised = 0, apart = 0, worst = 0;
  for (size_t i = 0; i < holdout.size(); ++i) {
    const int v = tablero::bot::EvaluateChessNet(*q, holdout_positions[i]);
    const double d = tablero::bot::WinProbability(v) - holdout[i].label;
    quantised += d * d;
    const double off = std::abs(v - tablero::bot::FloatChessNetEval(net, holdout[i]));
    apart += off;
    worst = std::max(worst, off);
  }
  const double n = std::max<double>(1, holdout.size());
  printf(
      "the shipped integers' loss on the held-out positions: %.6f (%.1f cp from the floats "
      "on average, at most %.0f)\n",
      quantised / n, apart / n, worst);
  if (!absl::GetFlag(FLAGS_out).empty() &&
      !WriteFile(absl::GetFlag(FLAGS_out), tablero::bot::SerializeChessNet(*q))) {
    fprintf(stderr, "cannot write %s\n", absl::GetFlag(FLAGS_out).c_str());
    return 1;
  }
  if (!absl::GetFlag(FLAGS_inc).empty() && !WriteFile(absl::GetFlag(FLAGS_inc), IncludeText(*q))) {
    fprintf(stderr, "cannot write %s\n", absl::GetFlag(FLAGS_inc).c_str());
    return 1;
  }
  return 0;
}
