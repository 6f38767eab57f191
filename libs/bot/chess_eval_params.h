// The chess evaluation's weights as one table: every term of chess_eval.cc is a
// (middlegame, endgame) pair at an index below, so a tuner can change them all as one vector
// (benchmarks/bot/tune_eval.cc). Two tables ship: the handcrafted one (built from a few
// simple ideas, the evaluation before tuning) and the tuned one the bot plays with.
#ifndef TABLERO_LIBS_BOT_CHESS_EVAL_PARAMS_H_
#define TABLERO_LIBS_BOT_CHESS_EVAL_PARAMS_H_

#include <array>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tablero::bot {

// A (middlegame, endgame) pair; the evaluation interpolates by game phase.
struct EvalScore {
  int mg = 0, eg = 0;
  EvalScore& operator+=(EvalScore o) {
    mg += o.mg;
    eg += o.eg;
    return *this;
  }
  EvalScore& operator-=(EvalScore o) {
    mg -= o.mg;
    eg -= o.eg;
    return *this;
  }
  friend EvalScore operator*(EvalScore s, int k) { return EvalScore{s.mg * k, s.eg * k}; }
  friend bool operator==(EvalScore a, EvalScore b) { return a.mg == b.mg && a.eg == b.eg; }
};

// Where each term's weights start in the table (piece types in the engine's order: pawn,
// knight, bishop, rook, queen, king; squares from White's side, a1 = 0).
namespace eval_index {
inline constexpr int kMaterial = 0;                 // 6, by piece type
inline constexpr int kPst = kMaterial + 6;          // 6 x 64, by piece type then square
inline constexpr int kMobility = kPst + 6 * 64;     // 6, per attacked square over a base
inline constexpr int kPassed = kMobility + 6;       // 8, by relative rank
inline constexpr int kPassedBlocked = kPassed + 8;  // 8, the same with its path blocked
// Per relative rank times (their king's - our king's distance to the stop square), halved.
inline constexpr int kKingPasser = kPassedBlocked + 8;
inline constexpr int kDoubled = kKingPasser + 1;
inline constexpr int kIsolated = kDoubled + 1;
inline constexpr int kConnected = kIsolated + 1;  // per relative rank
inline constexpr int kBishopPair = kConnected + 1;
inline constexpr int kRookOpen = kBishopPair + 1;
inline constexpr int kRookSemiOpen = kRookOpen + 1;
inline constexpr int kThreatByPawn = kRookSemiOpen + 1;   // a piece attacked by a pawn
inline constexpr int kThreatByMinor = kThreatByPawn + 1;  // a rook or queen by a minor
inline constexpr int kThreatByRook = kThreatByMinor + 1;  // a queen by a rook
inline constexpr int kOutpost = kThreatByRook + 1;        // 2: knight, bishop
inline constexpr int kShieldMissing = kOutpost + 2;       // per file by the king without a pawn
inline constexpr int kShieldNear = kShieldMissing + 1;    // a pawn one rank in front
inline constexpr int kShieldFar = kShieldNear + 1;        // a pawn two ranks in front
inline constexpr int kTempo = kShieldFar + 1;             // for the side to move
// Mobility by count of the squares a piece reaches (as for kMobility), on top of its
// slope: knight 0-8, bishop 0-13, rook 0-14, queen 0-27.
inline constexpr int kMobilityCount = kTempo + 1;
inline constexpr int kMobilityCountAt[6] = {0, 0, 9, 23, 38, 0};  // by piece type
inline constexpr int kMobilityCountSize[6] = {0, 9, 14, 15, 28, 0};
inline constexpr int kKingZoneAttack = kMobilityCount + 66;  // 4: knight..queen, per zone square
inline constexpr int kSafeCheck = kKingZoneAttack + 4;  // 4: squares to check from, not attacked
inline constexpr int kHanging = kSafeCheck + 4;         // a piece attacked and not defended
inline constexpr int kPassedFree = kHanging + 1;        // 8: by rank, stop square empty and safe
inline constexpr int kBadBishop = kPassedFree + 8;      // per own pawn on the bishop's colour
inline constexpr int kKingAttackers = kBadBishop + 1;   // 4: 1, 2, 3, 4+ pieces on their zone
inline constexpr int kWeakKingSquares = kKingAttackers + 4;   // beside our king, theirs to take
inline constexpr int kPawnPushThreat = kWeakKingSquares + 1;  // pieces a safe push would hit
inline constexpr int kBackward = kPawnPushThreat + 1;
inline constexpr int kKingPawnDistance = kBackward + 1;  // our king to our nearest pawn
inline constexpr int kSpace = kKingPawnDistance + 1;     // safe centre squares behind our pawns
inline constexpr int kCount = kSpace + 1;
}  // namespace eval_index

struct ChessEvalParams {
  std::array<EvalScore, eval_index::kCount> w{};
  const EvalScore& operator[](int i) const { return w[i]; }
  EvalScore& operator[](int i) { return w[i]; }
};

const ChessEvalParams& HandcraftedChessEvalParams();
// The table the bot plays with (chess_eval_tuned.inc, written by tune_eval).
const ChessEvalParams& TunedChessEvalParams();

// A readable name per index ("pst.knight.e4", "passed.6", "tempo").
std::string ChessEvalParamName(int index);
// One "name mg eg" line per weight, in index order.
std::string FormatChessEvalParams(const ChessEvalParams& params);
// The inverse; every weight must be given exactly once.
absl::StatusOr<ChessEvalParams> ParseChessEvalParams(absl::string_view text);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_EVAL_PARAMS_H_
