#include "libs/checkers/board.h"

namespace tablero::checkers {
namespace {

constexpr bool OnBoard(int q, int r) {
  int s = -q - r;
  return (q <= 4 && r <= 4 && s <= 4) || (q >= -4 && r >= -4 && s >= -4);
}

// Which point a hole belongs to, from the coordinate that exceeds 4 in absolute value:
// P0 south (r > 4), P1 south-west (q < -4), P2 north-west (s > 4), P3 north (r < -4),
// P4 north-east (q > 4), P5 south-east (s < -4).
constexpr int PointOf(int q, int r) {
  int s = -q - r;
  if (r > 4) return 0;
  if (q < -4) return 1;
  if (s > 4) return 2;
  if (r < -4) return 3;
  if (q > 4) return 4;
  if (s < -4) return 5;
  return -1;
}

// The 15-hole camp of a point: the side-5 triangle with the point's tip as a corner.
constexpr bool InCamp15(int p, int q, int r) {
  int s = -q - r;
  switch (p) {
    case 0:
      return r >= 4 && q >= -4 && s >= -4;
    case 1:
      return q <= -4 && r <= 4 && s <= 4;
    case 2:
      return s >= 4 && q >= -4 && r >= -4;
    case 3:
      return r <= -4 && q <= 4 && s <= 4;
    case 4:
      return q >= 4 && r >= -4 && s >= -4;
    default:
      return s <= -4 && q <= 4 && r <= 4;
  }
}

constexpr int CubeDistance(int q1, int r1, int q2, int r2) {
  int dq = Abs(q1 - q2), dr = Abs(r1 - r2), ds = Abs((q1 + r1) - (q2 + r2));
  int m = dq > dr ? dq : dr;
  return m > ds ? m : ds;
}

constexpr Geometry MakeGeometry() {
  Geometry g{};
  for (auto& row : g.at)
    for (auto& h : row) h = -1;
  int n = 0;
  for (int row = 0; row < kRows; ++row) {
    int r = 8 - row;
    g.row_start[row] = static_cast<uint8_t>(n);
    int len = 0;
    for (int q = -8; q <= 8; ++q) {
      if (!OnBoard(q, r)) continue;
      g.q[n] = static_cast<int8_t>(q);
      g.r[n] = static_cast<int8_t>(r);
      g.row[n] = static_cast<int8_t>(row);
      g.col[n] = static_cast<int8_t>(len++);
      g.at[q + 8][r + 8] = static_cast<int8_t>(n);
      ++n;
    }
    g.row_len[row] = static_cast<uint8_t>(len);
  }
  for (int h = 0; h < kHoles; ++h) {
    int q = g.q[h], r = g.r[h];
    for (int d = 0; d < kDirs; ++d) {
      int nq = q + kDq[d], nr = r + kDr[d];
      bool in = nq >= -8 && nq <= 8 && nr >= -8 && nr <= 8 && OnBoard(nq, nr);
      g.nb[h][d] = in ? g.at[nq + 8][nr + 8] : static_cast<int8_t>(-1);
    }
    g.point[h] = static_cast<int8_t>(PointOf(q, r));
    if (g.point[h] >= 0) g.point_set[g.point[h]].set(h);
    if (g.point[h] < 0) g.hexagon.set(h);
    for (int p = 0; p < kPoints; ++p)
      if (InCamp15(p, q, r)) g.camp15[p].set(h);
  }
  const int tips[kPoints][2] = {{-4, 8}, {-8, 4}, {-4, -4}, {4, -8}, {8, -4}, {4, 4}};
  for (int p = 0; p < kPoints; ++p) g.tip[p] = g.at[tips[p][0] + 8][tips[p][1] + 8];
  for (int p = 0; p < kPoints; ++p) {
    for (int h = 0; h < kHoles; ++h) {
      int best10 = 99, best15 = 99;
      for (int t = 0; t < kHoles; ++t) {
        const bool in10 = g.point_set[p].has(t), in15 = g.camp15[p].has(t);
        if (!in10 && !in15) continue;  // (keeps the constant evaluation within clang's steps)
        const int d = CubeDistance(g.q[h], g.r[h], g.q[t], g.r[t]);
        if (in10 && d < best10) best10 = d;
        if (in15 && d < best15) best15 = d;
      }
      g.dist_point[p][h] = static_cast<uint8_t>(best10);
      g.dist_camp15[p][h] = static_cast<uint8_t>(best15);
    }
  }
  return g;
}

}  // namespace

constinit const Geometry kGeo = MakeGeometry();

}  // namespace tablero::checkers
