// Attack test of the four-player shogi search: the engine's shogi4::Attacked (the one
// definition of an attack) answered from a position's occupancy sets, so that the slider
// rays are looked at only where a piece of the attacking seats stands on them. Exactly
// Attacked(pos.board, sq, by) for any position whose `pieces` sets match its board
// (bot_lib_test compares the two on random playouts).
#ifndef TABLERO_LIBS_BOT_SHOGI4_ATTACKS_H_
#define TABLERO_LIBS_BOT_SHOGI4_ATTACKS_H_

#include "libs/shogi4/position.h"
#include "libs/shogi4/tables.h"

namespace tablero::bot {

// The squares from each square towards north, east, south and west (directions 0, 2, 4,
// 6 of the engine), the square itself excluded.
struct Shogi4Rays {
  shogi4::Squares ray[shogi4::kSquares][4];
};
const Shogi4Rays* BuildShogi4Rays();
// Inline: every attack test reads it (a call per test cost 2% of the search).
inline const Shogi4Rays& Shogi4RayTable() {
  static const Shogi4Rays* const table = BuildShogi4Rays();
  return *table;
}

inline int HighestSquare(shogi4::Squares b) {
  const uint64_t hi = uint64_t(b >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(uint64_t(b));
}
inline int LowestSquare(shogi4::Squares b) {
  const uint64_t lo = uint64_t(b);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(uint64_t(b >> 64));
}

// Is `sq` attacked by a piece whose owner is in `by` (bit per seat)?
inline bool Shogi4Attacked(const shogi4::Position& pos, int sq, unsigned by) {
  namespace s4 = shogi4;
  const s4::Tables& t = s4::Tab();
  for (int d = 0; d < 8; ++d) {
    const int n = t.next[sq][d];
    if (n == s4::kNoSquare) continue;
    const s4::Cell c = pos.board[n];
    if (c == 0 || !((by >> s4::OwnerOf(c)) & 1)) continue;
    if ((t.steps[s4::TypeOf(c)][s4::FacingOf(c)] >> ((d + 4) & 7)) & 1) return true;
  }
  s4::Squares attackers = 0, occupied = pos.pieces[s4::kOwnerless];
  for (int o = 0; o < s4::kSeats; ++o) {
    occupied |= pos.pieces[o];
    if ((by >> o) & 1) attackers |= pos.pieces[o];
  }
  const Shogi4Rays& r = Shogi4RayTable();
  for (int i = 0; i < 4; ++i) {
    const s4::Squares ray = r.ray[sq][i];
    if (!(attackers & ray)) continue;
    // North and west run to lower square numbers: the nearest piece is the highest.
    const int n = i == 0 || i == 3 ? HighestSquare(occupied & ray) : LowestSquare(occupied & ray);
    const s4::Cell c = pos.board[n];
    if (s4::Slides(s4::TypeOf(c)) && ((by >> s4::OwnerOf(c)) & 1)) return true;
  }
  return false;
}

inline bool Shogi4InCheck(const shogi4::Position& pos, int seat) {
  return Shogi4Attacked(pos, pos.king[seat], pos.Enemies(seat));
}

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_SHOGI4_ATTACKS_H_
