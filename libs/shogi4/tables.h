// Precomputed geometry of the 9x9 board for four facings, and Zobrist keys.
#ifndef TABLERO_LIBS_SHOGI4_TABLES_H_
#define TABLERO_LIBS_SHOGI4_TABLES_H_

#include <cstdint>

#include "libs/shogi4/types.h"

namespace tablero::shogi4 {

struct Tables {
  // Neighbour of a square in each of the 8 directions, kNoSquare off the board.
  uint8_t next[kSquares][8];
  // Step directions (bit d = direction d) of each piece type and facing. Rook and dragon
  // slide orthogonally in addition (see kSlides).
  uint8_t steps[kPieceTypes][4];
  // Promotion zone (three farthest ranks) and last rank, by facing.
  bool zone[4][kSquares];
  bool last[4][kSquares];
  // Line "file" of a square for a pawn of facing f (nifu): column for facings 0/2, rank
  // for facings 1/3.
  uint8_t line[4][kSquares];
  // Zobrist keys: board cell (type + 9 * (owner + 5 * facing)), hand counts, alive set,
  // seat to move.
  uint64_t cell[kSquares][180];
  uint64_t hand[kSeats][kHandTypes][82];
  uint64_t alive[16];
  uint64_t to_move[kSeats];
};

// Built on first use (safe from static-initialisation order); hot code takes a local
// reference once. Inline: a decode places every piece with a lookup.
const Tables* BuildTables();
inline const Tables& Tab() {
  static const Tables* const t = BuildTables();
  return *t;
}

inline constexpr bool Slides(int type) { return type == kRook || type == kDragon; }

inline int CellIndex(Cell c) { return TypeOf(c) + 9 * (OwnerOf(c) + 5 * FacingOf(c)); }

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_TABLES_H_
