// The level tables: each game's levels rise in order, and each game's search obeys its own
// table's depth and node bounds.
#include "libs/bot/levels.h"

#include <gtest/gtest.h>

#include "libs/bot/bot.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

constexpr game::Kind kKinds[] = {game::Kind::kChess, game::Kind::kShogi4, game::Kind::kCheckers};

// Levels 1-9 are node budgets (so seeded games do not depend on the machine's load) that
// never shrink, nor does the depth; a level that searches no further than the one below
// is stronger by less noise or fewer random moves (one that searches further may trade some
// back: the ladder measures the sum). Level 10 is the clock's.
TEST(Levels, EveryGameRisesInOrder) {
  for (game::Kind kind : kKinds) {
    SCOPED_TRACE(game::KindName(kind));
    for (int level = kMinLevel; level < kMaxLevel; ++level) {
      SCOPED_TRACE(level);
      const LevelSpec& s = Level(kind, level);
      EXPECT_GT(s.max_nodes, 0u);
      EXPECT_GE(s.max_depth, 1);
      EXPECT_GE(s.noise_cp, 0);
      EXPECT_GE(s.random_permille, 0);
      EXPECT_LT(s.random_permille, 1000);
      if (level == kMinLevel) continue;
      const LevelSpec& below = Level(kind, level - 1);
      EXPECT_GE(s.max_nodes, below.max_nodes);
      EXPECT_GE(s.max_depth, below.max_depth);
      EXPECT_GE(s.default_budget_ms, below.default_budget_ms);
      if (s.max_nodes == below.max_nodes && s.max_depth == below.max_depth) {
        EXPECT_LE(s.noise_cp, below.noise_cp);
        EXPECT_LE(s.random_permille, below.random_permille);
        EXPECT_TRUE(s.noise_cp < below.noise_cp || s.random_permille < below.random_permille);
      }
    }
    const LevelSpec& top = Level(kind, kMaxLevel);
    EXPECT_EQ(top.max_nodes, 0u);
    EXPECT_EQ(top.noise_cp, 0);
    EXPECT_EQ(top.random_permille, 0);
    EXPECT_GE(top.max_depth, Level(kind, kMaxLevel - 1).max_depth);
  }
}

// A game without a search of its own is played by the generic one on chess's table.
TEST(Levels, UnknownKindUsesChessTable) {
  for (int level = kMinLevel; level <= kMaxLevel; ++level)
    EXPECT_EQ(&Level(game::Kind::kUnknown, level), &Level(game::Kind::kChess, level));
}

// Each game's search reads its own row: a seeded search that is not a random move completes
// no more than the row's depth and stops within a few nodes of the row's budget (the first
// iteration always completes, so the bound is checked from depth 2 on).
TEST(Levels, SearchesKeepTheirGamesBounds) {
  for (game::Kind kind : kKinds) {
    auto g = *games::NewGame({kind, {}, 0, 0});
    for (int level = kMinLevel; level < kMaxLevel; ++level) {
      const LevelSpec& s = Level(kind, level);
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        Request r;
        r.level = level;
        r.budget_ms = 60000;
        r.seed = seed * 7919;
        r.use_clock = false;
        auto c = ChooseMove(*g, r);
        ASSERT_TRUE(c.ok()) << c.status();
        SCOPED_TRACE(testing::Message() << game::KindName(kind) << " level " << level << " seed "
                                        << seed << " depth " << c->depth << " nodes " << c->nodes);
        EXPECT_LE(c->depth, s.max_depth);
        if (c->depth >= 2) EXPECT_LE(c->nodes, s.max_nodes + 64);
      }
    }
  }
}

// Every chess level has its measured approximate Elo (benchmarks/bot/elo.sh), never below
// the level beneath it; the games without an outside engine to measure against have none.
TEST(Levels, OnlyChessLevelsHaveAnApproxElo) {
  for (int level = kMinLevel; level <= kMaxLevel; ++level) {
    SCOPED_TRACE(level);
    EXPECT_GT(ApproxElo(game::Kind::kChess, level), 0);
    if (level > kMinLevel) {
      EXPECT_GE(ApproxElo(game::Kind::kChess, level), ApproxElo(game::Kind::kChess, level - 1));
    }
    EXPECT_EQ(ApproxElo(game::Kind::kShogi4, level), 0);
    EXPECT_EQ(ApproxElo(game::Kind::kCheckers, level), 0);
  }
}

// Chinese Checkers level 6 sits between depth 4 and depth 5 by its node budget: where 10k
// nodes complete depth 5 it plays that, elsewhere its depth-4 answer (a partly searched
// iteration does not count). Over the positions of a game both happen.
TEST(Levels, CheckersLevelSixMixesDepthFourAndFive) {
  auto g = *games::NewGame({game::Kind::kCheckers, {}, 2, 0});
  int depth4 = 0, depth5 = 0;
  for (int ply = 0; ply < 40 && !g->result().over; ++ply) {
    Request r;
    r.level = 6;
    r.budget_ms = 60000;
    r.seed = 101 + ply;
    r.use_clock = false;
    auto c = ChooseMove(*g, r);
    ASSERT_TRUE(c.ok()) << c.status();
    depth4 += c->depth == 4;
    depth5 += c->depth == 5;
    ASSERT_TRUE(g->Play(c->move).ok());
  }
  EXPECT_GT(depth4, 0);
  EXPECT_GT(depth5, 0);
}

}  // namespace
}  // namespace tablero::bot
