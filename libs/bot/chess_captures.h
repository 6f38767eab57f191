// Pseudo-legal captures and queen promotions for the quiescence search, which needs only
// these and most of whose nodes never reach a move at all: cheaper than the full legal
// generator. The caller filters with SEE first and checks legality (LeavesKingSafe) only
// for the moves it actually plays.
#ifndef TABLERO_LIBS_BOT_CHESS_CAPTURES_H_
#define TABLERO_LIBS_BOT_CHESS_CAPTURES_H_

#include "libs/chess/position.h"

namespace tablero::bot {

// Writes captures (en passant included) and queen promotions of the side to move to out
// (room for chess::kMaxMoves) and returns their number. Only for a side not in check.
int GenerateCaptures(const chess::Position& pos, chess::Move* out);

// After `us` moved to reach `next`: is us's king safe?
inline bool LeavesKingSafe(const chess::Position& next, chess::Color us) {
  return !(next.AttackersTo(next.king_square(us), next.pieces()) & next.pieces(~us));
}

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_CAPTURES_H_
