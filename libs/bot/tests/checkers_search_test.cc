// The Chinese Checkers search: what a node limit does to its iterations.
#include "libs/bot/checkers_search.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "libs/bot/bot.h"
#include "libs/checkers/game.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

// Positions of a game of `seats` played by seeded level-5 bots.
std::vector<checkers::State> Positions(int seats, int count) {
  std::vector<checkers::State> out;
  auto g = *games::NewGame({game::Kind::kCheckers, {}, seats, 0});
  for (int ply = 0; int(out.size()) < count && !g->result().over; ++ply) {
    Request r;
    r.level = 5;
    r.budget_ms = 1000;
    r.seed = 7 + ply;
    r.use_clock = false;
    auto c = ChooseMove(*g, r);
    EXPECT_TRUE(c.ok()) << c.status();
    if (!c.ok()) break;
    EXPECT_TRUE(g->Play(c->move).ok());
    if (ply % 3 == 2) out.push_back(dynamic_cast<const checkers::CheckersGame&>(*g).state());
  }
  return out;
}

bool SameMove(const CheckersResult& a, const CheckersResult& b) {
  return a.from == b.from && a.to == b.to;
}

// A node limit that stops the search inside the iteration of depth 4: levels 1-9 play the
// move of the completed depth 3; level 10 (keep_partial) plays a move that beat it in the
// partial iteration, if one did, and otherwise the same move.
TEST(CheckersSearch, PartialIterationCountsOnlyWhereKept) {
  int kept = 0, tried = 0;
  for (int seats : {3, 6}) {
    for (const checkers::State& st : Positions(seats, 12)) {
      const int me = st.to_move;
      CheckersLimits l;
      l.max_depth = 3;
      const CheckersResult d3 = SearchCheckers(st, me, l, SearchClock());
      l.max_depth = 4;
      const CheckersResult d4 = SearchCheckers(st, me, l, SearchClock());
      ASSERT_EQ(d3.depth, 3);
      ASSERT_EQ(d4.depth, 4);
      if (d3.score >= 500000) continue;  // a finish found: the search stops at depth 3
      for (int k = 1; k < 8; ++k) {
        l.max_nodes = d3.nodes + (d4.nodes - d3.nodes) * k / 8;
        l.keep_partial = false;
        const CheckersResult off = SearchCheckers(st, me, l, SearchClock());
        EXPECT_EQ(off.depth, 3);
        EXPECT_FALSE(off.partial);
        EXPECT_TRUE(SameMove(off, d3));
        l.keep_partial = true;
        const CheckersResult on = SearchCheckers(st, me, l, SearchClock());
        EXPECT_EQ(on.depth, 3);
        ++tried;
        if (on.partial) {
          ++kept;
          EXPECT_FALSE(SameMove(on, d3));
          // The partial score is the move's exact depth-4 score: at most the best's.
          EXPECT_LE(on.score, d4.score);
          if (SameMove(on, d4)) {
            EXPECT_EQ(on.score, d4.score);
          }
        } else {
          EXPECT_TRUE(SameMove(on, d3));
        }
      }
    }
  }
  EXPECT_GT(tried, 100);
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, tried);
}

}  // namespace
}  // namespace tablero::bot
