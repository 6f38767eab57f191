// Perft: fixed node counts of the engine, agreed by the reference model at the depths it
// can afford here (deeper ones in the slow test).
#include <gtest/gtest.h>

#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"
#include "libs/shogi4/tests/perft_cases.h"
#include "libs/shogi4/tests/reference.h"

namespace tablero::shogi4::testing {
namespace {

constexpr uint64_t kEngineBudget = 2'000'000;  // leaves per count in the fast test
constexpr uint64_t kReferenceBudget = 1000;

Position Load(const PerftCase& c) {
  Rules rules;
  rules.ending = c.last_one_standing ? Ending::kLastOneStanding : Ending::kTwoMates;
  rules.ownerless = c.ownerless;
  if (c.position == nullptr) return StartPosition(rules, 0);
  auto pos = ParsePosition(c.position, rules);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return *pos;
}

ref::Pos LoadRef(const Position& pos, const PerftCase& c) {
  ref::Options o;
  o.last_one_standing = c.last_one_standing;
  o.ownerless = c.ownerless;
  ref::Pos p;
  EXPECT_TRUE(ref::Parse(PositionText(pos), o, &p));
  return p;
}

TEST(Perft, FirstFourDepthsFromTheStartAreNinePowers) {
  Position pos = StartPosition(Rules(), 0);
  uint64_t n = 1;
  for (int d = 1; d <= 4; ++d) {
    n *= 9;
    EXPECT_EQ(Perft(pos, d), n) << "depth " << d;
  }
}

TEST(Perft, FixedCountsOfTheEngine) {
  for (const PerftCase& c : PerftCases()) {
    Position pos = Load(c);
    for (size_t d = 1; d <= c.counts.size(); ++d) {
      if (c.counts[d - 1] > kEngineBudget) break;
      EXPECT_EQ(Perft(pos, static_cast<int>(d)), c.counts[d - 1]) << c.name << " depth " << d;
    }
  }
}

TEST(Perft, ReferenceAgrees) {
  for (const PerftCase& c : PerftCases()) {
    Position pos = Load(c);
    ref::Pos r = LoadRef(pos, c);
    // The reference's cost grows with the number of inner nodes (counts[d - 2]).
    for (size_t d = 1; d <= c.counts.size(); ++d) {
      if (d >= 2 && c.counts[d - 2] > kReferenceBudget) break;
      EXPECT_EQ(ref::Perft(r, static_cast<int>(d)), c.counts[d - 1]) << c.name << " depth " << d;
    }
  }
}

}  // namespace
}  // namespace tablero::shogi4::testing
