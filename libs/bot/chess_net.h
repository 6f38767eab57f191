// A small neural network that evaluates chess positions (the "efficiently updatable" kind
// engines call NNUE), learnt from Stockfish's evaluations (chess_net_train.h).
//
// Shape: 768 inputs (one per colour, piece type and square: 1 where that piece stands),
// seen from each side: from the side to move's view (its pieces first, the board flipped
// when Black moves) and from the other side's. The same first layer maps each view to
// kChessNetHidden sums (the accumulators); each sum, clipped to 0..1 and squared, feeds one
// output, from the side to move's view first. The output times kChessNetScale is the
// evaluation in centipawns, from the side to move.
//
// Numbers: int16 with the first layer's weights and sums scaled by kChessNetQA (1.0 =
// 255) and the output weights by kChessNetQB (1.0 = 64), as the trainer quantises them; the
// trainer clips weights so that no sum can overflow (chess_net_train.h).
#ifndef TABLERO_LIBS_BOT_CHESS_NET_H_
#define TABLERO_LIBS_BOT_CHESS_NET_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/chess/position.h"

namespace tablero::bot {

inline constexpr int kChessNetInputs = 768;
inline constexpr int kChessNetHidden = 128;
inline constexpr int kChessNetQA = 255;
inline constexpr int kChessNetQB = 64;
inline constexpr int kChessNetScale = 400;

struct ChessNet {
  alignas(64) int16_t w1[kChessNetInputs][kChessNetHidden];
  alignas(64) int16_t b1[kChessNetHidden];
  alignas(64) int16_t w2[2][kChessNetHidden];  // side to move's view, then the other's
  int32_t b2;                                  // scaled by QA * QB
};

// The input of `piece` on `square` seen from `view`'s side (its own pieces 0-383, the
// board flipped for Black).
inline int ChessNetInput(chess::Color view, chess::Piece piece, chess::Square square) {
  const int own = chess::ColorOf(piece) == view ? 0 : 1;
  const int sq = view == chess::kWhite ? square : square ^ 56;
  return (own * 6 + chess::TypeOf(piece)) * 64 + sq;
}

// The first layer's sums of one view.
struct alignas(64) ChessNetAccumulator {
  int16_t v[kChessNetHidden];
};

// The sums of `view` for `pos`, from scratch.
void RefreshChessNetAccumulator(const ChessNet& net, const chess::Position& pos, chess::Color view,
                                ChessNetAccumulator* acc);
// The output for the two views' sums, in centipawns.
int ChessNetOutput(const ChessNet& net, const ChessNetAccumulator& to_move,
                   const ChessNetAccumulator& other);
// Both from scratch: the evaluation of `pos` from the side to move.
int EvaluateChessNet(const ChessNet& net, const chess::Position& pos);

// The accumulators along the line a search is on, updated from the ply before instead of
// computed from scratch (a move changes two to four inputs of each view, a null move none),
// and only when an evaluation needs them. Ply 0 is the root; the position at each ply is one
// move (or a null move) after the position at the ply before.
class ChessNetStack {
 public:
  ChessNetStack(const ChessNet& net, int plies);
  // The search is now at `pos` on `ply` (kept alive by the caller while it is there): what
  // the stack knew of this ply and deeper ones is out of date.
  void Enter(int ply, const chess::Position* pos) {
    pos_[ply] = pos;
    ready_[ply] = false;
  }
  // EvaluateChessNet of the position at `ply`, the same number.
  int Evaluate(int ply);

 private:
  void Update(int ply);  // ply's accumulators from ply - 1's
  const ChessNet& net_;
  std::vector<const chess::Position*> pos_;
  std::vector<char> ready_;
  std::vector<std::array<ChessNetAccumulator, 2>> acc_;  // by ply, then White's, Black's view
};

// The network the bot ships (chess_net.inc, written by train_net), or null if none.
const ChessNet* ShippedChessNet();

// As bytes: the magic "TBNN1", the sizes, then every number little-endian in the struct's
// order. Parse checks the magic, the sizes and the length.
std::string SerializeChessNet(const ChessNet& net);
absl::StatusOr<std::unique_ptr<ChessNet>> ParseChessNet(absl::string_view bytes);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_NET_H_
