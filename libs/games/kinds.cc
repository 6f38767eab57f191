#include "libs/games/kinds.h"

#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"

namespace tablero::games {

absl::Status UnknownKindError(int proto_number) {
  // "GAME_KIND_CHESS, GAME_KIND_SHOGI4 or GAME_KIND_CHECKERS"
  std::string accepted;
  const int rows = static_cast<int>(std::size(kKinds));
  for (int i = 0; i < rows; ++i) {
    absl::StrAppend(&accepted,
                    i == 0          ? ""
                    : i + 1 == rows ? " or "
                                    : ", ",
                    v1::GameKind_Name(kKinds[i].proto));
  }
  return absl::InvalidArgumentError(absl::StrCat("kind: ",
                                                 proto_number == v1::GAME_KIND_UNSPECIFIED
                                                     ? "unspecified"
                                                     : absl::StrCat("unknown value ", proto_number),
                                                 " (use ", accepted, ")"));
}

absl::StatusOr<game::Kind> KindFromProto(int proto_number) {
  if (auto kind = EngineKind(proto_number)) return *kind;
  return UnknownKindError(proto_number);
}

absl::string_view KindName(v1::GameKind kind) {
  auto engine = EngineKind(kind);
  return engine ? game::KindName(*engine) : "unknown";
}

std::optional<v1::GameKind> ProtoKindNamed(absl::string_view name) {
  for (const KindRow& row : kKinds) {
    if (game::KindName(row.engine) == name) return row.proto;
  }
  return std::nullopt;
}

}  // namespace tablero::games
