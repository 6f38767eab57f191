// ChooseMove over every game: errors for bad levels, budgets and finished games, seeded
// repeatability, mates and finishes found.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "libs/bot/bot.h"
#include "libs/bot/choosers.h"
#include "libs/bot/tests/random_positions.h"
#include "libs/checkers/game.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

// A small sample here (the slow test checks thousands): every game, option and seat count.
TEST(ChooseMove, LegalOnASampleOfRandomPositions) {
  EXPECT_GE(RandomPositions(game::Kind::kChess, 10, 2), 40);
  EXPECT_GE(RandomPositions(game::Kind::kShogi4, 6, 2), 40);
  EXPECT_GE(RandomPositions(game::Kind::kCheckers, 2, 2), 40);
}

// The generic searcher (for a game without its own) works through game::Game alone.
TEST(ChooseGeneric, LegalMovesForShogiAndCheckers) {
  std::mt19937_64 rng(17);
  for (game::Kind kind : {game::Kind::kShogi4, game::Kind::kCheckers}) {
    auto g = *games::NewGame({kind, {}, 0, 0});
    for (int i = 0; i < 30 && !g->result().over; ++i) {
      Request r;
      r.level = 1 + i % 10;
      r.budget_ms = 20;
      auto c = ChooseGeneric(*g, r, 1 + i, true);
      ASSERT_TRUE(c.ok()) << c.status();
      EXPECT_TRUE(IsLegal(*g, c->move)) << c->move.notation;
      auto legal = g->LegalMoves();
      ASSERT_TRUE(g->Play(legal[rng() % legal.size()]).ok());
    }
  }
}

