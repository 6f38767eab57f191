// Placeholder until the checkers engine lands: honest UNIMPLEMENTED answers.
#include "libs/checkers/checkers.h"

namespace tablero::checkers {

const game::GameInfo& Info() {
  static const game::GameInfo* info = [] {
    auto* i = new game::GameInfo;
    i->kind = game::Kind::kCheckers;
    i->name = "checkers";
    return i;
  }();
  return *info;
}

absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams&) {
  return absl::UnimplementedError("checkers engine not implemented yet");
}

absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams&,
                                                         absl::string_view) {
  return absl::UnimplementedError("checkers engine not implemented yet");
}

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t, absl::string_view) {
  return absl::UnimplementedError("checkers engine not implemented yet");
}

}  // namespace tablero::checkers
