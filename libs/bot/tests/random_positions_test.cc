// Slow: ChooseMove returns a legal move for thousands of random positions of every game,
// every option value and every seat count, at every level; Chinese Checkers self-play ends
// with every player finished (no shuffling until the no-progress rule).
#include "libs/bot/tests/random_positions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "libs/bot/bot.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

TEST(RandomPositions, ChessAlwaysLegal) {
  EXPECT_GE(RandomPositions(game::Kind::kChess, 400, 3), 1000);
}
TEST(RandomPositions, Shogi4AlwaysLegal) {
  EXPECT_GE(RandomPositions(game::Kind::kShogi4, 150, 3), 1000);
}
TEST(RandomPositions, CheckersAlwaysLegal) {
  EXPECT_GE(RandomPositions(game::Kind::kCheckers, 40, 3), 1000);
}

TEST(SelfPlay, CheckersFinishesWithoutShuffling) {
  for (int seats : {2, 3}) {
    auto g = *games::NewGame({game::Kind::kCheckers, {}, seats, 0});
    int plies = 0;
    while (!g->result().over && plies < 400 * seats) {
      Request r;
      r.level = 10;
      r.budget_ms = 20;
      r.seed = 1 + plies;
      auto c = ChooseMove(*g, r);
      ASSERT_TRUE(c.ok());
      ASSERT_TRUE(g->Play(c->move).ok());
      ++plies;
    }
    ASSERT_TRUE(g->result().over) << seats;
    EXPECT_EQ(g->result().reason, "all_finished") << seats << " seats after " << plies;
  }
}

}  // namespace
}  // namespace tablero::bot
