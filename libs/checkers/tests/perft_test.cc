// Fixed perft counts of the start positions, agreed by the engine and the independent
// reference generator (tests/reference.h).
#include <gtest/gtest.h>

#include "libs/checkers/checkers.h"
#include "libs/checkers/tests/reference.h"

namespace tablero::checkers {
namespace {

std::unique_ptr<game::Game> Start(int seats, bool japanese) {
  game::NewGameParams p;
  p.kind = game::Kind::kCheckers;
  p.seats = seats;
  if (japanese) p.options["rules"] = "japanese";
  auto g = NewGame(p);
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

struct Case {
  int seats;
  bool japanese;
  uint64_t counts[3];  // depths 1, 2, 3
};

// Each distinct (start hole, destination hole) pair is one move.
const Case kCases[] = {
    {2, false, {14, 196, 4760}}, {3, false, {14, 196, 2744}}, {4, false, {14, 199, 2786}},
    {5, false, {14, 199, 2828}}, {6, false, {14, 199, 2828}}, {2, true, {24, 576, 20304}},
    {3, true, {20, 400, 8000}},
};

TEST(Perft, StartPositionsEngineAndReferenceAgree) {
  for (const Case& c : kCases) {
    auto g = Start(c.seats, c.japanese);
    reference::Pos pos;
    ASSERT_TRUE(reference::Parse(g->PositionText(), c.seats, c.japanese, &pos));
    for (int d = 1; d <= 3; ++d) {
      SCOPED_TRACE(testing::Message()
                   << c.seats << " players" << (c.japanese ? " japanese" : "") << " depth " << d);
      EXPECT_EQ(g->Perft(d), c.counts[d - 1]);
      EXPECT_EQ(static_cast<uint64_t>(reference::Perft(pos, d)), c.counts[d - 1]);
    }
  }
}

TEST(Perft, DeeperCountsAndDivide) {
  EXPECT_EQ(Start(2, false)->Perft(4), 115600u);
  EXPECT_EQ(Start(6, false)->Perft(4), 40189u);
  EXPECT_EQ(Start(2, true)->Perft(4), 715716u);
  auto g = Start(3, false);
  auto div = g->Divide(3);
  ASSERT_EQ(div.size(), 14u);
  uint64_t sum = 0;
  for (const auto& [move, n] : div) {
    sum += n;
    EXPECT_TRUE(g->ParseMove(move).ok()) << move;
  }
  EXPECT_EQ(sum, 2744u);
  EXPECT_EQ(g->Perft(0), 1u);
}

}  // namespace
}  // namespace tablero::checkers
