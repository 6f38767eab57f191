// The level tables: each game's levels rise in order, and each game's search obeys its own
// table's depth and node bounds.
#include "libs/bot/levels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "libs/bot/bot.h"
#include "libs/bot/checkers_search.h"
#include "libs/bot/choosers.h"
#include "libs/checkers/game.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

// Each table with a seat count that reads it (Chinese Checkers: 2 players, then 3+).
struct Table {
  game::Kind kind;
  int seats;
};
// A seeded request that the clock never stops (its node budget does).
Request Seeded(int level, uint64_t seed) {
  Request r;
  r.level = level;
  r.budget_ms = 60000;
  r.seed = seed;
  r.use_clock = false;
  return r;
}

constexpr Table kTables[] = {{game::Kind::kChess, 2},
                             {game::Kind::kShogi4, 4},
                             {game::Kind::kCheckers, 2},
                             {game::Kind::kCheckers, 3},
                             {game::Kind::kCheckers, 6}};

// Levels 1-9 are node budgets (so seeded games do not depend on the machine's load) that
// never shrink, nor does the depth; a level that searches no further than the one below
// is stronger by less noise or fewer random moves (one that searches further may trade some
// back: the ladder measures the sum). Level 10 is the clock's. The one exception: the chess
// level where the network takes over from the handcrafted evaluation (kChessLearntEvalLevel)
// is stronger by its evaluation and searches fewer nodes than the level below.
TEST(Levels, EveryGameRisesInOrder) {
  for (auto [kind, seats] : kTables) {
    SCOPED_TRACE(testing::Message() << game::KindName(kind) << " " << seats << " seats");
    for (int level = kMinLevel; level < kMaxLevel; ++level) {
      SCOPED_TRACE(level);
      const LevelSpec& s = Level(kind, level, seats);
      EXPECT_GT(s.max_nodes, 0u);
      EXPECT_GE(s.max_depth, 1);
      EXPECT_GE(s.noise_cp, 0);
      EXPECT_GE(s.random_permille, 0);
      EXPECT_LT(s.random_permille, 1000);
      if (level == kMinLevel) continue;
      const LevelSpec& below = Level(kind, level - 1, seats);
      if (kind == game::Kind::kChess && level == kChessLearntEvalLevel) {
        EXPECT_LT(s.max_nodes, below.max_nodes);
      } else {
        EXPECT_GE(s.max_nodes, below.max_nodes);
      }
      EXPECT_GE(s.max_depth, below.max_depth);
      EXPECT_GE(s.default_budget_ms, below.default_budget_ms);
      if (s.max_nodes == below.max_nodes && s.max_depth == below.max_depth) {
        EXPECT_LE(s.noise_cp, below.noise_cp);
        EXPECT_LE(s.random_permille, below.random_permille);
        EXPECT_TRUE(s.noise_cp < below.noise_cp || s.random_permille < below.random_permille);
      }
    }
    const LevelSpec& top = Level(kind, kMaxLevel, seats);
    EXPECT_EQ(top.max_nodes, 0u);
    EXPECT_EQ(top.noise_cp, 0);
    EXPECT_EQ(top.random_permille, 0);
    EXPECT_GE(top.max_depth, Level(kind, kMaxLevel - 1, seats).max_depth);
  }
}

// A game without a search of its own is played by the generic one on chess's table.
TEST(Levels, UnknownKindUsesChessTable) {
  for (int level = kMinLevel; level <= kMaxLevel; ++level)
    EXPECT_EQ(&Level(game::Kind::kUnknown, level, 2), &Level(game::Kind::kChess, level, 2));
}

// Each game's search reads its own row: a seeded search that is not a random move completes
// no more than the row's depth and stops within a few nodes of the row's budget (the first
// iteration always completes, so the bound is checked from depth 2 on).
TEST(Levels, SearchesKeepTheirGamesBounds) {
  for (auto [kind, seats] : kTables) {
    auto g = *games::NewGame({kind, {}, seats, 0});
    for (int level = kMinLevel; level < kMaxLevel; ++level) {
      const LevelSpec& s = Level(kind, level, seats);
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        auto c = ChooseMove(*g, Seeded(level, seed * 7919));
        ASSERT_TRUE(c.ok()) << c.status();
        SCOPED_TRACE(testing::Message()
                     << game::KindName(kind) << " " << seats << " seats level " << level << " seed "
                     << seed << " depth " << c->depth << " nodes " << c->nodes);
        EXPECT_LE(c->depth, s.max_depth);
        if (c->depth >= 2) {
          EXPECT_LE(c->nodes, s.max_nodes + 64);
        }
      }
    }
  }
}

