// Placeholder until the shogi4 engine lands: honest UNIMPLEMENTED answers.
#include "libs/shogi4/shogi4.h"

namespace tablero::shogi4 {

const game::GameInfo& Info() {
  static const game::GameInfo* info = [] {
    auto* i = new game::GameInfo;
    i->kind = game::Kind::kShogi4;
    i->name = "shogi4";
    return i;
  }();
  return *info;
}

absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams&) {
  return absl::UnimplementedError("shogi4 engine not implemented yet");
}

absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams&,
                                                         absl::string_view) {
  return absl::UnimplementedError("shogi4 engine not implemented yet");
}

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t, absl::string_view) {
  return absl::UnimplementedError("shogi4 engine not implemented yet");
}

}  // namespace tablero::shogi4
