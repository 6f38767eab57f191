// One rating period (Update), Idle, the helpers and config checks.
#include "libs/glicko2/glicko2.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tablero::glicko2 {
namespace {

const Config kC;

TEST(Config, DefaultsFollowTheSpec) {
  EXPECT_EQ(kC.initial_rating, 1500);
  EXPECT_EQ(kC.initial_rd, 350);
  EXPECT_EQ(kC.initial_vol, 0.06);
  EXPECT_EQ(kC.tau, 0.5);
  EXPECT_EQ(kC.provisional_rd, 110);
  EXPECT_EQ(kC.leaderboard_rd, 75);
  EXPECT_EQ(kC.epsilon, 1e-6);
  EXPECT_TRUE(ValidateConfig(kC).ok());
  const Player p = Initial(kC);
  EXPECT_EQ(p.rating, 1500);
  EXPECT_EQ(p.rd, 350);
  EXPECT_EQ(p.vol, 0.06);
}

TEST(Config, RefusesBadValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Config c;
  c.tau = 0;
  EXPECT_EQ(ValidateConfig(c).code(), absl::StatusCode::kInvalidArgument);
  c = Config();
  c.min_rd = 400;  // above max_rd
  EXPECT_EQ(ValidateConfig(c).code(), absl::StatusCode::kInvalidArgument);
  c = Config();
  c.min_rd = 0;
  EXPECT_EQ(ValidateConfig(c).code(), absl::StatusCode::kInvalidArgument);
  c = Config();
  c.epsilon = -1;
  EXPECT_EQ(ValidateConfig(c).code(), absl::StatusCode::kInvalidArgument);
  c = Config();
  c.initial_vol = 0;
  EXPECT_EQ(ValidateConfig(c).code(), absl::StatusCode::kInvalidArgument);
  c = Config();
  c.leaderboard_rd = nan;
  EXPECT_EQ(ValidateConfig(c).code(), absl::StatusCode::kInvalidArgument);
}

TEST(Player, ValidateRefusesNonFiniteAndNonPositive) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(ValidatePlayer({1500, 350, 0.06}).ok());
  EXPECT_TRUE(ValidatePlayer({-200, 30, 0.01}).ok());
  EXPECT_FALSE(ValidatePlayer({std::nan(""), 350, 0.06}).ok());
  EXPECT_FALSE(ValidatePlayer({1500, inf, 0.06}).ok());
  EXPECT_FALSE(ValidatePlayer({1500, 0, 0.06}).ok());
  EXPECT_FALSE(ValidatePlayer({1500, 350, -0.06}).ok());
  EXPECT_FALSE(ValidatePlayer({1500, 350, 0}).ok());
}

TEST(Helpers, ProvisionalAndLeaderboardThresholds) {
  EXPECT_TRUE(IsProvisional({1500, 350, 0.06}, kC));
  EXPECT_TRUE(IsProvisional({1500, 110, 0.06}, kC));
  EXPECT_FALSE(IsProvisional({1500, 109.9, 0.06}, kC));
  EXPECT_TRUE(OnLeaderboard({1500, 75, 0.06}, kC));
  EXPECT_FALSE(OnLeaderboard({1500, 75.1, 0.06}, kC));
  Config c;
  c.provisional_rd = 200;
  c.leaderboard_rd = 100;
  EXPECT_FALSE(IsProvisional({1500, 150, 0.06}, c));
  EXPECT_TRUE(OnLeaderboard({1500, 90, 0.06}, c));
}

// Glickman, "Example of the Glicko-2 system": r' 1464.06, RD' 151.52, sigma' 0.05999.
TEST(Update, GlickmansWorkedExample) {
  const Player p{1500, 200, 0.06};
  const Player q = Update(p, {{1400, 30, 1, 1}, {1550, 100, 0, 1}, {1700, 300, 0, 1}}, kC);
  EXPECT_NEAR(q.rating, 1464.06, 0.02);
  EXPECT_NEAR(q.rd, 151.52, 0.02);
  EXPECT_NEAR(q.vol, 0.05999, 1e-5);
  EXPECT_NEAR(q.vol, 0.0599960, 1e-6);  // the iteration really ran (0.06 would fail)
}

TEST(Update, DrawBetweenEqualPlayersKeepsRatingShrinksRd) {
  const Player p{1612.5, 180, 0.06};
  const Player q = Update(p, {{p.rating, p.rd, 0.5, 1}}, kC);
  EXPECT_NEAR(q.rating, p.rating, 1e-9);
  EXPECT_LT(q.rd, p.rd);
  EXPECT_GT(q.rd, kC.min_rd);
}

TEST(Update, WinnerGainsLoserLosesZeroSumForEqualRds) {
  const Player a{1450, 120, 0.06}, b{1620, 120, 0.06};
  const Player a2 = Update(a, {{b.rating, b.rd, 1, 1}}, kC);
  const Player b2 = Update(b, {{a.rating, a.rd, 0, 1}}, kC);
  EXPECT_GT(a2.rating, a.rating);
  EXPECT_LT(b2.rating, b.rating);
  // Same RD and volatility: the update is symmetric, so rating is conserved.
  EXPECT_NEAR((a2.rating - a.rating) + (b2.rating - b.rating), 0, 1e-9);
  EXPECT_LT(a2.rd, a.rd);
  EXPECT_LT(b2.rd, b.rd);
  // The upset (weaker player won) moves more than the expected result would.
  const Player b3 = Update(b, {{a.rating, a.rd, 1, 1}}, kC);
  EXPECT_GT(a2.rating - a.rating, b3.rating - b.rating);
}

