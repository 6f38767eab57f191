// What each level (1 = beginner ... 10 = strongest) means for a game's search: how deep and
// how many nodes it may look, how much deterministic noise spoils its evaluation, how often
// it plays a random legal move, and the thinking time used when a caller gives none. Each
// game has its own table: a step of depth or nodes is worth a different amount in each;
// Chinese Checkers has three: two players, three, and four or more.
#ifndef TABLERO_LIBS_BOT_LEVELS_H_
#define TABLERO_LIBS_BOT_LEVELS_H_

#include <cstdint>

#include "libs/game/game.h"

namespace tablero::bot {

inline constexpr int kMinLevel = 1, kMaxLevel = 10;

struct LevelSpec {
  int max_depth;          // in the game's search's own units (chess plies, shogi4 plies of
                          // one seat each, Chinese Checkers layers)
  uint64_t max_nodes;     // 0 = limited by time only (level 10)
  int noise_cp;           // +/- evaluation noise in the game's evaluation units
  int random_permille;    // chance of a random legal move, per thousand
  int default_budget_ms;  // used when the request's budget is 0
};

// Chess levels from this one up play the learnt evaluation: the network the bot ships
// (chess_net.inc), the tuned table (chess_eval_tuned.inc) where the network does not apply
// or none ships; those below play the handcrafted table their steps were calibrated with.
inline constexpr int kChessLearntEvalLevel = 8;

// `level` must be within [kMinLevel, kMaxLevel]; `seats` is the position's seat count
// (Chinese Checkers has a table for 2, for 3, for 4 and for 5+ seats). A kind without a table of
// its own (a game played by the generic search) uses chess's.
const LevelSpec& Level(game::Kind kind, int level, int seats);

// Approximate Elo of a level, for players choosing an opponent; 0 where none is measured.
// Chess: Stockfish 15.1's UCI_Elo scale (CCRL 40/4), from benchmarks/bot/elo.sh (the table
// and how it was played are in benchmarks/bot/README.md, "Elo of the chess levels").
// Four-player shogi and Chinese Checkers have no outside engine to anchor a scale: 0.
int ApproxElo(game::Kind kind, int level);

// With a seed, level 10 of chess and Chinese Checkers is bounded by nodes rather than by
// the clock so that the same seed, state and budget give the same move: budget_ms *
// kSeededNodesPerMs nodes (about what these searches visit per millisecond on a modest
// core; the clock still stops them).
inline constexpr uint64_t kSeededNodesPerMs = 250;

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_LEVELS_H_
