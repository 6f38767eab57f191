// The registry of all games: the one place that knows every engine. Services create,
// restore and describe games only through these functions.
#ifndef TABLERO_LIBS_GAMES_GAMES_H_
#define TABLERO_LIBS_GAMES_GAMES_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/game/game.h"
#include "libs/game/wire_view.h"

namespace tablero::games {

// Every game's description (kinds, seat ranges, option tables), in Kind order.
std::vector<const game::GameInfo*> AllGames();
absl::StatusOr<const game::GameInfo*> Info(game::Kind kind);

// Checks kind, seat count (0 = the minimum) and options, then creates the game.
absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams& params);
absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams& params,
                                                         absl::string_view text);
// Restores a game from Game::Encode bytes. If `expect` is not kUnknown, a state of another
// kind is refused. Corrupted or foreign bytes are INVALID_ARGUMENT, never trusted.
absl::StatusOr<std::unique_ptr<game::Game>> Decode(absl::string_view bytes,
                                                   game::Kind expect = game::Kind::kUnknown);

// The game::WireView beside `game` (every engine has one), or null for a game no engine
// here made.
const game::WireView* WireViewOf(const game::Game& game);

}  // namespace tablero::games

#endif  // TABLERO_LIBS_GAMES_GAMES_H_
