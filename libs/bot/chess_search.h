// The chess searcher: iterative deepening, principal variation search with aspiration
// windows, a transposition table, quiescence search (captures and promotions, SEE pruned;
// every evasion when in check; the table probed and stored there too, its move first and
// its bound correcting the stand-pat evaluation), check and singular extensions, null-move
// pruning, ProbCut, late move reductions (less for moves with a good history), reverse
// futility, futility and late-move pruning, razoring (reductions and pruning milder while the
// side's evaluation improves; the evaluation they go by corrected by the table's bound where
// tighter), and move ordering by hash move, captures by victim then capture history (those
// losing material by SEE below the killers), killers, countermove, history and continuation
// history (how a quiet piece-to move fared after the moves one and two plies back).
// The static evaluation (the thread's: chess_eval.h; a network's sums updated along the
// line searched) is corrected by a correction history (what the searches found it off by,
// per pawn structure). The histories and the correction carry over to the next
// search with the table (chess_memory.h).
// It works directly on libs/chess positions (copy-make) for speed.
#ifndef TABLERO_LIBS_BOT_CHESS_SEARCH_H_
#define TABLERO_LIBS_BOT_CHESS_SEARCH_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "libs/chess/position.h"

namespace tablero::bot {

inline constexpr int kChessMate = 31000;  // mate at the root; mate in n plies = kChessMate - n
inline constexpr int kChessMateBound = kChessMate - 512;  // |score| above this is a mate score

struct ChessLimits {
  int max_depth = 64;      // plies
  uint64_t max_nodes = 0;  // 0 = no node limit
  int64_t time_ms = 0;     // hard wall-clock limit from the search's start; 0 = none
  // If set, the hard limit is this instant instead (time_ms is then ignored).
  std::chrono::steady_clock::time_point deadline{};
  std::function<bool()> cancelled;  // with a deadline: stop once it says so (SearchClock)
  int noise_cp = 0;                 // +/- amplitude of the deterministic per-position eval noise
  uint64_t noise_seed = 0;          // selects the noise (weaker levels)
  // Keep what this thread's previous searches left in the transposition table and learnt
  // (move histories, the evaluation's correction history) (only for searches without
  // noise, and never when a repeatable answer is wanted: it makes the result depend on
  // earlier calls). A cache, not state: any of it may be lost any time.
  bool reuse_table = false;
};

struct ChessResult {
  chess::Move move;  // always legal when the position has a legal move
  int score = 0;     // centipawns from the side to move; mates as kChessMate - plies
  int depth = 0;     // deepest completed iteration
  uint64_t nodes = 0;
  bool stopped_by_time = false;
};

// `history` holds the keys of earlier positions of the game (oldest first) for repetition
// detection; the current position is not included. The position must have a legal move.
ChessResult SearchChess(const chess::Position& pos, const std::vector<uint64_t>& history,
                        const ChessLimits& limits);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_SEARCH_H_
