// Tuning the chess evaluation's weights on labelled positions (Texel's method): minimise the
// mean squared difference between the win probability the evaluation implies and the
// position's label, by gradient descent (Adam) on the evaluation's linear part
// (chess_eval.h's trace). benchmarks/bot/tune_eval.cc runs it on generated data.
#ifndef TABLERO_LIBS_BOT_CHESS_TUNE_H_
#define TABLERO_LIBS_BOT_CHESS_TUNE_H_

#include <functional>
#include <vector>

#include "libs/bot/chess_eval.h"
#include "libs/chess/position.h"

namespace tablero::bot {

// The expected score of the side to move for an evaluation in centipawns (a logistic curve
// on which 400 centipawns is 10 to 1).
double WinProbability(double eval_cp);

struct TuneSample {
  ChessEvalTrace trace;
  double label = 0.5;  // the expected score of the side to move, 0..1
};
TuneSample MakeTuneSample(const chess::Position& pos, double label);

// Weights as reals: mg, eg of weight i at 2i, 2i+1 (TracedEval's layout); and back, rounded.
std::vector<double> WeightsOf(const ChessEvalParams& params);
ChessEvalParams ParamsOf(const std::vector<double>& weights);

// Mean of (WinProbability(eval) - label)^2 over the samples.
double TuneLoss(const std::vector<TuneSample>& samples, const std::vector<double>& weights);

struct TuneOptions {
  int epochs = 400;
  double step = 1.0;  // Adam's step, in centipawns
  // Pull toward the starting weights (per weight, times the squared distance in pawns):
  // keeps weights the data hardly sees (rare piece-square entries) near their start.
  double pull = 1e-4;
  // Tie each piece-square weight to its mirror image across the d/e file line (they move by
  // the same steps): half the free weights, so the data fits them with less noise.
  bool mirror_pst = true;
  // Table indices (eval_index) left as they start.
  std::vector<int> frozen;
};
// Full-batch gradient descent from `weights`; `progress` (if set) hears each epoch's loss.
std::vector<double> TuneWeights(const std::vector<TuneSample>& samples, std::vector<double> weights,
                                const TuneOptions& options,
                                const std::function<void(int epoch, double loss)>& progress = {});

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_TUNE_H_
