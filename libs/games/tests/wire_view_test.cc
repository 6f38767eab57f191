// games::WireViewOf: every engine's game has its game::WireView, the very object (as a
// dynamic_cast finds it), and what it writes into reused buffers is what Game gives.
#include "libs/game/wire_view.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libs/games/games.h"

namespace tablero::games {
namespace {

void ExpectSameAsGame(const game::Game& g) {
  const game::WireView* wire = WireViewOf(g);
  ASSERT_NE(wire, nullptr);
  EXPECT_EQ(wire, dynamic_cast<const game::WireView*>(&g));
  std::string state = "old bytes";  // overwritten, not appended
  wire->EncodeInto(&state);
  EXPECT_EQ(state, g.Encode());
  game::Result result;
  result.reason = "old";
  wire->ResultInto(&result);
  const game::Result want = g.result();
  EXPECT_EQ(result.over, want.over);
  EXPECT_EQ(result.places, want.places);
  EXPECT_EQ(result.reason, want.reason);
  game::PublicView view;
  std::vector<game::PieceRef> pieces;
  wire->ViewRefs(&view, &pieces);
  EXPECT_TRUE(view.pieces.empty());
  const game::PublicView plain = g.View();
  ASSERT_EQ(pieces.size(), plain.pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_EQ(pieces[i].square, plain.pieces[i].square);
    EXPECT_EQ(pieces[i].type, plain.pieces[i].type);
    EXPECT_EQ(pieces[i].owner, plain.pieces[i].owner);
  }
  EXPECT_EQ(view.position, plain.position);
  EXPECT_EQ(view.to_move, plain.to_move);
  EXPECT_EQ(view.last_move.has_value(), plain.last_move.has_value());
}

TEST(WireViewOf, EveryEngineBeforeAndAfterAMove) {
  for (const game::GameInfo* info : AllGames()) {
    SCOPED_TRACE(game::KindName(info->kind));
    game::NewGameParams p;
    p.kind = info->kind;
    auto g = NewGame(p);
    ASSERT_TRUE(g.ok()) << g.status();
    ExpectSameAsGame(**g);
    const std::vector<game::Move> moves = (*g)->LegalMoves();
    ASSERT_FALSE(moves.empty());
    ASSERT_TRUE((*g)->Play(moves.front()).ok());
    ExpectSameAsGame(**g);
    auto decoded = Decode((*g)->Encode());
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ExpectSameAsGame(**decoded);
  }
}

}  // namespace
}  // namespace tablero::games
