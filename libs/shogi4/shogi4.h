// Entry points of the shogi4 engine, used by libs/games (the registry). Everything else
// about the engine stays behind game::Game.
#ifndef TABLERO_LIBS_SHOGI4_SHOGI4_H_
#define TABLERO_LIBS_SHOGI4_SHOGI4_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/game/game.h"
#include "libs/game/wire_view.h"

namespace tablero::shogi4 {

const game::GameInfo& Info();
// A new game from the start position. params.options are resolved against Info().
absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams& params);
// A game from position text (engine's notation), with options and seat count as above.
absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams& params,
                                                         absl::string_view text);
// The state encoding Game::Encode writes (binary). Decode also reads version 1 (text).
inline constexpr uint8_t kStateVersion = 2;
// Decodes a payload produced by Game::Encode (the envelope already checked by the caller).
absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version, absl::string_view payload);
// The game::WireView of `game`, a game of this engine (its kind() says so).
const game::WireView& WireViewOf(const game::Game& game);

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_SHOGI4_H_
