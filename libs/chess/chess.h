// Entry points of the chess engine, used by libs/games (the registry). Everything else
// about the engine stays behind game::Game.
#ifndef TABLERO_LIBS_CHESS_CHESS_H_
#define TABLERO_LIBS_CHESS_CHESS_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/game/game.h"
#include "libs/game/wire_view.h"

namespace tablero::chess {

const game::GameInfo& Info();
// A new game from the start position. params.options are resolved against Info().
absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams& params);
// A game from position text (engine's notation), with options and seat count as above.
absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams& params,
                                                         absl::string_view text);
// Decodes a payload produced by Game::Encode (the envelope already checked by the caller).
absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version, absl::string_view payload);
// The game::WireView of `game`, a game of this engine (its kind() says so).
const game::WireView& WireViewOf(const game::Game& game);

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_CHESS_H_
