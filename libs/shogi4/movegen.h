// Legal move generation (position-only rules: everything except the repetition rule,
// which needs the game history and lives in the game adapter).
#ifndef TABLERO_LIBS_SHOGI4_MOVEGEN_H_
#define TABLERO_LIBS_SHOGI4_MOVEGEN_H_

#include <cstdint>

#include "libs/shogi4/position.h"

namespace tablero::shogi4 {

// All legal moves of `seat` (normally pos.to_move) appended to `out`: board moves, then
// drops. A move that may promote or not appears twice.
void GenerateLegal(const Position& pos, int seat, MoveList* out);
// The legal moves of `seat` that capture (for a quiescence search): exactly those of
// GenerateLegal that take a piece, in the same order, without trying quiet moves or drops.
void GenerateCaptures(const Position& pos, int seat, MoveList* out);
// Number of legal moves (same as GenerateLegal's count, without storing them).
int CountLegal(const Position& pos, int seat);
// Does `seat` have any legal move? With pawn_drop_mate = false the pawn-drop-mate rule is
// not applied: that is how the rule itself asks whether a king's owner could answer (one
// level deep, so the test never recurses).
bool HasLegalMove(const Position& pos, int seat, bool pawn_drop_mate = true);
bool IsLegal(const Position& pos, Move m);
// The same for a caller that knows whether the seat is in check (`in_check` must be
// InCheck(pos, seat), resp. of pos.to_move): the search does not find it out again.
bool HasLegalMove(const Position& pos, int seat, bool pawn_drop_mate, bool in_check);
bool IsLegal(const Position& pos, Move m, bool in_check);

// Leaves of the legal move tree (position only; a repetition needs at least 12 plies).
uint64_t Perft(const Position& pos, int depth);

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_MOVEGEN_H_
