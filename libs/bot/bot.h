// The bot library: a move for the seat to move in any game, at a level, within a budget.
// Chess has its own searcher (chess_search.h); four-player shogi and Chinese Checkers go
// through the game-specific searchers in this folder when there is one, else through the
// generic search over game::Game (generic_search.h).
#ifndef TABLERO_LIBS_BOT_BOT_H_
#define TABLERO_LIBS_BOT_BOT_H_

#include <chrono>
#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "libs/game/game.h"

namespace tablero::bot {

struct Request {
  int level = 10;     // 1..10
  int budget_ms = 0;  // > 0: hard thinking limit (the caller resolves defaults and caps)
  uint64_t seed = 0;  // 0 = nondeterministic
  // When the request arrived: the budget counts from here, so time spent waiting before
  // ChooseMove (decoding, a queue) is not thought again. Default: when ChooseMove is called.
  std::chrono::steady_clock::time_point arrival{};
  // false: with a seed, the chess and Chinese Checkers searches stop by their node budgets
  // alone, never by the clock, so the move does not depend on the machine's load (for
  // benchmarks; a service must answer on time). Ignored without a seed.
  bool use_clock = true;
  // > 0 (four-player shogi only): no iteration deeper than this nor than the level's depth;
  // for benchmarks that time searches to a fixed depth (with a budget that does not stop
  // them).
  int max_depth = 0;
  // Set by a service: true once the answer is no longer wanted (the caller cancelled, or
  // the server drains). A clocked search asks about once a millisecond and then answers
  // at once with the best move it has.
  std::function<bool()> cancelled;
};

struct Choice {
  game::Move move;  // legal in the given game, every field filled
  int eval = 0;     // from the mover's side; mates as +/-(kMateEval - plies)
  int depth = 0;    // deepest completed iteration (0: random move)
  uint64_t nodes = 0;
};

inline constexpr int kMateEval = 1000000;

// INVALID_ARGUMENT for a level outside 1..10 or a budget <= 0; FAILED_PRECONDITION when
// the game is over.
absl::StatusOr<Choice> ChooseMove(const game::Game& game, const Request& request);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_BOT_H_
