#include "libs/bot/levels.h"

namespace tablero::bot {

namespace {

using Table = LevelSpec[kMaxLevel];

// Lower levels are weaker by depth and node limits first, then by noise that makes them
// misjudge positions consistently, and at the bottom by the odd random move. Level 10 is
// bounded by the clock (by budget_ms * kSeededNodesPerMs nodes when seeded).
constexpr Table kChess = {
    {1, 2000, 250, 250, 300},   // 1
    {1, 4000, 150, 120, 300},   // 2
    {2, 10000, 100, 50, 400},   // 3
    {3, 30000, 70, 20, 500},    // 4
    {4, 80000, 45, 0, 600},     // 5
    {5, 200000, 30, 0, 800},    // 6
    {6, 500000, 15, 0, 1000},   // 7
    {8, 1200000, 8, 0, 1500},   // 8
    {12, 3000000, 0, 0, 2000},  // 9
    {100, 0, 0, 0, 3000},       // 10
};

// Four-player shogi: levels 1-9 search paranoid (three rivals against us), level 10
// best-reply (choosers in shogi4_search.cc).
constexpr Table kShogi4 = {
    {1, 500, 250, 250, 300},   // 1
    {1, 1000, 150, 120, 300},  // 2
    {2, 2500, 100, 50, 400},   // 3
    {2, 7500, 70, 20, 500},    // 4
    {3, 20000, 45, 0, 600},    // 5
    {3, 50000, 30, 0, 800},    // 6
    {4, 125000, 15, 0, 1000},  // 7
    {5, 300000, 8, 0, 1500},   // 8
    {6, 750000, 0, 0, 2000},   // 9
    {8, 0, 0, 0, 3000},        // 10
};

// Chinese Checkers: noise is added to the root moves' scores only.
constexpr Table kCheckers = {
    {1, 250, 62, 250, 300},   // 1
    {1, 500, 37, 120, 300},   // 2
    {2, 1250, 25, 50, 400},   // 3
    {2, 3750, 17, 20, 500},   // 4
    {3, 10000, 11, 0, 600},   // 5
    {3, 25000, 7, 0, 800},    // 6
    {4, 62500, 3, 0, 1000},   // 7
    {5, 150000, 2, 0, 1500},  // 8
    {7, 375000, 0, 0, 2000},  // 9
    {7, 0, 0, 0, 3000},       // 10
};

}  // namespace

const LevelSpec& Level(game::Kind kind, int level) {
  switch (kind) {
    case game::Kind::kShogi4:
      return kShogi4[level - 1];
    case game::Kind::kCheckers:
      return kCheckers[level - 1];
    default:
      return kChess[level - 1];
  }
}

}  // namespace tablero::bot
