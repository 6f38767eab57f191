// Static evaluation of a chess position for the search, in centipawns from the side to
// move's point of view. Tapered between middlegame and endgame by the material left:
// material, piece-square tables, mobility (a slope and a value per count of squares reached),
// king safety (attacks on the king zone by piece type and by count of attackers, safe
// checks, weak squares beside the king, the pawn shield), pawn structure (doubled,
// isolated, backward, connected, passed, free to advance; the king near its pawns), space,
// minor-piece outposts, bad bishops, threats (pieces attacked by pawns or by a safe pawn
// push, heavy pieces by lesser ones, pieces attacked and undefended), bishop pair, rooks on
// open files, and a mop-up term that drives a lone king to the edge so won endings get won.
// The weights are one table (chess_eval_params.h).
#ifndef TABLERO_LIBS_BOT_CHESS_EVAL_H_
#define TABLERO_LIBS_BOT_CHESS_EVAL_H_

#include <array>

#include "libs/bot/chess_eval_params.h"
#include "libs/bot/chess_net.h"
#include "libs/chess/position.h"

namespace tablero::bot {

// Middlegame values, used by move ordering, SEE and delta pruning.
inline constexpr int kPieceValue[7] = {100, 320, 330, 500, 950, 0, 0};

// With what this thread evaluates by: the network the bot ships (chess_net.h) unless a
// ScopedChessNet says otherwise, else the weights table (the tuned one unless a
// ScopedChessEvalParams says otherwise).
int Evaluate(const chess::Position& pos);
// The network's evaluation (null: the thread's table's), but where a side has only its
// king left: there the table's mop-up term, which drives that king to the edge so the
// ending gets won (the network never saw such positions: its data stops at 20 pawns).
int Evaluate(const chess::Position& pos, const ChessNet* net);
// Whether a network evaluates `pos` (as above: not with a lone king).
bool ChessNetApplies(const chess::Position& pos);
int Evaluate(const chess::Position& pos, const ChessEvalParams& params);

// The evaluation is linear in the weights but for a few terms (king danger, mop-up, the
// scaling of pawnless endings): what it used of each weight, for the tuner.
struct ChessEvalTrace {
  std::array<float, eval_index::kCount> uses{};  // White's uses minus Black's; tempo: 0
  int phase = 0;                                 // 24 (all pieces) .. 0 (none)
  int king_danger_mg = 0;                        // White's minus Black's, in the middlegame score
  int mop_up = 0;                                // from White's side, after tapering
  bool scaled_down = false;  // a pawnless edge of less than a rook, divided by 8
  bool white_to_move = true;
};
int Evaluate(const chess::Position& pos, const ChessEvalParams& params, ChessEvalTrace* trace);
// The evaluation from a trace with real-valued weights (mg, eg of weight i at 2i, 2i+1);
// equals Evaluate up to rounding. `gradient`, if given, gets d(eval)/d(weight) added.
double TracedEval(const ChessEvalTrace& trace, const double* weights, double* gradient = nullptr);

// While alive, Evaluate(pos) on this thread uses `params` (match_runner's A/B of tables).
class ScopedChessEvalParams {
 public:
  explicit ScopedChessEvalParams(const ChessEvalParams& params);
  ~ScopedChessEvalParams();
  ScopedChessEvalParams(const ScopedChessEvalParams&) = delete;
  ScopedChessEvalParams& operator=(const ScopedChessEvalParams&) = delete;

 private:
  const ChessEvalParams* previous_;
};

// The network Evaluate(pos) uses on this thread (null: the weights table).
const ChessNet* ActiveChessNet();
// While alive, Evaluate(pos) on this thread uses the network `net`, or the weights table if
// null (the lower levels, match_runner's A/B of networks).
class ScopedChessNet {
 public:
  explicit ScopedChessNet(const ChessNet* net);
  ~ScopedChessNet();
  ScopedChessNet(const ScopedChessNet&) = delete;
  ScopedChessNet& operator=(const ScopedChessNet&) = delete;

 private:
  const ChessNet* previous_;
  bool previous_set_;
};

// Static exchange evaluation: the material balance of the capture sequence on m.to()
// starting with m, both sides recapturing with their least valuable attacker.
int See(const chess::Position& pos, chess::Move m);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_EVAL_H_
