// The one table of game kinds: the contract's tablero.v1.GameKind, the engines'
// game::Kind and the name in metric labels, logs and the terminal client ("chess",
// "shogi4", "checkers", spelled once, by game::KindName; SQL columns and pool keys keep the
// GameKind number). Every conversion between them goes through here and is checked:
// GAME_KIND_UNSPECIFIED and numbers no row has (a client's open proto3 enum, a database
// column) give nullopt or INVALID_ARGUMENT, never an out-of-range enum. A new GameKind
// value needs a row (kinds_test fails without one).
#ifndef TABLERO_LIBS_GAMES_KINDS_H_
#define TABLERO_LIBS_GAMES_KINDS_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/game/game.h"
#include "tablero/v1/common.pb.h"

namespace tablero::games {

struct KindRow {
  v1::GameKind proto;
  game::Kind engine;
};

// Every game, in GameKind order.
inline constexpr KindRow kKinds[] = {
    {v1::GAME_KIND_CHESS, game::Kind::kChess},
    {v1::GAME_KIND_SHOGI4, game::Kind::kShogi4},
    {v1::GAME_KIND_CHECKERS, game::Kind::kCheckers},
};

// Arrays indexed by a GameKind number (slot 0, UNSPECIFIED, unused) need this many slots.
inline constexpr int kKindSlots = [] {
  int most = 0;
  for (const KindRow& row : kKinds) most = row.proto > most ? row.proto : most;
  return most + 1;
}();

// The engine kind of a GameKind number; nullopt for UNSPECIFIED and unknown numbers.
constexpr std::optional<game::Kind> EngineKind(int proto_number) {
  for (const KindRow& row : kKinds) {
    if (row.proto == proto_number) return row.engine;
  }
  return std::nullopt;
}

// The GameKind of a number (e.g. a smallint column); nullopt unless a row has it.
constexpr std::optional<v1::GameKind> ProtoKind(int proto_number) {
  for (const KindRow& row : kKinds) {
    if (row.proto == proto_number) return row.proto;
  }
  return std::nullopt;
}

// The GameKind of an engine kind; GAME_KIND_UNSPECIFIED for Kind::kUnknown.
constexpr v1::GameKind ToProto(game::Kind kind) {
  for (const KindRow& row : kKinds) {
    if (row.engine == kind) return row.proto;
  }
  return v1::GAME_KIND_UNSPECIFIED;
}

// EngineKind for a request's `kind` field: INVALID_ARGUMENT naming the field and the
// accepted values when no row has it.
absl::StatusOr<game::Kind> KindFromProto(int proto_number);
// The INVALID_ARGUMENT KindFromProto gives for `proto_number` (out of line: error paths
// stay off the callers' hot paths).
absl::Status UnknownKindError(int proto_number);

// "chess", "shogi4", "checkers" (game::KindName); "unknown" for any other number.
absl::string_view KindName(v1::GameKind kind);
// The GameKind named `name` (KindName's spelling); nullopt for any other text.
std::optional<v1::GameKind> ProtoKindNamed(absl::string_view name);

}  // namespace tablero::games

#endif  // TABLERO_LIBS_GAMES_KINDS_H_
