#include "libs/bot/levels.h"

namespace tablero::bot {

namespace {

// Lower levels are weaker by depth and node limits first, then by noise that makes them
// misjudge positions consistently, and at the bottom by the odd random move.
constexpr LevelSpec kLevels[kMaxLevel] = {
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

}  // namespace

const LevelSpec& Level(int level) { return kLevels[level - 1]; }

}  // namespace tablero::bot
