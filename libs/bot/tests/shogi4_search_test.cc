// Four-player shogi search: mates that need a check first. In every position below (found
// in random games) the seat to move cannot mate at once, but has a check after which every
// answer of the checked seat gives the turn back to it with a mate in one: the bot must
// start that line (or find another forced mate).
#include <gtest/gtest.h>

#include <string>

#include "libs/bot/bot.h"
#include "libs/games/games.h"
#include "libs/shogi4/adapter.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"

namespace tablero::bot {
namespace {

namespace s4 = shogi4;

bool MatesNow(const s4::Position& pos, s4::Move m, int me) {
  s4::Position c = pos;
  s4::MakeMove(c, m);
  return c.n_elim > pos.n_elim && c.mated_by[c.elim[pos.n_elim]] == me;
}

bool HasMateNow(const s4::Position& pos, int me) {
  s4::MoveList list;
  s4::GenerateLegal(pos, me, &list);
  for (s4::Move m : list)
    if (MatesNow(pos, m, me)) return true;
  return false;
}

// After `m1` (a check) every answer of the checked seat gives `me` a mate in one.
bool ForcesMate(const s4::Position& pos, s4::Move m1, int me) {
  s4::Position c = pos;
  s4::MakeMove(c, m1);
  if (c.over != s4::EndReason::kNone || c.to_move == me || !s4::InCheck(c, c.to_move)) return false;
  s4::MoveList answers;
  s4::GenerateLegal(c, c.to_move, &answers);
  for (s4::Move r : answers) {
    s4::Position d = c;
    s4::MakeMove(d, r);
    if (d.over != s4::EndReason::kNone || d.to_move != me || d.n_elim != c.n_elim) return false;
    if (!HasMateNow(d, me)) return false;
  }
  return answers.size > 0;
}

constexpr const char* kMateInTwo[] = {
    "4G2sG0n3/S2sP1e1K2sR2sS2s3/S1e2P2sP2s1G3w1S3w/G1eP1e4P3w1R3w/2P1e3P3w2/K1eR1e2G0n2P3wK3w/"
    "S1e1G1eP0n4G3w/5P0n3/2S0n1K0nG0nS0nS3wR2s 1 2P/-/-/- - 45",
    "2S2s1K2s1S2s1S3w/2G2s1R2sP2s3/1G1eS1eP2sP2s2G2s1/1P1eG2s4P3w1/K1eR1eP1e1P0n1P3wR3w1/"
    "G1e2P1e3P3w1/S1e1G3w2P0nK3w1G3w/3P0n4R0n/2S0nG0nK0n1S0n2 0 S/-/-/- - 32",
    "S1e7S3w/1S2sG0n2S3w3/3K2sP2sP2s3/S1e2P1e2P3wS3wK3w/K1eR1e1P1eP3w1R3wR3wG3w/5P1e1P3wS3w/"
    "P0n2P0nP0n1G3wS2s1/G1e1R0n1G0nP0n1G0n1/4K0n3G1e 3 -/-/-/G - 106",
    "2S2s1R3w3S3w/1P2s1K2sG2sR2sG2sS3w1/1G1e1P1eP2sP2s3/1P1eG0n3S2s1G3w/K1eR1eP1e2P3w1G3wK3w/"
    "1P1e5P3wS3w/3P0nP0nP0n3/1S1eG0nK0n3S0n1/1R0n1S1e2G0n2 1 -/-/-/- - 51",
    "2S2s1K2s4/3P2s1G2s1R2s1/S1e3P2sP2s3/G1eP1eG2s1S3w2P3wG3w/K1eR1eP1e1S0nP3wG3w1K3w/"
    "G1e1P1e1P0n1P3w2/3P0n1P0n3/3G0n3R3w1/S1e2K0n1G0nS0n2 1 -/R/S/S - 37",
    "P2s2K2s3S2s1/1S1eS2sG2sG2sP2s1S3w1/4S0n3R3w/G1eP1e3P3wG3w2/2P1eP2sR2sG3wP3wK3w1/"
    "K1eR1e2P2s2P3w1/3G1e5/G0nS1eP1e1R0nP0n2S0n/4K0nG0n3 1 S/P/-/- - 75",
    "1S1eS2sG2s2K2s2/1S2sR2s2P2s1G2s1/3P2sP2s4/1P1e1G1e2G3wP3w1/K1eG1eR2s1P1e1S0nG3wK3w/"
    "3G3wS1eP3w3/1S1e2P0nS2s1S3w1/P0nG0nR1eP0n1P0n2P0n/3R0nK0n4 2 -/-/-/- - 71",
    "K1e1S3w2G2sS3w1S0n/4K2s4/5P2s1P0nP2s/1P1eG1eP2sP2s+S1e1P3w1/1G0n5R3wK3w/1G1e3S3w1G3w1/"
    "2S1eG1eP0n4/2P0nP0nR0n4/1S1e2K0nG0n1R1eG3w 3 R/SP/-/P - 85",
    "2S2s3K2s2/1G1e2R2sP2sG2s1P0n/K1e2P2s+S0n1S3w2/1G1eP1eS1e1P3wR3wG3wK3w/G1eR1e1S2sP1eP3w3/"
    "3P1eP0n2P3w1/1S1e1P0nG0nP0nG3w2/4R0n1G3w2/2S0n1K0n4 2 -/-/S/- - 62",
    "2R1e6/1G3w1P2sS2s2+R2s1/1S1e2P2sP2sK2s2/R1eP1e1G1eG0n3G3w/K1e2P1eP0n1P3w2/2P2sS0n2G2s1K3w/"
    "G3w1S0nP0n1P0n3/2G1e1K0n3P2s/7S3wG3w 1 SP/R/2S/- - 110",
    "4K2s4/2R2s1G2sS2s1P3wG2s/S2s3P2sG3w2S3w/1P1e1P2s2G3wP3w1/2P1e1P0n1P3wR3wK3w/R1e1G1eP0n2P3w2/"
    "1S1eS0n2S3w2G3w/K1e1P0n2P0nR1e2/3G0nK0n1G0n2 3 -/S/S/- - 71",
    "1R3wS1eG2sK2s4/+S3w1G1eP2sR2sP2s2G2s/3S1eP2s2S3w1/2P1e4P0n1/3P1eS2s1P3wR3w1/"
    "K1eP2sP2sS0nP0n3S0n/6K3w1G3w/G1e2P0n1R0n3/2G0n1K0nG0n3 0 G/-/SP/- - 72",
};

TEST(Shogi4Search, StartsACheckingLineThatMates) {
  for (const char* text : kMateInTwo) {
    game::NewGameParams params{game::Kind::kShogi4, {}, 0, 0};
    auto g = games::FromPosition(params, text);
    ASSERT_TRUE(g.ok()) << g.status() << " " << text;
    const auto* sg = dynamic_cast<const s4::Shogi4Game*>(g->get());
    ASSERT_NE(sg, nullptr);
    const s4::Position& pos = sg->position();
    const int me = pos.to_move;
    ASSERT_FALSE(HasMateNow(pos, me)) << text;
    // A small node budget (seeded level 10: 20 nodes per ms), so the line must come from
    // the checks of the quiescence search rather than from brute depth.
    Request r;
    r.level = 10;
    r.budget_ms = 100;
    r.seed = 7;
    auto c = ChooseMove(**g, r);
    ASSERT_TRUE(c.ok()) << c.status();
    auto m = s4::ParseMoveText(c->move.notation);
    ASSERT_TRUE(m.ok()) << c->move.notation;
    EXPECT_TRUE(ForcesMate(pos, *m, me)) << c->move.notation << " in " << text;
  }
}

}  // namespace
}  // namespace tablero::bot
