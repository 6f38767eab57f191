// What each level (1 = beginner ... 10 = strongest) means for the searches: how deep and
// how many nodes they may look, how much deterministic noise spoils their evaluation, how
// often they play a random legal move, and the thinking time used when a caller gives none.
#ifndef TABLERO_LIBS_BOT_LEVELS_H_
#define TABLERO_LIBS_BOT_LEVELS_H_

#include <cstdint>

namespace tablero::bot {

inline constexpr int kMinLevel = 1, kMaxLevel = 10;

struct LevelSpec {
  int max_depth;          // plies (chess); other games scale it down
  uint64_t max_nodes;     // 0 = limited by time only (level 10)
  int noise_cp;           // +/- evaluation noise in centipawn-like units
  int random_permille;    // chance of a random legal move, per thousand
  int default_budget_ms;  // used when the request's budget is 0
};

// `level` must be within [kMinLevel, kMaxLevel].
const LevelSpec& Level(int level);

// With a seed, level 10 of chess and Chinese Checkers is bounded by nodes rather than by
// the clock so that the same seed, state and budget give the same move: budget_ms *
// kSeededNodesPerMs nodes (about what these searches visit per millisecond on a modest
// core; the clock still stops them).
inline constexpr uint64_t kSeededNodesPerMs = 250;

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_LEVELS_H_
