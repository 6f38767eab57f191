// RateGame: places -> pairwise results, multiplayer damping, teams, input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "libs/glicko2/glicko2.h"

namespace tablero::glicko2 {
namespace {

const Config kC;

std::vector<Player> Rate(const std::vector<Seat>& seats) {
  auto r = RateGame(seats, kC);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : std::vector<Player>(seats.size());
}

// n equal players (1500/200/0.06) finishing at the given places.
std::vector<Seat> Equal(const std::vector<int>& places) {
  std::vector<Seat> seats;
  for (int place : places) seats.push_back({{1500, 200, 0.06}, place});
  return seats;
}

TEST(RateGame, TwoPlayersIsPlainGlicko2) {
  const Player a{1520, 90, 0.06}, b{1480, 160, 0.07};
  const auto out = Rate({{a, 1}, {b, 2}});
  const Player a2 = Update(a, {{b.rating, b.rd, 1, 1}}, kC);
  const Player b2 = Update(b, {{a.rating, a.rd, 0, 1}}, kC);
  EXPECT_EQ(out[0].rating, a2.rating);
  EXPECT_EQ(out[0].rd, a2.rd);
  EXPECT_EQ(out[0].vol, a2.vol);
  EXPECT_EQ(out[1].rating, b2.rating);
  EXPECT_EQ(out[1].rd, b2.rd);
}

TEST(RateGame, DrawBetweenEqualPlayersChangesNoRating) {
  const auto out = Rate(Equal({1, 1}));
  EXPECT_NEAR(out[0].rating, 1500, 1e-9);
  EXPECT_NEAR(out[1].rating, 1500, 1e-9);
  EXPECT_LT(out[0].rd, 200);
  // A whole table sharing one place: also no change.
  for (const Player& p : Rate(Equal({1, 1, 1, 1, 1, 1}))) EXPECT_NEAR(p.rating, 1500, 1e-9);
}

TEST(RateGame, UsesPreGameRatingsSoSeatOrderDoesNotMatter) {
  std::vector<Seat> seats = {{{1400, 300, 0.06}, 2},
                             {{1700, 60, 0.05}, 1},
                             {{1550, 120, 0.06}, 4},
                             {{1500, 350, 0.06}, 3}};
  const auto out = Rate(seats);
  const std::vector<Seat> rev(seats.rbegin(), seats.rend());
  const auto out_rev = Rate(rev);
  for (size_t i = 0; i < seats.size(); ++i) {
    EXPECT_EQ(out[i].rating, out_rev[seats.size() - 1 - i].rating);
    EXPECT_EQ(out[i].rd, out_rev[seats.size() - 1 - i].rd);
  }
  // Ordered by place, since all are rated from the same start.
  EXPECT_GT(out[1].rating, 1700);
  EXPECT_LT(out[2].rating, 1550);
}

TEST(RateGame, PairwiseScoresByPlace) {
  const auto seats = Equal({1, 2, 2, 4});
  const auto r1 = PairwiseResults(seats, 1);
  ASSERT_EQ(r1.size(), 3u);
  EXPECT_EQ(r1[0].score, 0);    // vs place 1
  EXPECT_EQ(r1[1].score, 0.5);  // shared place 2
  EXPECT_EQ(r1[2].score, 1);    // vs place 4
  for (const Opponent& o : r1) EXPECT_DOUBLE_EQ(o.weight, 1.0 / 3);
}

TEST(RateGame, SharedPlacesFourPlayers) {
  const auto shared = Rate(Equal({1, 1, 3, 4}));
  EXPECT_NEAR(shared[0].rating, shared[1].rating, 1e-9);
  EXPECT_NEAR(shared[0].rd, shared[1].rd, 1e-9);
  const auto sole = Rate(Equal({1, 2, 3, 4}));
  EXPECT_GT(shared[0].rating, 1500);
  EXPECT_LT(shared[0].rating, sole[0].rating);  // shared first gains less than a sole win
  EXPECT_GT(shared[1].rating, sole[1].rating);  // and more than a sole second
  // Shared last place: equal, and loses less than sole last.
  const auto last = Rate(Equal({1, 2, 3, 3}));
  EXPECT_NEAR(last[2].rating, last[3].rating, 1e-9);
  EXPECT_GT(last[3].rating, sole[3].rating);
  EXPECT_LT(last[3].rating, 1500);
}

TEST(RateGame, SharedPlacesSixPlayers) {
  const auto shared = Rate(Equal({1, 1, 3, 4, 4, 6}));
  EXPECT_NEAR(shared[0].rating, shared[1].rating, 1e-9);
  EXPECT_NEAR(shared[3].rating, shared[4].rating, 1e-9);
  const auto sole = Rate(Equal({1, 2, 3, 4, 5, 6}));
  EXPECT_LT(shared[0].rating, sole[0].rating);
  EXPECT_GT(shared[0].rating, 1500);
  const auto r3 = PairwiseResults(Equal({1, 1, 3, 4, 4, 6}), 3);
  ASSERT_EQ(r3.size(), 5u);
  EXPECT_EQ(r3[0].score, 0);
  EXPECT_EQ(r3[2].score, 0);
  EXPECT_EQ(r3[3].score, 0.5);  // seat 4 shares place 4
  EXPECT_EQ(r3[4].score, 1);
}

TEST(RateGame, DampingSixPlayerWinMovesLessThanFiveWins) {
  const Player p{1500, 200, 0.06};
  const Player opp{1500, 200, 0.06};
  std::vector<Seat> seats = {{p, 1}};
  for (int k = 0; k < 5; ++k) seats.push_back({opp, 2 + k});
  const Player won = Rate(seats)[0];
  Player five = p;
  for (int k = 0; k < 5; ++k) five = Update(five, {{opp.rating, opp.rd, 1, 1}}, kC);
  EXPECT_GT(won.rating, p.rating);
  EXPECT_LT(won.rating - p.rating, five.rating - p.rating);
  EXPECT_GT(won.rd, five.rd);
  // The rule exactly: total weight 1, so beating five equal players is one win against one.
  const Player one = Update(p, {{opp.rating, opp.rd, 1, 1}}, kC);
  EXPECT_NEAR(won.rating, one.rating, 1e-9);
  EXPECT_NEAR(won.rd, one.rd, 1e-9);
  double total = 0;
  for (const Opponent& o : PairwiseResults(seats, 0)) total += o.weight;
  EXPECT_NEAR(total, 1, 1e-12);
}

TEST(RateGame, MultiplayerIsZeroSumish) {
  const auto out = Rate(Equal({1, 2, 3, 4, 5, 6}));
  double sum = 0, moved = 0;
  for (const Player& p : out) {
    sum += p.rating - 1500;
    moved += std::abs(p.rating - 1500);
  }
  EXPECT_GT(moved, 50);
  EXPECT_LT(std::abs(sum), 1e-3 * moved);
  // Ranked by place, symmetric around the middle.
  for (size_t i = 1; i < out.size(); ++i) EXPECT_LT(out[i].rating, out[i - 1].rating);
  EXPECT_NEAR(out[0].rating - 1500, 1500 - out[5].rating, 1e-6);
}

// Shogi pairs: seats alternate teams, partners share a place.
TEST(RateGame, PairsPartnersShareResult) {
  const std::vector<Seat> seats = {{{1500, 150, 0.06}, 1, 0},
                                   {{1480, 100, 0.06}, 2, 1},
                                   {{1500, 150, 0.06}, 1, 0},
                                   {{1620, 200, 0.06}, 2, 1}};
  const auto out = Rate(seats);
  EXPECT_EQ(out[0].rating, out[2].rating);  // equal partners end equal
  EXPECT_EQ(out[0].rd, out[2].rd);
  EXPECT_GT(out[0].rating, 1500);
  EXPECT_GT(out[2].rating, 1500);
  EXPECT_LT(out[1].rating, 1480);
  EXPECT_LT(out[3].rating, 1620);
  // Opponents are the other team only, weighted 1/2 each.
  const auto r0 = PairwiseResults(seats, 0);
  ASSERT_EQ(r0.size(), 2u);
  EXPECT_EQ(r0[0].rating, 1480);
  EXPECT_EQ(r0[1].rating, 1620);
  EXPECT_EQ(r0[0].score, 1);
  EXPECT_EQ(r0[1].weight, 0.5);
}

TEST(RateGame, PartnersAreNeverCompared) {
  std::vector<Seat> seats = {{{1500, 150, 0.06}, 2, 7},
                             {{1500, 150, 0.06}, 1, 3},
                             {{1500, 150, 0.06}, 2, 7},
                             {{1500, 150, 0.06}, 1, 3}};
  const Player before = Rate(seats)[0];
  seats[2].before = {2400, 40, 0.03};  // a very different partner
  const Player after = Rate(seats)[0];
  EXPECT_EQ(before.rating, after.rating);
  EXPECT_EQ(before.rd, after.rd);
  EXPECT_LT(after.rating, 1500);
  // A draw between the two teams: equal players keep their ratings.
  for (Seat& s : seats) s.place = 1;
  seats[2].before = seats[0].before;
  for (const Player& p : Rate(seats)) EXPECT_NEAR(p.rating, 1500, 1e-9);
}

TEST(RateGame, TeamsWithSoloSeatsMix) {
  // Two partners against two solo players: each solo faces all three others.
  const std::vector<Seat> seats = {{{1500, 200, 0.06}, 1, 0},
                                   {{1500, 200, 0.06}, 1, 0},
                                   Seat{{1500, 200, 0.06}, 3},
                                   Seat{{1500, 200, 0.06}, 4}};
  EXPECT_EQ(PairwiseResults(seats, 0).size(), 2u);
  EXPECT_EQ(PairwiseResults(seats, 2).size(), 3u);
  const auto out = Rate(seats);
  EXPECT_EQ(out[0].rating, out[1].rating);
  EXPECT_GT(out[0].rating, 1500);
  EXPECT_LT(out[3].rating, out[2].rating);
}

TEST(RateGame, RdBoundsRespected) {
  const std::vector<Seat> seats = {
      {{1500, 1000, 0.06}, 1}, {{1500, 1, 0.06}, 2}, {{1800, 30, 0.06}, 3}};
  for (const Player& p : Rate(seats)) {
    EXPECT_GE(p.rd, kC.min_rd);
    EXPECT_LE(p.rd, kC.max_rd);
  }
}

TEST(RateGame, RefusesInvalidInput) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Player ok{1500, 200, 0.06};
  auto bad = [](const std::vector<Seat>& seats, const Config& c = kC) {
    auto r = RateGame(seats, c);
    return !r.ok() && r.status().code() == absl::StatusCode::kInvalidArgument;
  };
  EXPECT_TRUE(bad({}));
  EXPECT_TRUE(bad({{ok, 1}}));
  EXPECT_TRUE(bad({{ok, 0}, {ok, 1}}));
  EXPECT_TRUE(bad({{ok, 1}, {ok, -3}}));
  EXPECT_TRUE(bad({{{nan, 200, 0.06}, 1}, {ok, 2}}));
  EXPECT_TRUE(bad({{ok, 1}, {{1500, inf, 0.06}, 2}}));
  EXPECT_TRUE(bad({{ok, 1}, {{1500, 200, nan}, 2}}));
  EXPECT_TRUE(bad({{ok, 1}, {{1500, 0, 0.06}, 2}}));
  EXPECT_TRUE(bad({{ok, 1}, {{1500, 200, -1}, 2}}));
  EXPECT_TRUE(bad({{ok, 1, 4}, {ok, 2, 4}}));                          // all on one team
  EXPECT_TRUE(bad({{ok, 1, 0}, {ok, 1, 0}, {ok, 2, 0}}));              // all on one team
  EXPECT_TRUE(bad({{ok, 1, 0}, {ok, 2, 1}, {ok, 2, 0}, {ok, 2, 1}}));  // partners apart
  EXPECT_TRUE(bad({{ok, 1, -2}, {ok, 2}}));                            // bad team id
  Config c;
  c.tau = -1;
  EXPECT_TRUE(bad({{ok, 1}, {ok, 2}}, c));
  EXPECT_TRUE(RateGame({{ok, 1}, {ok, 2}}, kC).ok());
}

TEST(RateGame, AbsurdRatingsStayFiniteOrAreRefused) {
  for (double far : {1e4, 1e6, 1e12, 1e300, -1e300}) {
    auto r = RateGame({{{1500, 200, 0.06}, 2}, {{far, 30, 0.06}, 1}}, kC);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
      continue;
    }
    for (const Player& p : *r) {
      EXPECT_TRUE(std::isfinite(p.rating) && std::isfinite(p.rd) && std::isfinite(p.vol)) << far;
    }
  }
  auto r = RateGame({{{1500, 200, 1e200}, 2}, {{1500, 30, 0.06}, 1}}, kC);
  if (r.ok()) {
    for (const Player& p : *r) EXPECT_TRUE(std::isfinite(p.rating) && std::isfinite(p.vol));
  }
}

}  // namespace
}  // namespace tablero::glicko2
