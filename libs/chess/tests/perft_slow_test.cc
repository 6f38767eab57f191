// Deep perft on the published positions (chessprogramming wiki "Perft Results"); about
// 600 million leaves in all, a few seconds in a Release build.
#include <cstdint>

#include "gtest/gtest.h"
#include "libs/chess/movegen.h"
#include "libs/chess/position.h"

namespace tablero::chess {
namespace {

uint64_t Count(const char* fen, int depth) {
  auto pos = Position::ParseFen(fen);
  EXPECT_TRUE(pos.ok()) << fen;
  return pos.ok() ? Perft(*pos, depth) : 0;
}

TEST(PerftDeep, InitialPositionDepth6) {
  EXPECT_EQ(Count("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6), 119060324u);
}
TEST(PerftDeep, KiwipeteDepth5) {
  EXPECT_EQ(Count("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
            193690690u);
}
TEST(PerftDeep, Position3Depth6) {
  EXPECT_EQ(Count("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6), 11030083u);
}
TEST(PerftDeep, Position4Depth5) {
  EXPECT_EQ(Count("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
            15833292u);
}
TEST(PerftDeep, Position4MirroredDepth5) {
  EXPECT_EQ(Count("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 5),
            15833292u);
}
TEST(PerftDeep, Position5Depth5) {
  EXPECT_EQ(Count("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5), 89941194u);
}
TEST(PerftDeep, Position6Depth5) {
  EXPECT_EQ(Count("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5),
            164075551u);
}

}  // namespace
}  // namespace tablero::chess
