// ChooseMove over every game: always a legal move, for random positions of every option set
// and seat count; errors for bad levels, budgets and finished games; seeded repeatability.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "libs/bot/bot.h"
#include "libs/checkers/adapter.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

// Every engine option value once (others at their defaults), for each seat count.
std::vector<game::NewGameParams> AllParams(game::Kind kind) {
  std::vector<game::NewGameParams> out;
  const game::GameInfo* info = *games::Info(kind);
  for (int seats = info->min_seats; seats <= info->max_seats; ++seats) {
    game::NewGameParams base;
    base.kind = kind;
    base.seats = seats;
    out.push_back(base);
    for (const auto& spec : info->options) {
      if (spec.room_level) continue;
      std::vector<std::string> values = spec.choices;
      if (spec.type == game::OptionSpec::Type::kInt)
        values = {std::to_string(spec.min), std::to_string(spec.max)};
      for (const auto& v : values) {
        game::NewGameParams p = base;
        p.options[spec.name] = v;
        if (games::NewGame(p).ok()) out.push_back(p);
      }
    }
  }
  return out;
}

bool IsLegal(const game::Game& g, const game::Move& m) {
  const auto legal = g.LegalMoves();
  return std::find(legal.begin(), legal.end(), m) != legal.end();
}

void RandomPositions(game::Kind kind, int per_params, int budget_ms) {
  std::mt19937_64 rng(1234 + int(kind));
  int checked = 0;
  for (const auto& params : AllParams(kind)) {
    auto g = *games::NewGame(params);
    for (int i = 0; i < per_params; ++i) {
      if (g->result().over) g = *games::NewGame(params);
      Request req;
      req.level = 1 + int(rng() % 10);
      req.budget_ms = budget_ms;
      req.seed = rng() % 3 == 0 ? 0 : rng();
      auto c = ChooseMove(*g, req);
      ASSERT_TRUE(c.ok()) << c.status() << " " << g->PositionText();
      ASSERT_TRUE(IsLegal(*g, c->move)) << c->move.notation << " in " << g->PositionText();
      EXPECT_FALSE(c->move.notation.empty());
      EXPECT_EQ(c->move.seat, g->to_move());
      ++checked;
      // Walk on: mostly random moves, sometimes the bot's own, a few plies at a time.
      const int steps = 1 + int(rng() % 4);
      for (int s = 0; s < steps && !g->result().over; ++s) {
        auto legal = g->LegalMoves();
        ASSERT_FALSE(legal.empty());
        ASSERT_TRUE(g->Play(legal[rng() % legal.size()]).ok());
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(ChooseMove, LegalForRandomChessPositions) { RandomPositions(game::Kind::kChess, 150, 3); }
TEST(ChooseMove, LegalForRandomShogi4Positions) { RandomPositions(game::Kind::kShogi4, 60, 5); }
TEST(ChooseMove, LegalForRandomCheckersPositions) { RandomPositions(game::Kind::kCheckers, 40, 5); }

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
    for (int level : {1, 3, 6, 10}) {
      Request r;
      r.level = level;
      r.budget_ms = 5000;  // large enough that the node limits decide
      r.seed = 42 + level;
      if (kind == game::Kind::kChess && level == 10) r.budget_ms = 300;
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
      std::string finishing;
      for (const auto& m : g->LegalMoves()) {
        auto k = g->Clone();
        for (const auto& e : *k->Play(m))
          if (e.type == game::EventType::kFinished) finishing += m.notation + " ";
      }
      EXPECT_TRUE(finished) << (japanese ? "japanese " : "") << c->move.notation << " level "
                            << level << " d" << c->depth << " e" << c->eval << " n" << c->nodes
                            << " finishing: " << finishing << " " << g->PositionText();
    }
  }
}

TEST(ChooseMove, CheckersSelfPlayFinishesWithoutShuffling) {
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
