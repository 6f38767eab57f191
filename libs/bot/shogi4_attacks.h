// Attack test of the four-player shogi search: the engine's shogi4::Attacked (the one
// definition of an attack) answered from a position's occupancy sets, so that the slider
// rays are looked at only where a piece of the attacking seats stands on them. Exactly
// Attacked(pos.board, sq, by) for any position whose `pieces` sets match its board
// (bot_lib_test compares the two on random playouts).
#ifndef TABLERO_LIBS_BOT_SHOGI4_ATTACKS_H_
#define TABLERO_LIBS_BOT_SHOGI4_ATTACKS_H_

#include <array>
#include <cstring>

#include "libs/shogi4/position.h"
#include "libs/shogi4/tables.h"

namespace tablero::bot {

// shogi4::SquareBit from a table (a load instead of a 128-bit shift: the search makes
// millions of them).
inline constexpr auto kShogi4Bits = [] {
  std::array<shogi4::Squares, 128> bits{};
  for (int sq = 0; sq < 128; ++sq) bits[sq] = shogi4::SquareBit(sq);
  return bits;
}();
inline shogi4::Squares Shogi4Bit(int sq) { return kShogi4Bits[sq]; }

// The squares from each square towards north, east, south and west (directions 0, 2, 4,
// 6 of the engine), the square itself excluded.
struct Shogi4Rays {
  shogi4::Squares ray[shogi4::kSquares][4];
  shogi4::Squares cross[shogi4::kSquares];     // the four rays together
  shogi4::Squares adjacent[shogi4::kSquares];  // the squares one king step away
  // The squares a piece of each type and facing steps to from each square.
  shogi4::Squares step[shogi4::kPieceTypes][4][shogi4::kSquares];
  uint8_t dirs[shogi4::kSquares];  // bit d: the square has a neighbour in direction d
};
const Shogi4Rays* BuildShogi4Rays();
// Inline: every attack test reads it (a call per test cost 2% of the search).
inline const Shogi4Rays& Shogi4RayTable() {
  static const Shogi4Rays* const table = BuildShogi4Rays();
  return *table;
}

// The squares of a set, lowest first, as a range: one 64-bit half after the other
// (cheaper than popping squares off the 128-bit set).
class Shogi4SquaresOf {
 public:
  explicit Shogi4SquaresOf(shogi4::Squares b) {
    const uint64_t lo = uint64_t(b), hi = uint64_t(b >> 64);
    first_ = lo != 0 ? Iter{lo, hi, 0} : Iter{hi, 0, 64};
  }
  struct Iter {
    uint64_t word, next;  // the half being read, and the high half after the low one
    int base;
    int operator*() const { return base + __builtin_ctzll(word); }
    Iter& operator++() {
      word &= word - 1;
      if (word == 0) word = next, next = 0, base = 64;
      return *this;
    }
    bool operator!=(const Iter&) const { return word != 0; }
  };
  Iter begin() const { return first_; }
  Iter end() const { return first_; }