TEST(ChooseMove, RefusesBadInput) {
  auto g = *games::NewGame({game::Kind::kChess, {}, 0, 0});
  Request r;
  r.budget_ms = 100;
  r.level = 0;
  EXPECT_EQ(ChooseMove(*g, r).status().code(), absl::StatusCode::kInvalidArgument);
  r.level = 11;
  EXPECT_EQ(ChooseMove(*g, r).status().code(), absl::StatusCode::kInvalidArgument);
  r.level = 5;
  r.budget_ms = 0;
  EXPECT_EQ(ChooseMove(*g, r).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ChooseMove, FinishedGameIsFailedPrecondition) {
  game::NewGameParams p{game::Kind::kChess, {}, 0, 0};
  // Fool's mate: White is mated.
  auto g = *games::FromPosition(p, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  ASSERT_TRUE(g->result().over);
  Request r;
  r.budget_ms = 100;
  EXPECT_EQ(ChooseMove(*g, r).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ChooseMove, SeededIsRepeatable) {
  for (game::Kind kind : {game::Kind::kChess, game::Kind::kShogi4, game::Kind::kCheckers}) {
    auto g = *games::NewGame({kind, {}, 0, 0});
    // Levels below 10 are bounded by nodes; level 10's node bound scales with the budget
    // and needs a quiet machine to finish before the clock, so it is not tested here.
    for (int level : {1, 3, 6}) {
      Request r;
      r.level = level;
      r.budget_ms = 5000;  // large enough that the node limits decide
      r.seed = 42 + level;
      auto a = ChooseMove(*g, r), b = ChooseMove(*g, r);
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(a->move.notation, b->move.notation) << game::KindName(kind) << " " << level;
      EXPECT_EQ(a->nodes, b->nodes);
    }
  }
}

TEST(ChooseMove, ChessMateInOneAtEveryUsefulLevel) {
  game::NewGameParams p{game::Kind::kChess, {}, 0, 0};
  auto g = *games::FromPosition(p, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
  for (int level : {5, 8, 10}) {
    Request r;
    r.level = level;
    r.budget_ms = 1000;
    r.seed = 1;
    auto c = ChooseMove(*g, r);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->move.notation, "d1d8") << level;
    EXPECT_EQ(c->move.display, "Rd8#");
    EXPECT_EQ(c->eval, kMateEval - 1);
  }
}

}  // namespace
}  // namespace tablero::bot

namespace tablero::bot {
namespace {

bool Mates(const game::Game& g, const game::Move& m) {
  auto h = g.Clone();
  auto events = h->Play(m);
  if (!events.ok()) return false;
  for (const auto& e : *events)
    if (e.type == game::EventType::kMate) return true;
  return false;
}

TEST(ChooseMove, Shogi4TakesAnImmediateMate) {
  // Random games until positions where the seat to move can mate someone at once.
  std::mt19937_64 rng(99);
  int found = 0, games = 0;
  while (found < 5 && games < 200) {
    ++games;
    auto g = *games::NewGame({game::Kind::kShogi4, {}, 0, 0});
    for (int ply = 0; ply < 300 && !g->result().over && found < 5; ++ply) {
      auto legal = g->LegalMoves();
      bool can_mate = false;
      for (const auto& m : legal) can_mate = can_mate || Mates(*g, m);
      if (can_mate) {
        Request r;
        r.level = 10;
        r.budget_ms = 2000;
        r.seed = 5;
        auto c = ChooseMove(*g, r);
        ASSERT_TRUE(c.ok());
        EXPECT_TRUE(Mates(*g, c->move)) << c->move.notation << " in " << g->PositionText();
        ++found;
      }
      ASSERT_TRUE(g->Play(legal[rng() % legal.size()]).ok());
    }
  }
  EXPECT_EQ(found, 5);
}

// Seat 0 has nine pieces home and the tenth next to the one empty goal hole.
std::unique_ptr<game::Game> OneMoveFromFinish(bool japanese) {
  game::Options given = {{"rules", japanese ? "japanese" : "international"}};
  game::NewGameParams p{game::Kind::kCheckers, given, 2, 0};
  auto start = games::NewGame(p);
  EXPECT_TRUE(start.ok()) << start.status();
  const auto* cg = dynamic_cast<const checkers::CheckersGame*>(start->get());
  checkers::State st = cg->state();
  const auto& L = st.layout;
  for (auto& c : st.cell) c = checkers::kEmpty;
  const checkers::HoleSet& goal = L.GoalSet(0);
  const int tip = checkers::kGeo.tip[L.goal[0]];
  int gap = -1, outside = -1;
  checkers::ForEachHole(goal, [&](int h) {
    if (gap >= 0 || h == tip) return;
    for (int d = 0; d < checkers::kDirs; ++d) {
      const int n = checkers::kGeo.nb[h][d];
      if (n >= 0 && !goal.has(n) && checkers::kGeo.point[n] < 0) {
        gap = h;
        outside = n;
        return;
      }
    }
  });
  EXPECT_GE(gap, 0);
  checkers::ForEachHole(goal, [&](int h) {
    if (h != gap) st.cell[h] = uint8_t(1 | (japanese && h == tip ? checkers::kKingBit : 0));
  });
  st.cell[outside] = 1;
  // Seat 1: all but one piece home (not finished), the last one far off in the hexagon.
  const int tip1 = checkers::kGeo.tip[L.goal[1]];
  int placed = 0;
  checkers::ForEachHole(L.GoalSet(1), [&](int h) {
    if (placed + 1 + int(japanese) < L.pieces() && h != tip1) {
      st.cell[h] = 2;
      ++placed;
    }
  });
  if (japanese) st.cell[tip1] = 2 | checkers::kKingBit, ++placed;
  for (int h = 0; h < checkers::kHoles && placed < L.pieces(); ++h) {
    if (st.cell[h] == checkers::kEmpty && checkers::kGeo.point[h] < 0 && !L.GoalSet(1).has(h) &&
        checkers::HexDistance(h, outside) >= 5) {
      st.cell[h] = 2;
      ++placed;
    }
  }
  st.to_move = 0;
  checkers::Normalize(&st, nullptr);
  return std::make_unique<checkers::CheckersGame>(cg->options(), st, 0);
}

TEST(ChooseMove, CheckersFinishesInOne) {
  for (bool japanese : {false, true}) {
    auto g = OneMoveFromFinish(japanese);
    ASSERT_FALSE(g->result().over) << g->result().reason << " " << g->PositionText();
    for (int level : {5, 10}) {
      Request r;
      r.level = level;
      r.budget_ms = 1000;
      r.seed = 3;
      auto c = ChooseMove(*g, r);
      ASSERT_TRUE(c.ok()) << c.status();
      auto h = g->Clone();
      auto events = h->Play(c->move);
      ASSERT_TRUE(events.ok());
      bool finished = false;
      for (const auto& e : *events) finished |= e.type == game::EventType::kFinished && e.seat == 0;
      EXPECT_TRUE(finished) << (japanese ? "japanese " : "") << c->move.notation << " level "
                            << level;
    }
  }
}

}  // namespace
}  // namespace tablero::bot