TEST(Update, UncertainOpponentMovesLess) {
  const Player p{1500, 100, 0.06};
  const Player sure = Update(p, {{1500, 40, 1, 1}}, kC);
  const Player vague = Update(p, {{1500, 340, 1, 1}}, kC);
  EXPECT_GT(sure.rating, vague.rating);
  EXPECT_GT(vague.rating, p.rating);
}

TEST(Update, SurprisingResultRaisesVolatility) {
  // delta^2 > phi^2 + v: the other starting bracket of the volatility iteration.
  const Player p{1500, 50, 0.06};
  const Player q = Update(p, {{2500, 50, 1, 1}}, kC);
  EXPECT_GT(q.vol, p.vol);
  EXPECT_GT(q.rating, p.rating);
  // An expected result lowers it slightly.
  const Player r = Update(p, {{1500, 50, 0.5, 1}}, kC);
  EXPECT_LT(r.vol, p.vol);
}

TEST(Update, WeightIsHowManyGamesAResultCountsFor) {
  const Player p{1500, 200, 0.06};
  const Player twice = Update(p, {{1600, 80, 1, 1}, {1600, 80, 1, 1}}, kC);
  const Player weighted = Update(p, {{1600, 80, 1, 2}}, kC);
  EXPECT_NEAR(twice.rating, weighted.rating, 1e-9);
  EXPECT_NEAR(twice.rd, weighted.rd, 1e-9);
  EXPECT_NEAR(twice.vol, weighted.vol, 1e-12);
  const Player half = Update(p, {{1600, 80, 1, 0.5}}, kC);
  const Player one = Update(p, {{1600, 80, 1, 1}}, kC);
  EXPECT_GT(half.rating, p.rating);
  EXPECT_LT(half.rating, one.rating);
  EXPECT_GT(half.rd, one.rd);
  // Weight 0 (or negative) results are ignored.
  const Player ignored = Update(p, {{1600, 80, 1, 1}, {900, 80, 0, 0}, {900, 80, 0, -1}}, kC);
  EXPECT_EQ(ignored.rating, one.rating);
  EXPECT_EQ(ignored.rd, one.rd);
}

TEST(Idle, RdGrowsByVolatility) {
  const Player p{1700, 200, 0.06};
  const Player q = Idle(p, 1, kC);
  const double phi = 200 / kScale;
  EXPECT_NEAR(q.rd, kScale * std::sqrt(phi * phi + 0.06 * 0.06), 1e-9);
  EXPECT_NEAR(q.rd, 200.27, 0.01);
  EXPECT_EQ(q.rating, p.rating);
  EXPECT_EQ(q.vol, p.vol);
  // k periods at once = k single periods.
  Player r = p;
  for (int i = 0; i < 5; ++i) r = Idle(r, 1, kC);
  EXPECT_NEAR(Idle(p, 5, kC).rd, r.rd, 1e-9);
  // No games at all is the same as Idle.
  const Player u = Update(p, {}, kC);
  EXPECT_EQ(u.rd, q.rd);
  EXPECT_EQ(u.rating, p.rating);
  // Bounded by max_rd, and periods <= 0 or NaN do nothing beyond clamping.
  EXPECT_EQ(Idle(p, 1e9, kC).rd, kC.max_rd);
  EXPECT_EQ(Idle(p, 0, kC).rd, 200);
  EXPECT_EQ(Idle(p, -3, kC).rd, 200);
  EXPECT_EQ(Idle(p, std::nan(""), kC).rd, 200);
  EXPECT_EQ(Idle(p, std::numeric_limits<double>::infinity(), kC).rd, kC.max_rd);
}

TEST(Bounds, RdStaysWithinMinAndMax) {
  // Heavy evidence (weight 100 per period) would drive RD below 30 (to about 18):
  // it stops at min_rd.
  Player p{1500, 60, 0.06};
  for (int i = 0; i < 20; ++i) p = Update(p, {{1500, 30, 0.5, 100}}, kC);
  EXPECT_EQ(p.rd, kC.min_rd);
  // An RD above max_rd is treated as max_rd, in the player and in opponents.
  const Player wild = Update({1500, 900, 0.06}, {{1500, 2000, 1, 1}}, kC);
  const Player capped = Update({1500, 350, 0.06}, {{1500, 350, 1, 1}}, kC);
  EXPECT_EQ(wild.rating, capped.rating);
  EXPECT_EQ(wild.rd, capped.rd);
  EXPECT_LE(wild.rd, kC.max_rd);
  // Custom bounds.
  Config c;
  c.min_rd = 80;
  c.max_rd = 250;
  Player q{1500, 10, 0.06};
  q = Update(q, {{1500, 90, 1, 1}}, c);
  EXPECT_GE(q.rd, 80);
  EXPECT_EQ(Idle({1500, 240, 0.5}, 10, c).rd, 250);
}

}  // namespace
}  // namespace tablero::glicko2
