#include "libs/bot/bot.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "absl/strings/str_cat.h"
#include "libs/bot/choosers.h"
#include "libs/bot/levels.h"

namespace tablero::bot {

absl::StatusOr<Choice> ChooseMove(const game::Game& game, const Request& request) {
  if (request.level < kMinLevel || request.level > kMaxLevel) {
    return absl::InvalidArgumentError(
        absl::StrCat("level: ", request.level, " is outside ", kMinLevel, "..", kMaxLevel));
  }
  if (request.budget_ms <= 0) return absl::InvalidArgumentError("budget_ms: must be positive");
  if (game.result().over || game.to_move() < 0)
    return absl::FailedPreconditionError("the game is over");
  uint64_t seed = request.seed;
  if (seed == 0) {
    std::random_device rd;
    seed = (uint64_t(rd()) << 32 | rd()) | 1;
  }
  const bool seeded = request.seed != 0;
  Request r = request;
  const auto now = std::chrono::steady_clock::now();
  if (r.arrival == std::chrono::steady_clock::time_point{} || r.arrival > now) r.arrival = now;
  switch (game.kind()) {
    case game::Kind::kChess:
      return ChooseChess(game, r, seed, seeded);
    case game::Kind::kShogi4: {
      // Its search times itself from its own start: give it only what is left.
      const int64_t waited =
          std::chrono::duration_cast<std::chrono::milliseconds>(now - r.arrival).count();
      r.budget_ms = int(std::max<int64_t>(1, r.budget_ms - waited));
      return ChooseShogi4(game, r, seed, seeded);
    }
    case game::Kind::kCheckers:
      return ChooseCheckers(game, r, seed, seeded);
    default:
      return ChooseGeneric(game, r, seed, seeded);
  }
}

}  // namespace tablero::bot
