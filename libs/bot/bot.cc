#include "libs/bot/bot.h"

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
  switch (game.kind()) {
    case game::Kind::kChess:
      return ChooseChess(game, request, seed, seeded);
    case game::Kind::kShogi4:
      return ChooseShogi4(game, request, seed, seeded);
    case game::Kind::kCheckers:
      return ChooseCheckers(game, request, seed, seeded);
    default:
      return ChooseGeneric(game, request, seed, seeded);
  }
}

}  // namespace tablero::bot