// Every chess level has its measured approximate Elo (benchmarks/bot/elo.sh), above the
// level beneath it (a player picking a higher level sees a higher number); the games without an
// outside engine to measure against have none.
TEST(Levels, OnlyChessLevelsHaveAnApproxElo) {
  for (int level = kMinLevel; level <= kMaxLevel; ++level) {
    SCOPED_TRACE(level);
    EXPECT_GT(ApproxElo(game::Kind::kChess, level), 0);
    if (level > kMinLevel) {
      EXPECT_GT(ApproxElo(game::Kind::kChess, level), ApproxElo(game::Kind::kChess, level - 1));
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
    auto c = ChooseMove(*g, Seeded(6, 101 + ply));
    ASSERT_TRUE(c.ok()) << c.status();
    depth4 += c->depth == 4;
    depth5 += c->depth == 5;
    ASSERT_TRUE(g->Play(c->move).ok());
  }
  EXPECT_GT(depth4, 0);
  EXPECT_GT(depth5, 0);
}

// Chinese Checkers picks its table by the position's seat count: 2 players the two-player
// table, 3 the three-player one, 4 and 6 the 4+ one. A seeded ChooseMove is the search on
// its row's settings, seed for seed (ChooseCheckers draws the random-move roll, then the
// noise's seed), so its nodes, depth and score match a search on the row it read; on the
// positions of a game some level's rows of two tables give different searches, so reading
// either other table fails.
TEST(Levels, CheckersReadsTheTableOfItsSeatCount) {
  // The tables: 2, 3 and 4 seats, and 5+ (calibrated at 6).
  auto table_of = [](int seats) { return std::min(seats, 5); };
  for (int seats : {2, 3, 4, 5, 6}) {
    SCOPED_TRACE(testing::Message() << seats << " seats");
    auto g = *games::NewGame({game::Kind::kCheckers, {}, seats, 0});
    // A seat count that reads each other table.
    std::vector<int> others;
    for (int table_seats : {2, 3, 4, 5}) {
      if (table_seats != table_of(seats)) others.push_back(table_seats);
    }
    ASSERT_EQ(others.size(), 3u);
    int compared = 0;
    std::vector<int> differ(others.size(), 0);
    for (int ply = 0; ply < 6 && !g->result().over; ++ply) {
      const auto& st = dynamic_cast<const checkers::CheckersGame&>(*g).state();
      for (int level = kMinLevel; level < kMaxLevel; ++level) {
        const uint64_t seed = 7919 * (ply + 1) + level;
        auto c = ChooseMove(*g, Seeded(level, seed));
        ASSERT_TRUE(c.ok()) << c.status();
        auto search = [&](int table_seats, CheckersResult* out) {
          const LevelSpec& s = Level(game::Kind::kCheckers, level, table_seats);
          Rng rng(seed);
          if (s.random_permille > 0 && rng.Below(1000) < s.random_permille) return false;
          CheckersLimits limits;
          limits.max_depth = s.max_depth;
          limits.max_nodes = s.max_nodes;
          limits.noise = s.noise_cp;
          limits.seed = rng.Next();
          *out = SearchCheckers(st, st.to_move, limits, SearchClock());
          return true;
        };
        CheckersResult mine, theirs;
        if (!search(seats, &mine)) continue;
        SCOPED_TRACE(testing::Message() << "ply " << ply << " level " << level);
        ++compared;
        EXPECT_EQ(c->nodes, mine.nodes);
        EXPECT_EQ(c->depth, mine.depth);
        EXPECT_EQ(c->eval, std::clamp(mine.score, -kMateEval + 1, kMateEval - 1));
        for (size_t i = 0; i < others.size(); ++i) {
          if (!search(others[i], &theirs) || theirs.nodes != mine.nodes ||
              theirs.score != mine.score || theirs.from != mine.from || theirs.to != mine.to) {
            ++differ[i];
          }
        }
      }
      auto c = ChooseMove(*g, Seeded(5, 11 + ply));
      ASSERT_TRUE(c.ok()) << c.status();
      ASSERT_TRUE(g->Play(c->move).ok());
    }
    EXPECT_GT(compared, 30);
    for (size_t i = 0; i < others.size(); ++i) {
      EXPECT_GT(differ[i], 0) << "against the table of " << others[i] << " seats";
    }
  }
}

}  // namespace
}  // namespace tablero::bot
