// Fast differential test: a few hundred random playouts, engine vs reference model.
#include <cstdlib>

#include "libs/shogi4/tests/playout.h"

namespace tablero::shogi4::testing {
namespace {

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

TEST(Differential, RandomPlayoutsAgreeInEveryOptionCombination) {
  const int per_combo = EnvInt("SHOGI4_PLAYOUTS_PER_COMBO", 12);
  const int limit = EnvInt("SHOGI4_PLAYOUT_LIMIT", 120);
  PlayoutStats stats;
  uint32_t seed = 1;
  for (const Combo& c : AllCombos(limit)) {
    for (int i = 0; i < per_combo; ++i) {
      Playout(c, seed++, &stats);
      if (HasFatalFailure()) return;
    }
  }
  std::printf("games %d positions %d mates %d ended-with-mates %d\n", stats.games, stats.positions,
              stats.mates, stats.over_by_mates);
  EXPECT_GT(stats.mates, 0);
}

}  // namespace
}  // namespace tablero::shogi4::testing
