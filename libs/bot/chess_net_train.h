// Training the chess network (chess_net.h) on labelled positions: the same "FEN;score"
// files the evaluation's tuner reads (benchmarks/bot/tune_data.sh), the label Stockfish's
// evaluation turned into an expected score (chess_tune.h's WinProbability). Minimises the
// mean squared difference between that and the network's, by Adam on minibatches, in
// floating point; then rounds the weights to the shipped integers (QuantizeChessNet).
// benchmarks/bot/train_net.cc runs it.
#ifndef TABLERO_LIBS_BOT_CHESS_NET_TRAIN_H_
#define TABLERO_LIBS_BOT_CHESS_NET_TRAIN_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "libs/bot/chess_net.h"
#include "libs/chess/position.h"

namespace tablero::bot {

// A position as the network's inputs from both views, and its label.
struct NetSample {
  uint8_t count = 0;     // pieces on the board (at most 32 are used)
  uint16_t to_move[32];  // inputs seen from the side to move
  uint16_t other[32];    // from the other side
  float label = 0.5f;    // expected score of the side to move, 0..1
  float base_cp = 0;     // an evaluation the network's output is added to (0: none)
};
NetSample MakeNetSample(const chess::Position& pos, double label);

// The network in floating point, as it learns: the first layer's weights and sums in units
// (kChessNetQA in the shipped integers), the output weights too (kChessNetQB).
// While learning, an input's first-layer row is its own weights plus a row it shares with
// every input of the same piece (own or other side's, piece type) on any square: what a
// piece is worth anywhere is learnt from every position that has one, the rows of rare
// squares only add what is particular to them. Quantising adds the two.
struct FloatChessNet {
  std::vector<float> w1 = std::vector<float>(kChessNetInputs * kChessNetHidden);
  std::vector<float> shared = std::vector<float>(12 * kChessNetHidden);
  std::vector<float> b1 = std::vector<float>(kChessNetHidden);
  std::vector<float> w2 = std::vector<float>(2 * kChessNetHidden);
  float b2 = 0;
};
// Small random weights (a fixed generator on `seed`).
FloatChessNet RandomChessNet(uint64_t seed);

// The weights stay within these, so the shipped integers cannot overflow: a view's sum is
// its bias and at most 32 first-layer rows, each at most 2 * kW1Clip * QA (33 * 3.8 * 255 <
// 32767), and an output weight at most 127 in 16 bits (ChessNetOutput's bound).
inline constexpr float kNetW1Clip = 1.9f;
inline constexpr float kNetW2Clip = 127.0f / kChessNetQB;

// The network's evaluation of a sample, in centipawns (floating point: before rounding).
double FloatChessNetEval(const FloatChessNet& net, const NetSample& s);
// Mean of (WinProbability(eval) - label)^2.
double ChessNetLoss(const std::vector<NetSample>& samples, const FloatChessNet& net);

struct NetTrainOptions {
  int epochs = 16;
  int batch = 16384;
  double rate = 0.002;    // Adam's step
  double drop_at = 0.75;  // after this share of the epochs ...
  double drop = 0.1;      // ... the step is multiplied by this
  int threads = 2;        // a batch's gradient is summed over this many threads
  uint64_t seed = 1;      // the order the samples are visited in
};
// Trains `net` in place; `progress` (if set) hears each epoch's mean training loss.
void TrainChessNet(const std::vector<NetSample>& samples, const NetTrainOptions& options,
                   FloatChessNet* net,
                   const std::function<void(int epoch, double loss)>& progress = {});

// The shipped integers, rounded from the floats.
std::unique_ptr<ChessNet> QuantizeChessNet(const FloatChessNet& net);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_NET_TRAIN_H_
