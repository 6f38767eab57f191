// The ApplyMove request as clients send it, parsed without protobuf's generic parser:
// measured on the server, parsing a ~300-900 byte request from gRPC's buffer cost more
// instructions than decoding the game state inside it (services/rules/fast/fast_path.h).
#ifndef TABLERO_SERVICES_RULES_FAST_REQUEST_H_
#define TABLERO_SERVICES_RULES_FAST_REQUEST_H_

#include <google/protobuf/arena.h>

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "tablero/v1/rules.pb.h"

namespace tablero::rules::fast {

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

// A request's bytes as the server takes them: read by ParseApplyMoveRequest, or by
// protobuf (on an arena whose first 16 KiB are a per-thread block) when they have another
// shape. The args point into the bytes or into the reader, which must outlive their use;
// one reader at a time per thread (a local of the handler).
class RequestReader {
 public:
  // False when the bytes are not a valid ApplyMoveRequest (malformed protobuf, or invalid
  // UTF-8 in a string field).
  bool Read(absl::string_view bytes, ApplyMoveArgs* args);

 private:
  std::optional<google::protobuf::Arena> arena_;  // made only for protobuf's parser
};

}  // namespace tablero::rules::fast

#endif  // TABLERO_SERVICES_RULES_FAST_REQUEST_H_
