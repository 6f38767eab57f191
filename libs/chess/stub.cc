// Placeholder until the chess engine lands: honest UNIMPLEMENTED answers.
#include "libs/chess/chess.h"

namespace tablero::chess {

const game::GameInfo& Info() {
  static const game::GameInfo* info = [] {
    auto* i = new game::GameInfo;
    i->kind = game::Kind::kChess;
    i->name = "chess";
    return i;
  }();
  return *info;
}

absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams&) {
  return absl::UnimplementedError("chess engine not implemented yet");
}

absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams&,
                                                         absl::string_view) {
  return absl::UnimplementedError("chess engine not implemented yet");
}

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t, absl::string_view) {
  return absl::UnimplementedError("chess engine not implemented yet");
}

}  // namespace tablero::chess
