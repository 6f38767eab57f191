// Static exchange evaluation, for move ordering and pruning in search: the material balance
// (centipawns, from the mover's side) of the capture sequence on a move's destination
// square when both sides always recapture with their least valuable attacker and may stop
// when continuing would lose material. Pins are ignored, as usual for SEE.
#ifndef TABLERO_LIBS_CHESS_SEE_H_
#define TABLERO_LIBS_CHESS_SEE_H_

#include "libs/chess/position.h"

namespace tablero::chess {

inline constexpr int kSeeValue[6] = {100, 320, 330, 500, 900, 20000};

int See(const Position& pos, Move m);

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_SEE_H_
