// Board contents, per-game layout and the move generator: the fast core a bot can search
// with (fixed buffers, no allocation, no text).
//
// A move is a (from, to) pair: the rules only care where a piece ends, and the generator
// lists each reachable destination of each piece once. PathTo rebuilds one path (a step,
// or the fewest jumps) when a caller needs to show it; CheckPath validates any path.
#ifndef TABLERO_LIBS_CHECKERS_MOVEGEN_H_
#define TABLERO_LIBS_CHECKERS_MOVEGEN_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "libs/checkers/board.h"

namespace tablero::checkers {

// A hole holds 0 (empty) or seat + 1, with kKingBit set for a Japanese king.
inline constexpr uint8_t kEmpty = 0;
inline constexpr uint8_t kKingBit = 0x80;
inline constexpr uint8_t kSeatMask = 0x0F;

constexpr int OwnerOf(uint8_t cell) { return (cell & kSeatMask) - 1; }
constexpr bool IsKing(uint8_t cell) { return cell & kKingBit; }

// Calls f(hole) for each non-empty hole of `cell` (kHoles bytes), in hole order. The
// board is mostly empty: eight holes are tested at a time.
template <class F>
inline void ForEachPiece(const uint8_t* cell, F&& f) {
  int h = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; h + 8 <= kHoles; h += 8) {
      uint64_t w;
      std::memcpy(&w, cell + h, 8);
      while (w) {
        const int i = std::countr_zero(w) >> 3;
        f(h + i);
        w &= ~(uint64_t{0xFF} << (8 * i));
      }
    }
  }
  for (; h < kHoles; ++h)
    if (cell[h] != kEmpty) f(h);
}

// What stays fixed for a whole game: seat count, rule type, camps, closed holes.
struct Layout {
  int seats = 2;
  bool japanese = false;
  int8_t start[kMaxSeats] = {-1, -1, -1, -1, -1, -1};  // point of each seat's start
  int8_t goal[kMaxSeats] = {-1, -1, -1, -1, -1, -1};   // point opposite the start
  // Japanese: holes where a move of that seat may not end (other players' points).
  HoleSet closed[kMaxSeats];
  int pieces() const { return japanese ? 15 : 10; }
  // The seat's goal holes: the 10-hole point, or the 15-hole camp (Japanese).
  const HoleSet& GoalSet(int seat) const {
    return japanese ? kGeo.camp15[goal[seat]] : kGeo.point_set[goal[seat]];
  }
  const HoleSet& StartSet(int seat) const {
    return japanese ? kGeo.camp15[start[seat]] : kGeo.point_set[start[seat]];
  }
};

// seats 2..6; japanese only with 2..3 seats (the caller checks).
Layout MakeLayout(int seats, bool japanese);

// Fills `cell` with the start position: each seat's start camp full, the king on the tip.
void StartCells(const Layout& layout, uint8_t* cell);

struct Pair {
  uint8_t from, to;
};

inline constexpr int kMaxMoves = 15 * (kHoles - 1);

struct MoveList {
  int size = 0;
  Pair moves[kMaxMoves];
};

// Destinations of the piece on `from` (any owner), each once: steps first, then jump
// landings in breadth-first order. parent (optional, kHoles entries) receives, for each
// jump landing, the hole it was jumped from. Returns the count written to `dest`.
int GenerateFrom(const Layout& layout, const uint8_t* cell, int from, uint8_t* dest,
                 int8_t* parent);

// All moves of `seat`, piece by piece in hole order.
void Generate(const Layout& layout, const uint8_t* cell, int seat, MoveList* list);

// Whether `seat` has any legal move (stops at the first).
bool HasMove(const Layout& layout, const uint8_t* cell, int seat);

// One path for a legal (from, to) pair: {from, to} for a step, else the fewest jumps.
// Returns the number of holes written (0 if `to` is not a destination of `from`).
int PathTo(const Layout& layout, const uint8_t* cell, int from, int to, uint8_t* path);

// The path to `to` from the `parent` array that GenerateFrom(from) filled: a step if `to`
// is next door, else the jump chain. Returns the number of holes written.
int PathFromParents(int from, int to, const int8_t* parent, uint8_t* path);

// Checks that `path` (n >= 2 holes) is a legal move of `seat`. On failure returns false and
// sets *why (hole names are filled in by the caller's namer).
bool CheckPath(const Layout& layout, const uint8_t* cell, int seat, const uint8_t* path, int n,
               std::string* why, std::string (*name)(int));

}  // namespace tablero::checkers

#endif  // TABLERO_LIBS_CHECKERS_MOVEGEN_H_