 private:
  Iter first_;
};

inline int HighestSquare(shogi4::Squares b) {
  const uint64_t hi = uint64_t(b >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(uint64_t(b));
}
inline int LowestSquare(shogi4::Squares b) {
  const uint64_t lo = uint64_t(b);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(uint64_t(b >> 64));
}

// The square of `on_ray` (not empty: pieces on ray `i` of some square of Shogi4Rays) nearest
// to that square: north and west run to lower square numbers, so there it is the highest.
inline int Shogi4Nearest(shogi4::Squares on_ray, int i) {
  return i == 0 || i == 3 ? HighestSquare(on_ray) : LowestSquare(on_ray);
}

inline constexpr int kShogi4MarkSquares = 96;  // the squares, padded to whole vectors

// The squares within one and two king steps of each square (itself included), the king
// steps between two squares, and the kings' marks.
struct Shogi4Near {
  shogi4::Squares area[2][shogi4::kSquares];  // [r - 1]: within r steps
  uint8_t distance[shogi4::kSquares][shogi4::kSquares];
  // [k][sq], for a king on k: bit 0: sq is within one king step (k itself included); bit 4:
  // within two; bit 8: sq shares a rank or file with k (and differs), so that an orthogonal
  // slider on sq may attack k. Rows padded to kShogi4MarkSquares (zero beyond the board).
  alignas(16) uint16_t marks[shogi4::kSquares][kShogi4MarkSquares];
};
const Shogi4Near* BuildShogi4Near();
inline const Shogi4Near& Shogi4NearTable() {
  static const Shogi4Near* const table = BuildShogi4Near();
  return *table;
}

// The kings' marks of a position (Shogi4Node::kings): per square, Shogi4Near::marks of
// each seat's king shifted by the seat (bits s, 4 + s, 8 + s), every seat's king counted
// (a mated seat's flipped king included). Only a king's move changes them.
//
// Sets seat `s`'s bits for its king on `k`, the other seats' bits kept.
// Eight squares at a time (GCC's and Clang's vector extension).
inline void Shogi4MarkKing(uint16_t* marks, int s, int k) {
  typedef uint16_t Lanes __attribute__((vector_size(16)));
  const uint16_t* row = Shogi4NearTable().marks[k];
  const uint16_t k16 = static_cast<uint16_t>(~(0x111u << s));
  const Lanes keep = {k16, k16, k16, k16, k16, k16, k16, k16};
  for (int sq = 0; sq < kShogi4MarkSquares; sq += 8) {
    Lanes m, r;
    std::memcpy(&m, marks + sq, sizeof m);
    std::memcpy(&r, row + sq, sizeof r);
    m = (m & keep) | (r << s);
    std::memcpy(marks + sq, &m, sizeof m);
  }
}
inline void Shogi4KingMarksOf(const shogi4::Position& pos, uint16_t* marks) {
  for (int sq = 0; sq < kShogi4MarkSquares; ++sq) marks[sq] = 0;
  for (int s = 0; s < shogi4::kSeats; ++s) Shogi4MarkKing(marks, s, pos.king[s]);
}

inline int Shogi4Popcount(shogi4::Squares b) {
  return __builtin_popcountll(uint64_t(b)) + __builtin_popcountll(uint64_t(b >> 64));
}

// The squares of all pieces (ownerless ones included), and those of the seats in `by`.
inline shogi4::Squares Shogi4Occupied(const shogi4::Position& pos) {
  shogi4::Squares b = 0;
  for (shogi4::Squares p : pos.pieces) b |= p;
  return b;
}
inline shogi4::Squares Shogi4PiecesOf(const shogi4::Position& pos, unsigned by) {
  shogi4::Squares b = 0;
  for (int o = 0; o < shogi4::kSeats; ++o)
    if ((by >> o) & 1) b |= pos.pieces[o];
  return b;
}

// The squares within one king step of a square of `b`, those of `b` included.
inline shogi4::Squares Shogi4Dilate(shogi4::Squares b) {
  namespace s4 = shogi4;
  static constexpr s4::Squares kCol0 = [] {
    s4::Squares c = 0;
    for (int r = 0; r < 9; ++r) c |= s4::SquareBit(s4::MakeSquare(r, 0));
    return c;
  }();
  constexpr s4::Squares kCol8 = kCol0 << 8;
  const s4::Squares row = b | ((b & ~kCol8) << 1) | ((b & ~kCol0) >> 1);
  return (row | (row << 9) | (row >> 9)) & s4::kAllSquares;
}

// The squares of the sliding pieces (rooks and dragons) of every owner.
shogi4::Squares Shogi4Sliders(const shogi4::Position& pos);

// The direction (the engine's numbering) from `sq` to its neighbour `n`.
inline int Shogi4StepDirection(int sq, int n) {
  static constexpr int8_t kDir[21] = {7, 0,  1,  -1, -1, -1, -1, -1, -1, 6, -1,
                                      2, -1, -1, -1, -1, -1, -1, 5,  4,  3};
  return kDir[n - sq + 10];
}

// Is `sq` attacked by a piece on `attackers`, with `occupied` the squares that block? The
// board gives the type and facing of each attacker (`attackers` within `occupied`). With
// the sets a move will leave (its from-square empty, its to-square taken, a captured
// piece no longer an attacker) it answers for the position after the move, unmade.
inline bool Shogi4AttackedFrom(const shogi4::Cell* board, int sq, shogi4::Squares attackers,
                               shogi4::Squares occupied) {
  namespace s4 = shogi4;
  const Shogi4Rays& r = Shogi4RayTable();
  for (const int n : Shogi4SquaresOf(attackers & r.adjacent[sq])) {
    const s4::Cell c = board[n];
    // The piece on n steps back towards sq: the opposite of the direction sq -> n.
    if ((s4::Tab().steps[s4::TypeOf(c)][s4::FacingOf(c)] >>
         ((Shogi4StepDirection(sq, n) + 4) & 7)) &
        1)
      return true;
  }
  if (!(attackers & r.cross[sq])) return false;
  for (int i = 0; i < 4; ++i) {
    const s4::Squares ray = r.ray[sq][i];
    if (!(attackers & ray)) continue;
    const int n = Shogi4Nearest(occupied & ray, i);
    if (((attackers >> n) & 1) && s4::Slides(s4::TypeOf(board[n]))) return true;
  }
  return false;
}

// Is `sq` attacked by a piece whose owner is in `by` (bit per seat)?
inline bool Shogi4Attacked(const shogi4::Position& pos, int sq, unsigned by) {
  return Shogi4AttackedFrom(pos.board, sq, Shogi4PiecesOf(pos, by), Shogi4Occupied(pos));
}

inline bool Shogi4InCheck(const shogi4::Position& pos, int seat) {
  return Shogi4Attacked(pos, pos.king[seat], pos.Enemies(seat));
}

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_SHOGI4_ATTACKS_H_
