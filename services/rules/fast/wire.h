// The ApplyMove answer written straight in protobuf wire format from the engine's
// structures (game::WireView), without building the tablero.v1 messages first: an answer
// holds one message and two strings per piece, and building them on the arena, sizing and
// serializing them cost the server more than the game's own work (fast_path.h). The bytes
// are exactly what ApplyMoveResponse::SerializeAsString() gives for the same answer
// (fields in number order, proto3 defaults omitted, repeated scalars packed); the test
// services/rules/fast/tests/wire_test.cc holds the two to that on games of every kind.
#ifndef TABLERO_SERVICES_RULES_FAST_WIRE_H_
#define TABLERO_SERVICES_RULES_FAST_WIRE_H_

#include <string>
#include <vector>

#include "libs/game/game.h"
#include "libs/game/wire_view.h"

namespace tablero::rules::fast {

// Everything an ApplyMove answer holds, before it becomes wire bytes. The handler keeps
// one per thread, so that its vectors and strings keep their room from call to call.
struct ApplyAnswer {
  std::string state;
  game::PublicView view;  // without its pieces: they are in `pieces`
  std::vector<game::PieceRef> pieces;
  // The game's kind: its piece codes index the per-thread cache of their bytes (kUnknown:
  // no cache).
  game::Kind kind = game::Kind::kUnknown;
  std::vector<game::Event> events;
  game::Result result;
  game::Move move;
  // Ready for the next answer, keeping the room of the view's vectors.
  void Clear();
};

// Appends `answer` as a tablero.v1.ApplyMoveResponse{state, view, events, result, move} to
// `out`; the view's pieces are answer.pieces (answer.view.pieces is not read).
void AppendApplyMoveResponse(const ApplyAnswer& answer, std::string* out);

}  // namespace tablero::rules::fast

#endif  // TABLERO_SERVICES_RULES_FAST_WIRE_H_
