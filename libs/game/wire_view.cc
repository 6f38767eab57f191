#include "libs/game/wire_view.h"

namespace tablero::game {

Move& ReusedLastMove(PublicView* view) {
  if (!view->last_move) return view->last_move.emplace();
  Move& m = *view->last_move;
  m.seat = -1;
  m.path.clear();
  m.drop.clear();
  m.promotion.clear();
  m.notation.clear();
  m.display.clear();
  return m;
}

std::vector<PieceView> ToPieceViews(const std::vector<PieceRef>& refs) {
  std::vector<PieceView> out;
  out.reserve(refs.size());
  for (const PieceRef& p : refs) {
    out.push_back({std::string(p.square), std::string(p.type), p.owner, p.facing, p.flipped});
  }
  return out;
}

PublicView ViewFromRefs(const WireView& game) {
  PublicView v;
  std::vector<PieceRef> refs;
  game.ViewRefs(&v, &refs);
  v.pieces = ToPieceViews(refs);
  return v;
}

}  // namespace tablero::game
