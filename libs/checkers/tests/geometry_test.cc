// The star: hole counts, names, neighbours, points, camps, opposites, seats per count.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "libs/checkers/board.h"
#include "libs/checkers/movegen.h"
#include "libs/checkers/notation.h"

namespace tablero::checkers {
namespace {

int Count(const HoleSet& s) {
  int n = 0;
  ForEachHole(s, [&](int) { ++n; });
  return n;
}

std::set<std::string> Names(const HoleSet& s) {
  std::set<std::string> out;
  ForEachHole(s, [&](int h) { out.insert(HoleName(h)); });
  return out;
}

TEST(Geometry, HolesHexagonAndPoints) {
  EXPECT_EQ(Count(kGeo.hexagon), 61);
  int in_points = 0;
  for (int p = 0; p < kPoints; ++p) {
    EXPECT_EQ(Count(kGeo.point_set[p]), 10) << "P" << p;
    in_points += Count(kGeo.point_set[p]);
  }
  EXPECT_EQ(61 + in_points, kHoles);
  const int lens[kRows] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
  for (int r = 0; r < kRows; ++r) EXPECT_EQ(kGeo.row_len[r], lens[r]) << "row " << r;
  for (int h = 0; h < kHoles; ++h) {
    EXPECT_EQ(kGeo.q[h] + kGeo.r[h] + (-kGeo.q[h] - kGeo.r[h]), 0);
    EXPECT_EQ(ParseHole(HoleName(h)), h) << HoleName(h);
  }
}

TEST(Geometry, NeighboursAreSymmetricAndCountsMatchTheStar) {
  int degree6 = 0, edges = 0;
  for (int h = 0; h < kHoles; ++h) {
    int deg = 0;
    for (int d = 0; d < kDirs; ++d) {
      int t = kGeo.nb[h][d];
      if (t < 0) continue;
      ++deg;
      EXPECT_EQ(kGeo.nb[t][(d + 3) % 6], h);
      EXPECT_EQ(HexDistance(h, t), 1);
    }
    edges += deg;
    degree6 += deg == 6;
  }
  EXPECT_EQ(edges % 2, 0);
  // The tips have two neighbours.
  for (int p = 0; p < kPoints; ++p) {
    int deg = 0;
    for (int d = 0; d < kDirs; ++d) deg += kGeo.nb[kGeo.tip[p]][d] >= 0;
    EXPECT_EQ(deg, 2);
  }
  EXPECT_EQ(degree6,
            121 - 6 * 7 - 6);  // all but each point's tip and outer sides, and the hexagon corners
  EXPECT_EQ(HoleName(kGeo.tip[0]), "a1");
  EXPECT_EQ(HoleName(kGeo.tip[3]), "q1");
  EXPECT_EQ(HoleName(kGeo.tip[1]), "e1");
  EXPECT_EQ(HoleName(kGeo.tip[5]), "e13");
  EXPECT_EQ(HoleName(kGeo.tip[2]), "m1");
  EXPECT_EQ(HoleName(kGeo.tip[4]), "m13");
  EXPECT_EQ(HexDistance(kGeo.tip[0], kGeo.tip[3]), 16);
}

TEST(Geometry, PointNamesAndOpposites) {
  EXPECT_EQ(Names(kGeo.point_set[0]),
            (std::set<std::string>{"a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4"}));
  EXPECT_EQ(Names(kGeo.point_set[3]),
            (std::set<std::string>{"n1", "n2", "n3", "n4", "o1", "o2", "o3", "p1", "p2", "q1"}));
  EXPECT_EQ(Names(kGeo.point_set[1]),
            (std::set<std::string>{"e1", "e2", "e3", "e4", "f1", "f2", "f3", "g1", "g2", "h1"}));
  EXPECT_EQ(Names(kGeo.point_set[4]), (std::set<std::string>{"m10", "m11", "m12", "m13", "l10",
                                                             "l11", "l12", "k10", "k11", "j10"}));
  for (int p = 0; p < kPoints; ++p) {
    EXPECT_EQ(Opposite(Opposite(p)), p);
    // Opposite points mirror through the centre: (q, r) -> (-q, -r).
    ForEachHole(kGeo.point_set[p], [&](int h) {
      int m = kGeo.at[-kGeo.q[h] + 8][-kGeo.r[h] + 8];
      ASSERT_GE(m, 0);
      EXPECT_TRUE(kGeo.point_set[Opposite(p)].has(m));
    });
  }
}

TEST(Geometry, JapaneseCampsHaveFifteenHoles) {
  for (int p = 0; p < kPoints; ++p) {
    EXPECT_EQ(Count(kGeo.camp15[p]), 15);
    int extra = 0;
    ForEachHole(kGeo.camp15[p], [&](int h) {
      if (!kGeo.point_set[p].has(h)) {
        ++extra;
        EXPECT_TRUE(kGeo.hexagon.has(h));
      }
    });
    EXPECT_EQ(extra, 5);
    EXPECT_TRUE(kGeo.camp15[p].has(kGeo.tip[p]));
  }
  EXPECT_EQ(Names(kGeo.camp15[0]),
            (std::set<std::string>{"a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4", "e5",
                                   "e6", "e7", "e8", "e9"}));
}

TEST(Geometry, CampsByPlayerCount) {
  const std::vector<std::vector<int>> want = {
      {}, {}, {0, 3}, {0, 2, 4}, {0, 1, 3, 4}, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4, 5}};
  for (int n = 2; n <= 6; ++n) {
    Layout s = MakeLayout(n, false);
    uint8_t cell[kHoles];
    StartCells(s, cell);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(s.start[i], want[n][i]);
      EXPECT_EQ(s.goal[i], (want[n][i] + 3) % 6);
      int pieces = 0;
      for (int h = 0; h < kHoles; ++h) pieces += cell[h] == i + 1;
      EXPECT_EQ(pieces, 10);
    }
  }
  for (int n = 2; n <= 3; ++n) {
    Layout s = MakeLayout(n, true);
    uint8_t cell[kHoles];
    StartCells(s, cell);
    for (int i = 0; i < n; ++i) {
      int pieces = 0;
      for (int h = 0; h < kHoles; ++h) pieces += OwnerOf(cell[h]) == i && cell[h] != kEmpty;
      EXPECT_EQ(pieces, 15);
      EXPECT_EQ(cell[kGeo.tip[s.start[i]]], (i + 1) | kKingBit);
    }
  }
  // Japanese closed points: none with 2 players, the other two players' points with 3.
  Layout two = MakeLayout(2, true);
  EXPECT_EQ(Count(two.closed[0]), 0);
  Layout three = MakeLayout(3, true);
  EXPECT_EQ(Count(three.closed[0]), 40);
  EXPECT_FALSE(three.closed[0].has(kGeo.tip[0]));
  EXPECT_FALSE(three.closed[0].has(kGeo.tip[3]));
  EXPECT_TRUE(three.closed[0].has(kGeo.tip[2]));
  EXPECT_TRUE(three.closed[0].has(kGeo.tip[5]));
}

}  // namespace
}  // namespace tablero::checkers
