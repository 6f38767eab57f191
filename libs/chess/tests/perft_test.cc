// Perft on the standard published positions (chessprogramming wiki "Perft Results"),
// shallow depths; the deep runs are in perft_slow_test.cc.
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "libs/chess/movegen.h"
#include "libs/chess/position.h"

namespace tablero::chess {
namespace {

struct Case {
  const char* name;
  const char* fen;
  int depth;
  uint64_t nodes;
};

constexpr const char* kKiwipete =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
constexpr const char* kPos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
constexpr const char* kPos4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
constexpr const char* kPos4Mirrored =
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
constexpr const char* kPos5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
constexpr const char* kPos6 =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

const Case kCases[] = {
    {"start1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, 20},
    {"start2", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2, 400},
    {"start3", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 8902},
    {"start4", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197281},
    {"start5", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609},
    {"kiwipete1", kKiwipete, 1, 48},
    {"kiwipete2", kKiwipete, 2, 2039},
    {"kiwipete3", kKiwipete, 3, 97862},
    {"kiwipete4", kKiwipete, 4, 4085603},
    {"pos3_1", kPos3, 1, 14},
    {"pos3_4", kPos3, 4, 43238},
    {"pos3_5", kPos3, 5, 674624},
    {"pos4_1", kPos4, 1, 6},
    {"pos4_3", kPos4, 3, 9467},
    {"pos4_4", kPos4, 4, 422333},
    {"pos4m_4", kPos4Mirrored, 4, 422333},
    {"pos5_1", kPos5, 1, 44},
    {"pos5_3", kPos5, 3, 62379},
    {"pos5_4", kPos5, 4, 2103487},
    {"pos6_1", kPos6, 1, 46},
    {"pos6_3", kPos6, 3, 89890},
    {"pos6_4", kPos6, 4, 3894594},
};

class PerftTest : public testing::TestWithParam<Case> {};

TEST_P(PerftTest, MatchesPublishedCount) {
  const Case& c = GetParam();
  auto pos = Position::ParseFen(c.fen);
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(Perft(*pos, c.depth), c.nodes);
}

INSTANTIATE_TEST_SUITE_P(Published, PerftTest, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& i) { return i.param.name; });

// Divide adds up to Perft and names every root move once.
TEST(PerftDivide, SumsToPerft) {
  auto pos = Position::ParseFen(kKiwipete);
  ASSERT_TRUE(pos.ok());
  uint64_t sum = 0;
  auto d = Divide(*pos, 3);
  EXPECT_EQ(d.size(), 48u);
  for (const auto& [m, n] : d) sum += n;
  EXPECT_EQ(sum, 97862u);
}

// The incremental Zobrist key equals the key computed from scratch along a perft tree.
uint64_t CheckKeys(const Position& pos, int depth, int* bad) {
  if (pos.key() != pos.ComputeKey()) ++*bad;
  if (depth == 0) return 1;
  uint64_t n = 0;
  for (Move m : MoveList(pos)) {
    Position next = pos;
    next.DoMove(m);
    n += CheckKeys(next, depth - 1, bad);
  }
  return n;
}

TEST(Zobrist, IncrementalKeyMatchesScratch) {
  for (const char* fen : {kKiwipete, kPos3, kPos4, kPos5}) {
    auto pos = Position::ParseFen(fen);
    ASSERT_TRUE(pos.ok());
    int bad = 0;
    EXPECT_GT(CheckKeys(*pos, 3, &bad), 1000u);
    EXPECT_EQ(bad, 0) << fen;
  }
}

}  // namespace
}  // namespace tablero::chess
