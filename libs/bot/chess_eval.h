// Static evaluation of a chess position for the search, in centipawns from the side to
// move's point of view. Tapered between middlegame and endgame by the material left:
// material, piece-square tables, mobility, king safety (attackers on the king zone and the
// pawn shield), pawn structure (doubled, isolated, connected, passed), minor-piece
// outposts, threats (pieces attacked by pawns, heavy pieces by lesser ones), bishop pair,
// rooks on open files, and a mop-up term that drives a lone king to the edge so won
// endings get won.
#ifndef TABLERO_LIBS_BOT_CHESS_EVAL_H_
#define TABLERO_LIBS_BOT_CHESS_EVAL_H_

#include "libs/chess/position.h"

namespace tablero::bot {

// Middlegame values, used by move ordering, SEE and delta pruning.
inline constexpr int kPieceValue[7] = {100, 320, 330, 500, 950, 0, 0};

int Evaluate(const chess::Position& pos);

// Static exchange evaluation: the material balance of the capture sequence on m.to()
// starting with m, both sides recapturing with their least valuable attacker.
int See(const chess::Position& pos, chess::Move m);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_EVAL_H_
