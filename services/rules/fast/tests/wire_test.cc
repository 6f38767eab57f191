// The fast ApplyMove (RulesService::ApplyMoveBytes, what the server sends) against the
// plain one (ApplyMove, serialized by protobuf): byte for byte the same answer, on random
// games of every kind, with text and structured moves (the request read in place, or by
// protobuf), and the same status when the move is refused.
#include "services/rules/fast/wire.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "services/rules/rules_service.h"

namespace tablero::rules::fast {
namespace {

void PlayRandomGames(v1::GameKind kind, int games, int seats) {
  RulesService svc(0);
  std::mt19937 rng(static_cast<uint32_t>(kind) * 977 + seats);
  int compared = 0;
  for (int g = 0; g < games; ++g) {
    grpc::ServerContext nctx;
    v1::NewGameRequest nreq;
    nreq.set_kind(kind);
    nreq.set_seats(seats);
    v1::NewGameResponse nresp;
    ASSERT_TRUE(svc.NewGame(&nctx, &nreq, &nresp).ok());
    std::string state = nresp.state();
    for (int ply = 0; ply < 400; ++ply) {
      grpc::ServerContext lctx;
      v1::LegalMovesRequest lreq;
      lreq.set_kind(kind);
      lreq.set_state(state);
      v1::LegalMovesResponse lresp;
      ASSERT_TRUE(svc.LegalMoves(&lctx, &lreq, &lresp).ok());
      if (lresp.moves_size() == 0) break;
      const v1::Move& m = lresp.moves(rng() % lresp.moves_size());
      v1::ApplyMoveRequest req;
      req.set_kind(kind);
      req.set_state(state);
      if (rng() % 4 == 0) {
        *req.mutable_structured() = m;
      } else {
        req.set_move_text(rng() % 2 ? m.display() : m.notation());
      }
      if (rng() % 2) req.mutable_expected_ply()->set_value(lresp.ply());
      grpc::ServerContext actx, wctx;
      v1::ApplyMoveResponse typed;
      ASSERT_TRUE(svc.ApplyMove(&actx, &req, &typed).ok());
      std::string wire = "prefix";  // appended, not overwritten
      ASSERT_TRUE(svc.ApplyMoveBytes(&wctx, req.SerializeAsString(), &wire).ok());
      ASSERT_EQ(wire.substr(0, 6), "prefix");
      ASSERT_EQ(wire.substr(6), typed.SerializeAsString()) << "ply " << ply;
      v1::ApplyMoveResponse parsed;
      ASSERT_TRUE(parsed.ParseFromString(wire.substr(6)));
      ++compared;
      if (typed.result().over()) break;
      state = typed.state();
    }
  }
  EXPECT_GT(compared, 10);
}

TEST(Wire, ChessGames) { PlayRandomGames(v1::GAME_KIND_CHESS, 6, 2); }
TEST(Wire, Shogi4Games) { PlayRandomGames(v1::GAME_KIND_SHOGI4, 3, 4); }
TEST(Wire, CheckersGames) {
  for (int seats : {2, 3, 4, 6}) PlayRandomGames(v1::GAME_KIND_CHECKERS, 1, seats);
}

TEST(Wire, RefusalsMatch) {
  RulesService svc(0);
  grpc::ServerContext nctx;
  v1::NewGameRequest nreq;
  nreq.set_kind(v1::GAME_KIND_CHESS);
  v1::NewGameResponse nresp;
  ASSERT_TRUE(svc.NewGame(&nctx, &nreq, &nresp).ok());
  for (const char* text : {"e2e5", "zz", ""}) {
    v1::ApplyMoveRequest req;
    req.set_kind(v1::GAME_KIND_CHESS);
    req.set_state(nresp.state());
    if (*text) req.set_move_text(text);
    grpc::ServerContext a, b;
    v1::ApplyMoveResponse typed;
    std::string wire;
    grpc::Status s1 = svc.ApplyMove(&a, &req, &typed),
                 s2 = svc.ApplyMoveBytes(&b, req.SerializeAsString(), &wire);
    EXPECT_FALSE(s1.ok());
    EXPECT_EQ(s1.error_code(), s2.error_code());
    EXPECT_EQ(s1.error_message(), s2.error_message());
    EXPECT_TRUE(wire.empty());
  }
}

TEST(Wire, LongAndNegativeFields) {
  // Lengths over 127 bytes (a two-byte length) and negative int32 (ten-byte varints).
  game::PublicView v;
  v.position = std::string(300, 'p');
  v.to_move = -1;
  v.pieces.push_back({"a1", "K", -1, -1, true});
  v.pieces.push_back({std::string(60, 'q'), std::string(40, 't'), 3, 2, false});  // slow path
  v.pieces.push_back({"", "", 0, 0, false});
  v.hands = {{{"P", 3}, {"G", 0}}, {}};
  v.in_check = {0, 2};
  v.active = {true, false};
  v.draw_offer_by = 0;
  game::Move m;
  m.seat = 1;
  m.path = {"", "b2"};
  m.notation = std::string(200, 'n');
  v.last_move = m;
  std::vector<game::Event> events = {{game::EventType::kCapture, 0, -1, "q"}};
  game::Result r;
  r.over = true;
  r.places = {1, 0, 300};
  r.reason = "checkmate";
  ApplyAnswer a;
  a.state = std::string(5000, 's');
  a.view = v;
  for (const game::PieceView& p : v.pieces)
    a.pieces.push_back({p.square, p.type, p.owner, p.facing, p.flipped});
  a.events = events;
  a.result = r;
  a.move = m;
  std::string wire;
  AppendApplyMoveResponse(a, &wire);
  v1::ApplyMoveResponse parsed;
  ASSERT_TRUE(parsed.ParseFromString(wire));
  EXPECT_EQ(parsed.SerializeAsString(), wire);
  EXPECT_EQ(parsed.state().size(), 5000u);
  EXPECT_EQ(parsed.view().to_move(), -1);
  EXPECT_EQ(parsed.view().pieces(0).owner(), -1);
  EXPECT_TRUE(parsed.view().pieces(0).flipped());
  EXPECT_EQ(parsed.view().pieces(0).facing(), 0);  // -1, no facing: left unset
  ASSERT_EQ(parsed.view().pieces_size(), 3);
  EXPECT_EQ(parsed.view().pieces(1).square(), std::string(60, 'q'));
  EXPECT_EQ(parsed.view().pieces(1).facing(), 2);
  EXPECT_EQ(parsed.view().pieces(2).ByteSizeLong(), 0u);
  ASSERT_EQ(parsed.view().hands_size(), 2);
  EXPECT_EQ(parsed.view().hands(0).pieces_size(), 1);  // a count of 0 is not listed
  EXPECT_EQ(parsed.view().hands(1).seat(), 1);
  EXPECT_TRUE(parsed.view().has_draw_offer_by());
  EXPECT_EQ(parsed.view().last_move().path(0), "");
  EXPECT_EQ(parsed.view().position(), v.position);
  EXPECT_EQ(parsed.events(0).other(), -1);
  EXPECT_EQ(parsed.result().places(2), 300);
  EXPECT_EQ(parsed.move().notation(), m.notation);
}

}  // namespace
}  // namespace tablero::rules::fast
