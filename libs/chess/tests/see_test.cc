// Static exchange evaluation and the small Position queries the bot uses.
#include "libs/chess/see.h"

#include "gtest/gtest.h"
#include "libs/chess/notation.h"
#include "libs/chess/position.h"

namespace tablero::chess {
namespace {

int SeeOf(const char* fen, const char* move) {
  auto pos = Position::ParseFen(fen);
  EXPECT_TRUE(pos.ok()) << fen;
  auto m = ParseMoveText(*pos, move);
  EXPECT_TRUE(m.ok()) << move;
  return See(*pos, *m);
}

TEST(See, Exchanges) {
  EXPECT_EQ(SeeOf("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5"), 100);
  EXPECT_EQ(SeeOf("4k3/2p5/3p4/8/8/8/8/3RK3 w - - 0 1", "Rxd6"), -400);
  EXPECT_EQ(SeeOf("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "R2xd5"), 100);  // x-ray support
  EXPECT_EQ(SeeOf("3qk3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "Qxd5"), -800);
  EXPECT_EQ(SeeOf("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"), 100);
  EXPECT_EQ(SeeOf("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O"), 0);
  EXPECT_EQ(SeeOf("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Nf3"), 0);
  // The king recaptures only on an undefended square.
  EXPECT_EQ(SeeOf("4k3/8/8/8/8/3p4/R3r3/4K3 w - - 0 1", "Rxe2"), 100);  // ...dxe2 Kxe2
  EXPECT_EQ(SeeOf("4k3/8/8/7b/8/3p4/R3r3/4K3 w - - 0 1", "Rxe2"), 0);   // Kxe2 not allowed
}

TEST(PositionQueries, AttackedAndCaptures) {
  Position p = Position::StartPosition();
  EXPECT_TRUE(p.Attacked(MakeSquare(4, 2), kWhite));   // e3 by pawns
  EXPECT_FALSE(p.Attacked(MakeSquare(4, 3), kWhite));  // e4
  EXPECT_TRUE(p.Attacked(MakeSquare(5, 5), kBlack));   // f6 by the knight
  auto m = ParseMoveText(p, "e4");
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(p.IsCapture(*m));
  EXPECT_EQ(p.moved_piece(*m), MakePiece(kWhite, kPawn));
}

}  // namespace
}  // namespace tablero::chess
