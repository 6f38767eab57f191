// Slow tests (label "slow"): 2,000 random playouts across every option combination
// compared move by move with the reference model, the deep perft counts, and the
// reference's agreement with them at greater depths.
#include <gtest/gtest.h>

#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"
#include "libs/shogi4/tests/perft_cases.h"
#include "libs/shogi4/tests/playout.h"
#include "libs/shogi4/tests/reference.h"

namespace tablero::shogi4::testing {
namespace {

// 2,000 playouts in all: 125 for each of the 16 option combinations (one test each, so
// that ctest can run them in parallel).
class DifferentialSlow : public ::testing::TestWithParam<int> {};

TEST_P(DifferentialSlow, PlayoutsAgree) {
  const std::vector<Combo> combos = AllCombos(200);
  ASSERT_EQ(combos.size(), 16u);
  const Combo& c = combos[GetParam()];
  PlayoutStats stats;
  uint32_t seed = 100000 + 1000 * static_cast<uint32_t>(GetParam());
  for (int i = 0; i < 125; ++i) {
    Playout(c, seed++, &stats);
    if (HasFatalFailure()) return;
  }
  std::printf("%s %s %s pawn=%s: games %d positions %d mates %d\n", c.format.c_str(),
              c.ending.c_str(), c.mated.c_str(), c.pawn.c_str(), stats.games, stats.positions,
              stats.mates);
  EXPECT_EQ(stats.games, 125);
  EXPECT_GT(stats.mates, 10);
}

INSTANTIATE_TEST_SUITE_P(Combos, DifferentialSlow, ::testing::Range(0, 16));

Position Load(const PerftCase& c) {
  Rules rules;
  rules.ending = c.last_one_standing ? Ending::kLastOneStanding : Ending::kTwoMates;
  rules.ownerless = c.ownerless;
  if (c.position == nullptr) return StartPosition(rules, 0);
  auto pos = ParsePosition(c.position, rules);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return *pos;
}

TEST(PerftSlow, EveryFixedCount) {
  for (const PerftCase& c : PerftCases()) {
    Position pos = Load(c);
    for (size_t d = 1; d <= c.counts.size(); ++d) {
      EXPECT_EQ(Perft(pos, static_cast<int>(d)), c.counts[d - 1]) << c.name << " depth " << d;
    }
  }
}

TEST(PerftSlow, ReferenceAgreesDeeper) {
  constexpr uint64_t kBudget = 100000;  // inner nodes the reference expands per count
  for (const PerftCase& c : PerftCases()) {
    Position pos = Load(c);
    ref::Options o;
    o.last_one_standing = c.last_one_standing;
    o.ownerless = c.ownerless;
    ref::Pos r;
    ASSERT_TRUE(ref::Parse(PositionText(pos), o, &r));
    for (size_t d = 2; d <= c.counts.size(); ++d) {
      if (c.counts[d - 2] > kBudget) break;
      EXPECT_EQ(ref::Perft(r, static_cast<int>(d)), c.counts[d - 1]) << c.name << " depth " << d;
    }
  }
}

}  // namespace
}  // namespace tablero::shogi4::testing
