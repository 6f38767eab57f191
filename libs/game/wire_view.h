// An optional interface an engine implements beside game::Game, for a writer that builds
// answers straight from the engine's own tables: the state, the view and the result into
// buffers the caller keeps from call to call, and the view's pieces as references into
// tables that live for the whole process, so that a view of 30-90 pieces builds no string
// per piece. The rules service's ApplyMove fast path (services/rules/fast/) writes its
// answers from it; everything else uses Game (Encode, View, result), which is the rules
// interface. The three engines implement both; games::WireViewOf finds it for a game.
#ifndef TABLERO_LIBS_GAME_WIRE_VIEW_H_
#define TABLERO_LIBS_GAME_WIRE_VIEW_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "libs/game/game.h"

namespace tablero::game {

// A PieceView whose names point into the engine's tables, which live for the whole
// process.
struct PieceRef {
  absl::string_view square;
  absl::string_view type;
  int owner = -1;
  int facing = -1;
  bool flipped = false;
  // Optional codes, -1 for none: within one engine, an equal square_code (0-255) promises
  // an equal square name and an equal piece_code (0-1023) equal type, owner, facing and
  // flipped, so that a writer may keep what it made of them (the rules service's answer
  // writer keeps each one's wire bytes).
  int square_code = -1;
  int piece_code = -1;
};

std::vector<PieceView> ToPieceViews(const std::vector<PieceRef>& refs);

// The view's last move, engaged and emptied (seat -1, no path, empty strings) but keeping
// the room of its path and strings: what WireView::ViewRefs fills it through.
Move& ReusedLastMove(PublicView* view);

class WireView {
 public:
  // Game::Encode() into `*out`, reusing its room.
  virtual void EncodeInto(std::string* out) const = 0;
  // Game::View() with its pieces as PieceRefs in `pieces`, in the same order;
  // view->pieces is left empty. A view kept from an earlier call may be passed (its
  // vectors cleared, last_move as it was): last_move is then set through ReusedLastMove,
  // or reset when there is none, so that its path and strings keep their room.
  virtual void ViewRefs(PublicView* view, std::vector<PieceRef>* pieces) const = 0;
  // Game::result() into `*out`, reusing the room of its places and reason.
  virtual void ResultInto(Result* out) const = 0;

 protected:
  ~WireView() = default;  // owned as the Game it is part of
};

// ViewRefs with the pieces made into PieceViews: how the engines implement Game::View().
PublicView ViewFromRefs(const WireView& game);

}  // namespace tablero::game

#endif  // TABLERO_LIBS_GAME_WIRE_VIEW_H_
