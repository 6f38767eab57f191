// The ApplyMove answer written straight in protobuf wire format from the engine's
// structures, without building the tablero.v1 messages first: an answer holds one message
// and two strings per piece, and building them on the arena, sizing and serializing them
// cost the server more than the game's own work (benchmarks/README-rules.md). The bytes
// are exactly what ApplyMoveResponse::SerializeAsString() gives for the same answer
// (fields in number order, proto3 defaults omitted, repeated scalars packed); the test
// services/rules/tests/wire_test.cc holds the two to that on games of every kind.
#ifndef TABLERO_SERVICES_RULES_WIRE_H_
#define TABLERO_SERVICES_RULES_WIRE_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "libs/game/game.h"

namespace tablero::rules {

// Appends a tablero.v1.ApplyMoveResponse{state, view, events, result, move} to `out`; the
// view's pieces are `pieces` (view.pieces is not read), of a game of `kind` (whose piece
// codes index the per-thread cache of their bytes; kUnknown: no cache).
void AppendApplyMoveResponse(absl::string_view state, game::Kind kind, const game::PublicView& view,
                             const std::vector<game::PieceRef>& pieces,
                             const std::vector<game::Event>& events, const game::Result& result,
                             const game::Move& move, std::string* out);

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_WIRE_H_
