// The terminal drawings of the three games, from hand-made PublicViews.
#include "tools/tablero/board.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace tablero::cli {
namespace {

namespace v1 = ::tablero::v1;

void Add(v1::PublicView* v, const std::string& sq, const std::string& type, int owner,
         int facing = -1) {
  auto* p = v->add_pieces();
  p->set_square(sq);
  p->set_type(type);
  p->set_owner(owner);
  p->set_facing(facing);
}

TEST(Board, ChessFromEachSide) {
  v1::PublicView v;
  Add(&v, "e1", "K", 0);
  Add(&v, "e8", "K", 1);
  Add(&v, "a2", "P", 0);
  std::string white = DrawBoard(v1::GAME_KIND_CHESS, v, 0);
  EXPECT_NE(white.find(" 8  . . . . k . . .  8\n"), std::string::npos) << white;
  EXPECT_NE(white.find(" 2  P . . . . . . .  2\n"), std::string::npos) << white;
  EXPECT_EQ(white.rfind("    a b c d e f g h\n"), white.size() - 20);
  std::string black = DrawBoard(v1::GAME_KIND_CHESS, v, 1);
  EXPECT_NE(black.find(" 2  . . . . . . . P  2\n"), std::string::npos) << black;
  EXPECT_LT(black.find(" 1  "), black.find(" 8  ")) << black;  // rank 1 on top for Black
}

TEST(Board, Shogi4ShowsOwnerFacingAndHands) {
  v1::PublicView v;
  Add(&v, "5i", "K", 0, 0);
  Add(&v, "1e", "K", 3, 3);
  Add(&v, "9e", "+R", 1, 2);  // taken over: owned by seat 1, still facing south
  auto* h = v.add_hands();
  h->set_seat(0);
  auto* hp = h->add_pieces();
  hp->set_piece("P");
  hp->set_count(2);
  std::string s = DrawBoard(v1::GAME_KIND_SHOGI4, v, 0);
  EXPECT_NE(s.find("  i   .    .    .    .   K0^"), std::string::npos) << s;
  EXPECT_NE(s.find("  e  +R1v"), std::string::npos) << s;
  EXPECT_NE(s.find("K3<  e\n"), std::string::npos) << s;
  EXPECT_NE(s.find("hand of seat 0: Px2"), std::string::npos) << s;
}

TEST(Board, CheckersStarWithHoleNames) {
  v1::PublicView v;
  Add(&v, "a1", "o", 0);
  Add(&v, "q1", "K", 3);
  std::string s = DrawBoard(v1::GAME_KIND_CHECKERS, v, 0);
  // North tip first, south tip last, both centred over i5.
  EXPECT_EQ(s.substr(0, 39), std::string(36, ' ') + "K3\n") << s;
  EXPECT_NE(s.find("\n" + std::string(36, ' ') + "@0\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\ne1    e2    e3"), std::string::npos) << s;
  EXPECT_NE(s.find(std::string(12, ' ') + "i1    i2    i3    i4    i5"), std::string::npos) << s;
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 17);
}

}  // namespace
}  // namespace tablero::cli
