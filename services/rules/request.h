// The ApplyMove request as clients send it, parsed without protobuf's generic parser:
// measured on the server (benchmarks/README-rules.md), parsing a ~300-900 byte request from
// gRPC's buffer cost more instructions than decoding the game state inside it.
#ifndef TABLERO_SERVICES_RULES_REQUEST_H_
#define TABLERO_SERVICES_RULES_REQUEST_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "tablero/v1/rules.pb.h"

namespace tablero::rules {

// An ApplyMove request as the handler reads it: views into the request's bytes, or into
// a parsed message (ArgsOf), which must outlive it.
struct ApplyMoveArgs {
  v1::GameKind kind = v1::GAME_KIND_UNSPECIFIED;
  absl::string_view state;
  v1::ApplyMoveRequest::MoveCase move_case = v1::ApplyMoveRequest::MOVE_NOT_SET;
  absl::string_view move_text;
  const v1::Move* structured = nullptr;  // set when move_case is kStructured
  std::optional<int32_t> expected_ply;
};

ApplyMoveArgs ArgsOf(const v1::ApplyMoveRequest& req);

// Reads `bytes` into `args` (views into `bytes`, nothing copied) when they have the common
// shape: kind, state, move_text (ASCII) and expected_ply {value}, each at most once, in
// any order. Anything else (a structured move, a field twice, an unknown field, other
// text) returns false: the caller then parses with protobuf and takes ArgsOf its
// message, so every request reads exactly as protobuf parses it.
bool ParseApplyMoveRequest(absl::string_view bytes, ApplyMoveArgs* args);

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_REQUEST_H_
