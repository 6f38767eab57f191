// The 121-hole star: hole indices, neighbours, points, camps and distances, computed once
// at compile time. Internal to the checkers engine and its bot; no text, no game::Game.
//
// Model: cube coordinates (q, r, s), q + r + s = 0; a hole exists where all three are
// <= 4 or all three are >= -4. r grows southwards (row "a", the south tip, has r = 8),
// q grows eastwards along a row. Holes are indexed row by row from the south tip
// (index 0 = a1) to the north tip (index 120 = q1), west to east within a row, so the
// index order is the order of the hole names (see README.md).
#ifndef TABLERO_LIBS_CHECKERS_BOARD_H_
#define TABLERO_LIBS_CHECKERS_BOARD_H_

#include <cstdint>

namespace tablero::checkers {

inline constexpr int kHoles = 121;
inline constexpr int kRows = 17;
inline constexpr int kDirs = 6;
inline constexpr int kPoints = 6;
inline constexpr int kMaxSeats = 6;

// Directions, counter-clockwise from east; the opposite of d is (d + 3) % 6.
inline constexpr int kDq[kDirs] = {1, 1, 0, -1, -1, 0};
inline constexpr int kDr[kDirs] = {0, -1, -1, 0, 1, 1};

// A set of holes as two 64-bit words (bit h of the 128).
struct HoleSet {
  uint64_t w[2] = {0, 0};
  constexpr bool has(int h) const { return (w[h >> 6] >> (h & 63)) & 1; }
  constexpr void set(int h) { w[h >> 6] |= uint64_t{1} << (h & 63); }
  constexpr void clear(int h) { w[h >> 6] &= ~(uint64_t{1} << (h & 63)); }
};

struct Geometry {
  int8_t q[kHoles], r[kHoles];
  int8_t row[kHoles], col[kHoles];  // row 0..16 = a..q (south to north), col 0-based
  uint8_t row_start[kRows], row_len[kRows];
  int8_t nb[kHoles][kDirs];    // neighbour in direction d, -1 off the board
  int8_t point[kHoles];        // 0..5 for a hole of point P0..P5, -1 in the hexagon
  int8_t at[17][17];           // hole at (q + 8, r + 8), -1 if none
  int8_t tip[kPoints];         // the tip hole of each point
  HoleSet point_set[kPoints];  // the 10 holes of each point
  HoleSet camp15[kPoints];     // Japanese camp: the point plus the hexagon edge row next to it
  HoleSet hexagon;             // the 61 central holes
  // Fewest steps from a hole to the nearest hole of a point / of a 15-hole camp.
  uint8_t dist_point[kPoints][kHoles];
  uint8_t dist_camp15[kPoints][kHoles];
};

extern const Geometry kGeo;

// Calls f(hole) for each hole of the set, in index order.
template <class F>
inline void ForEachHole(const HoleSet& set, F&& f) {
  for (int w = 0; w < 2; ++w) {
    for (uint64_t b = set.w[w]; b; b &= b - 1) f(w * 64 + __builtin_ctzll(b));
  }
}

constexpr int Abs(int x) { return x < 0 ? -x : x; }

// Hex distance (fewest steps) between two holes.
inline int HexDistance(int a, int b) {
  int dq = kGeo.q[a] - kGeo.q[b], dr = kGeo.r[a] - kGeo.r[b];
  int ds = -dq - dr;
  int m = Abs(dq) > Abs(dr) ? Abs(dq) : Abs(dr);
  return m > Abs(ds) ? m : Abs(ds);
}

constexpr int Opposite(int point) { return (point + 3) % kPoints; }

// The point each seat starts on, by player count (rules file table); -1 unused.
inline constexpr int8_t kSeatPoint[7][kMaxSeats] = {
    {-1, -1, -1, -1, -1, -1}, {-1, -1, -1, -1, -1, -1}, {0, 3, -1, -1, -1, -1},
    {0, 2, 4, -1, -1, -1},    {0, 1, 3, 4, -1, -1},     {0, 1, 2, 3, 4, -1},
    {0, 1, 2, 3, 4, 5}};

}  // namespace tablero::checkers

#endif  // TABLERO_LIBS_CHECKERS_BOARD_H_
