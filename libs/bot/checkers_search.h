// Internal: the Chinese Checkers search behind ChooseMove (checkers_search.cc), exposed for
// its tests.
#ifndef TABLERO_LIBS_BOT_CHECKERS_SEARCH_H_
#define TABLERO_LIBS_BOT_CHECKERS_SEARCH_H_

#include <cstdint>

#include "libs/bot/clock.h"
#include "libs/checkers/state.h"

namespace tablero::bot {

struct CheckersLimits {
  int max_depth = 3;       // layers (the bot's and the rivals' alternate)
  uint64_t max_nodes = 0;  // 0 = no bound
  int noise = 0;           // +/- noise on each root move's score
  uint64_t seed = 0;       // the noise's
  // Level 10: the iteration the limit interrupts still counts. Its first move is the best
  // so far, searched first; a move that beats it there is better. Otherwise (levels 1-9)
  // the last completed iteration's move is played.
  bool keep_partial = false;
};

struct CheckersResult {
  uint8_t from = 0, to = 0;
  int score = 0;
  int depth = 0;  // deepest completed iteration
  uint64_t nodes = 0;
  bool partial = false;  // the move is from the interrupted iteration (keep_partial)
};

// The move of seat `me` (to move in `root`, which has a legal move).
CheckersResult SearchCheckers(const checkers::State& root, int me, const CheckersLimits& limits,
                              SearchClock clock);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHECKERS_SEARCH_H_
