// The game::Game adapter: every ending in both draw modes, claims, offers, resignation,
// events, legal-move queries and PGN/FEN export. The encoded state and fuzzing:
// state_test.cc.
#include "libs/chess/game.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/chess/tests/game_test_util.h"

namespace tablero::chess {
namespace {

using game::Action;
using game::EventType;
using StatusCode = absl::StatusCode;

TEST(Info, DescribesChess) {
  const game::GameInfo& i = Info();
  EXPECT_EQ(i.name, "Chess");
  EXPECT_EQ(i.min_seats, 2);
  EXPECT_EQ(i.max_seats, 2);
  std::vector<std::string> names;
  for (const auto& o : i.options) names.push_back(o.name);
  EXPECT_EQ(names, (std::vector<std::string>{"draw_mode", "fide_resignation_exception",
                                             "show_legal_moves", "rotate_first_player"}));
  EXPECT_EQ(i.options[0].default_value, "site");
  EXPECT_EQ(i.options[1].default_value, "off");
  EXPECT_TRUE(i.options[2].room_level && i.options[3].room_level);
  EXPECT_EQ(i.options[3].description, "White alternates after each game in the same room");
}

TEST(Create, ChecksParams) {
  game::NewGameParams p;
  p.kind = game::Kind::kChess;
  p.first_seat = 1;
  EXPECT_EQ(NewGame(p).status().code(), StatusCode::kInvalidArgument);
  p.first_seat = 0;
  p.seats = 3;
  EXPECT_EQ(NewGame(p).status().code(), StatusCode::kInvalidArgument);
  p.seats = 2;
  p.options = {{"draw_mode", "lenient"}};
  EXPECT_EQ(NewGame(p).status().code(), StatusCode::kInvalidArgument);
  p.options = {{"speed", "fast"}};
  EXPECT_EQ(NewGame(p).status().code(), StatusCode::kInvalidArgument);
  p.options = {};
  EXPECT_EQ(FromPosition(p, "not a fen").status().code(), StatusCode::kInvalidArgument);
  auto g = NewGame(p);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ((*g)->options().at("draw_mode"), "site");
  EXPECT_EQ((*g)->options().at("show_legal_moves"), "on");
  EXPECT_EQ((*g)->seats(), 2);
  EXPECT_EQ((*g)->to_move(), 0);
}

TEST(Moves, LegalMovesAndQueries) {
  auto g = New();
  auto all = g->LegalMoves();
  EXPECT_EQ(all.size(), 20u);
  auto e2 = g->LegalMovesFrom("e2");
  ASSERT_TRUE(e2.ok());
  ASSERT_EQ(e2->size(), 2u);
  for (const auto& m : *e2) {
    EXPECT_EQ(m.seat, 0);
    EXPECT_EQ(m.path[0], "e2");
    EXPECT_TRUE(m.notation == "e2e3" || m.notation == "e2e4");
    EXPECT_EQ(m.display, m.notation.substr(2, 2));
  }
  EXPECT_TRUE(g->LegalMovesFrom("e4")->empty());  // empty square
  EXPECT_TRUE(g->LegalMovesFrom("e7")->empty());  // opponent's piece
  EXPECT_EQ(g->LegalMovesFrom("z9").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(g->LegalMovesFrom("e22").status().code(), StatusCode::kInvalidArgument);

  auto m = g->ParseMove("Nf3");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->notation, "g1f3");
  EXPECT_EQ(m->display, "Nf3");
  EXPECT_EQ(m->path, (std::vector<std::string>{"g1", "f3"}));
  EXPECT_EQ(g->ParseMove("e2e5").status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(g->ParseMove("e2e5").status().message().find("e2e5"), std::string::npos);
  EXPECT_EQ(g->ParseMove("hello").status().code(), StatusCode::kInvalidArgument);

  game::Move wrong = *m;
  wrong.seat = 1;
  EXPECT_EQ(g->Play(wrong).status().code(), StatusCode::kFailedPrecondition);
  game::Move bad = *m;
  bad.path = {"g1"};
  EXPECT_EQ(g->Play(bad).status().code(), StatusCode::kInvalidArgument);
  bad.path = {"g1f3", ""};
  EXPECT_EQ(g->Play(bad).status().code(), StatusCode::kInvalidArgument);
  bad.path = {"g1", "f3"};
  bad.promotion = "k";
  EXPECT_EQ(g->Play(bad).status().code(), StatusCode::kInvalidArgument);
  bad.promotion = "q";
  EXPECT_EQ(g->Play(bad).status().code(), StatusCode::kFailedPrecondition);
  bad.promotion = "";
  bad.path = {"g1", "g4"};
  EXPECT_EQ(g->Play(bad).status().code(), StatusCode::kFailedPrecondition);
  auto ev = g->Play(*m);
  ASSERT_TRUE(ev.ok());
  EXPECT_TRUE(Has(*ev, EventType::kMove, 0, "Nf3"));
  EXPECT_EQ(g->ply(), 1);
  EXPECT_EQ(g->to_move(), 1);
  ASSERT_TRUE(g->View().last_move.has_value());
  EXPECT_EQ(g->View().last_move->display, "Nf3");
}

TEST(Moves, CastlingRules) {
  auto castles = [](const char* fen) {
    std::vector<std::string> out;
    for (const auto& m : New(fen)->LegalMoves())
      if (m.display.rfind("O-O", 0) == 0) out.push_back(m.display);
    std::sort(out.begin(), out.end());
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(castles("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), (V{"O-O", "O-O-O"}));
  // An attacked b1 and an attacked rook do not forbid castling.
  EXPECT_EQ(castles("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1"), (V{"O-O", "O-O-O"}));
  // Passing through (f1) or landing on (c1) an attacked square does.
  EXPECT_EQ(castles("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1"), (V{"O-O-O"}));
  EXPECT_EQ(castles("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), (V{"O-O"}));
  // Not out of check, not through a piece, not without the right.
  EXPECT_EQ(castles("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1"), V{});
  EXPECT_EQ(castles("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1"), V{});
  EXPECT_EQ(castles("4k3/8/8/8/8/8/8/R3K2R w - - 0 1"), V{});
  // Moving the rook loses that side's right, for good.
  auto g = New("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  PlayAll(*g, "Rh2 Kd7 Rh1 Ke8");
  std::vector<std::string> left;
  for (const auto& m : g->LegalMoves())
    if (m.display.rfind("O-O", 0) == 0) left.push_back(m.display);
  EXPECT_EQ(left, (V{"O-O-O"}));
}

TEST(Moves, CaptureCheckPromotionEvents) {
  auto g = New("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  auto ev = PlayText(*g, "bxa8=Q");
  ASSERT_TRUE(ev.ok());
  EXPECT_TRUE(Has(*ev, EventType::kMove, 0, "bxa8=Q+"));
  EXPECT_TRUE(Has(*ev, EventType::kCapture, 0, "R"));
  EXPECT_TRUE(Has(*ev, EventType::kPromotion, 0, "Q"));
  EXPECT_TRUE(Has(*ev, EventType::kCheck, 1));
  EXPECT_EQ(g->View().in_check, std::vector<int>{1});
  auto ep = New("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  ev = PlayText(*ep, "exd6");
  ASSERT_TRUE(ev.ok());
  EXPECT_TRUE(Has(*ev, EventType::kCapture, 0, "P"));
  EXPECT_EQ(ep->View().pieces.size(), 3u);
}

TEST(Endings, Checkmate) {
  auto g = New();
  auto ev = PlayAll(*g, "f3 e5 g4 Qh4#");
  EXPECT_TRUE(Has(ev, EventType::kCheck, 0));
  EXPECT_TRUE(Has(ev, EventType::kMate, 0));
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -2, "checkmate"));
  game::Result r = g->result();
  EXPECT_TRUE(r.over);
  EXPECT_EQ(r.reason, "checkmate");
  EXPECT_EQ(r.places, (std::vector<int>{2, 1}));
  EXPECT_EQ(g->to_move(), -1);
  EXPECT_TRUE(g->LegalMoves().empty());
  EXPECT_EQ(PlayText(*g, "a3").status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(g->Act(0, Action::kResign, "").status().code(), StatusCode::kFailedPrecondition);
  auto pgn = g->Export("pgn");
  ASSERT_TRUE(pgn.ok());
  for (const char* part :
       {"[Event \"?\"]", "[Site \"?\"]", "[Date \"????.??.??\"]", "[Round \"-\"]", "[White \"?\"]",
        "[Black \"?\"]", "[Result \"0-1\"]", "1. f3 e5 2. g4 Qh4#", "0-1\n"}) {
    EXPECT_NE(pgn->find(part), std::string::npos) << part << "\n" << *pgn;
  }
  EXPECT_EQ(pgn->find("[FEN"), std::string::npos);
}

TEST(Endings, MatedAtCreation) {
  auto g = New("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_TRUE(g->result().over);
  EXPECT_EQ(g->result().reason, "checkmate");
}

TEST(Endings, Stalemate) {
  auto g = New("k7/8/8/2Q5/8/8/8/K7 w - - 0 1");
  auto ev = PlayAll(*g, "Qb6");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -2, "stalemate"));
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 1}));
  EXPECT_FALSE(Has(ev, EventType::kMate));
}

TEST(Endings, InsufficientMaterial) {
  auto g = New("k7/8/8/8/8/8/1r6/KB6 w - - 0 1");
  auto ev = PlayAll(*g, "Kxb2");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -2, "insufficient_material"));
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 1}));
  struct Case {
    const char* fen;
    bool dead;
  };
  for (const Case& c :
       {Case{"k7/8/8/8/8/8/8/K7 w - - 0 1", true}, Case{"k7/8/8/8/8/8/8/KN6 w - - 0 1", true},
        Case{"kn6/8/8/8/8/8/8/K7 w - - 0 1", true}, Case{"k7/8/8/8/8/8/8/KB6 w - - 0 1", true},
        Case{"kb6/8/8/8/8/8/8/KB6 w - - 0 1", false},  // b8 dark, b1 light
        Case{"k1b5/8/8/8/8/8/8/KB6 w - - 0 1", true},  // c8 and b1 light
        Case{"k7/8/8/8/8/8/8/KNN5 w - - 0 1", false}, Case{"kn6/8/8/8/8/8/8/KN6 w - - 0 1", false},
        Case{"kb6/8/8/8/8/8/8/KN6 w - - 0 1", false}, Case{"k7/8/8/8/8/8/8/KR6 w - - 0 1", false},
        Case{"k7/8/8/8/8/8/P7/K7 w - - 0 1", false}, Case{"k7/8/8/8/8/8/8/KBB5 w - - 0 1", false},
        Case{"k7/8/8/8/8/8/8/KB1B4 w - - 0 1", true}}) {
    auto h = New(c.fen);
    const bool dead = h->result().over && h->result().reason == "insufficient_material";
    EXPECT_EQ(dead, c.dead) << c.fen;
  }
}

TEST(Endings, ThreefoldSiteIsAutomatic) {
  auto g = New();
  PlayAll(*g, kShuffle);
  EXPECT_FALSE(g->result().over);
  auto ev = PlayAll(*g, kShuffle);
  EXPECT_TRUE(g->result().over);
  EXPECT_EQ(g->result().reason, "threefold_repetition");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -2, "threefold_repetition"));
  // Claims do not exist in site mode.
  auto h = New();
  PlayAll(*h, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
  EXPECT_EQ(h->Act(1, Action::kClaimDraw, "Ng8").status().code(), StatusCode::kFailedPrecondition);
}

TEST(Endings, ThreefoldFideNeedsAClaim) {
  auto g = Fide();
  PlayAll(*g, "Nf3 Nf6 Ng1 Ng8");
  EXPECT_EQ(g->Act(0, Action::kClaimDraw, "").status().code(), StatusCode::kFailedPrecondition);
  PlayAll(*g, kShuffle);
  EXPECT_FALSE(g->result().over);
  EXPECT_EQ(g->Act(1, Action::kClaimDraw, "").status().code(), StatusCode::kFailedPrecondition)
      << "only the player to move claims";
  auto ev = g->Act(0, Action::kClaimDraw, "");
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Has(*ev, EventType::kDrawClaimed, 0, "threefold_repetition"));
  EXPECT_TRUE(Has(*ev, EventType::kGameOver, -2, "draw_claimed"));
  EXPECT_EQ(g->result().reason, "draw_claimed");
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 1}));
}

TEST(Endings, ClaimTogetherWithTheMove) {
  auto g = Fide();
  PlayAll(*g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
  // A move that does not complete the repetition: refused, and not played.
  EXPECT_EQ(g->Act(1, Action::kClaimDraw, "e5").status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(g->ply(), 7);
  EXPECT_EQ(g->Act(1, Action::kClaimDraw, "Nxx").status().code(), StatusCode::kInvalidArgument);
  auto ev = g->Act(1, Action::kClaimDraw, "Ng8");
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Has(*ev, EventType::kMove, 1, "Ng8"));
  EXPECT_TRUE(Has(*ev, EventType::kDrawClaimed, 1, "threefold_repetition"));
  EXPECT_EQ(g->ply(), 8);
  EXPECT_EQ(g->result().reason, "draw_claimed");
}

TEST(Endings, FivefoldFide) {
  auto g = Fide();
  for (int i = 0; i < 3; ++i) PlayAll(*g, kShuffle);
  EXPECT_FALSE(g->result().over);
  PlayAll(*g, kShuffle);
  EXPECT_TRUE(g->result().over);
  EXPECT_EQ(g->result().reason, "fivefold_repetition");
}

// A double step whose en passant capture is illegal (pinned capturer) does not make the
// position differ: three occurrences after 8 more plies.
TEST(Endings, RepetitionIgnoresIllegalEnPassant) {
  auto g = New("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1");
  PlayAll(*g, "e4 Ka5 Kd1 Ka4 Ke1 Ka5 Kd1 Ka4");
  EXPECT_FALSE(g->result().over);
  PlayAll(*g, "Ke1");
  EXPECT_EQ(g->result().reason, "threefold_repetition");
}

// With a legal en passant capture, the position right after the double step is different.
TEST(Endings, RepetitionCountsLegalEnPassant) {
  auto g = New("8/8/8/8/k2p4/8/4P3/4K3 w - - 0 1");
  PlayAll(*g, "e4 Ka5 Kd1 Ka4 Ke1 Ka5 Kd1 Ka4 Ke1");
  EXPECT_FALSE(g->result().over);
  PlayAll(*g, "Ka5");  // the position after the first Ka5, a third time
  EXPECT_EQ(g->result().reason, "threefold_repetition");
}

TEST(Endings, FiftyMovesSite) {
  auto g = New("k7/8/8/8/8/8/8/K6R w - - 99 80");
  auto ev = PlayAll(*g, "Rh2");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -2, "fifty_moves"));
  // A capture or pawn move resets the count.
  auto h = New("k7/8/8/8/8/8/7p/K6R w - - 99 80");
  PlayAll(*h, "Rxh2");
  EXPECT_FALSE(h->result().over);
  // Mate on the 100th half-move wins.
  auto m = New("k7/8/1K6/8/8/8/8/7R w - - 99 80");
  PlayAll(*m, "Rh8#");
  EXPECT_EQ(m->result().reason, "checkmate");
  EXPECT_EQ(m->result().places, (std::vector<int>{1, 2}));
}

TEST(Endings, FiftyClaimAndSeventyFiveFide) {
  auto g = Fide("k7/8/8/8/8/8/8/K6R w - - 99 80");
  EXPECT_EQ(g->Act(0, Action::kClaimDraw, "").status().code(), StatusCode::kFailedPrecondition);
  auto ev = g->Act(0, Action::kClaimDraw, "Rh2");
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Has(*ev, EventType::kDrawClaimed, 0, "fifty_moves"));
  auto h = Fide("k7/8/8/8/8/8/8/K6R w - - 99 80");
  PlayAll(*h, "Rh2");
  EXPECT_FALSE(h->result().over);
  auto claim = h->Act(1, Action::kClaimDraw, "");
  ASSERT_TRUE(claim.ok());
  EXPECT_TRUE(Has(*claim, EventType::kDrawClaimed, 1, "fifty_moves"));

  auto s = Fide("k7/8/8/8/8/8/8/K6R w - - 149 80");
  PlayAll(*s, "Rh2");
  EXPECT_EQ(s->result().reason, "seventy_five_moves");
  auto m = Fide("k7/8/1K6/8/8/8/8/7R w - - 149 80");
  PlayAll(*m, "Rh8#");
  EXPECT_EQ(m->result().reason, "checkmate");
}

TEST(Offers, OfferAcceptDeclineLapse) {
  auto g = New();
  EXPECT_EQ(g->Act(0, Action::kOfferDraw, "").status().code(), StatusCode::kFailedPrecondition);
  PlayAll(*g, "e4");
  EXPECT_EQ(g->Act(1, Action::kOfferDraw, "").status().code(), StatusCode::kFailedPrecondition);
  PlayAll(*g, "e5");
  EXPECT_EQ(g->Act(1, Action::kAcceptDraw, "").status().code(), StatusCode::kFailedPrecondition);
  auto ev = g->Act(0, Action::kOfferDraw, "");
  ASSERT_TRUE(ev.ok());
  EXPECT_TRUE(Has(*ev, EventType::kDrawOffered, 0));
  EXPECT_EQ(g->View().draw_offer_by, 0);
  EXPECT_EQ(g->Act(0, Action::kOfferDraw, "").status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(g->Act(0, Action::kAcceptDraw, "").status().code(), StatusCode::kFailedPrecondition);
  // The offer survives encoding.
  auto copy = DecodeBytes(g->Encode());
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ((*copy)->View().draw_offer_by, 0);
  ev = g->Act(1, Action::kDeclineDraw, "");
  ASSERT_TRUE(ev.ok());
  EXPECT_TRUE(Has(*ev, EventType::kDrawDeclined, 1));
  EXPECT_FALSE(g->View().draw_offer_by.has_value());
  // The offerer moving keeps the offer; the opponent moving instead lets it lapse.
  ASSERT_TRUE(g->Act(0, Action::kOfferDraw, "").ok());
  PlayAll(*g, "Nf3");
  EXPECT_EQ(g->View().draw_offer_by, 0);
  PlayAll(*g, "Nc6");
  EXPECT_FALSE(g->View().draw_offer_by.has_value());
  EXPECT_EQ(g->Act(1, Action::kAcceptDraw, "").status().code(), StatusCode::kFailedPrecondition);
  // Accepted by the opponent (out of turn is fine).
  ASSERT_TRUE(g->Act(1, Action::kOfferDraw, "").ok());
  ev = (*copy)->Act(1, Action::kAcceptDraw, "");
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ((*copy)->result().reason, "draw_agreed");
  ev = g->Act(0, Action::kAcceptDraw, "");
  ASSERT_TRUE(ev.ok());
  EXPECT_TRUE(Has(*ev, EventType::kGameOver, -2, "draw_agreed"));
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 1}));
  auto pgn = g->Export("pgn");
  EXPECT_NE(pgn->find("1/2-1/2"), std::string::npos);
  EXPECT_EQ(g->Act(5, Action::kResign, "").status().code(), StatusCode::kInvalidArgument);
}

TEST(Resign, AnyTimeEitherSeatAndTheFideException) {
  auto g = New();
  auto ev = g->Act(1, Action::kResign, "");  // out of turn, before any move
  ASSERT_TRUE(ev.ok());
  EXPECT_TRUE(Has(*ev, EventType::kResigned, 1));
  EXPECT_TRUE(Has(*ev, EventType::kGameOver, -2, "resignation"));
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 2}));
  EXPECT_NE(g->Export("pgn")->find("1-0"), std::string::npos);

  const char* lone_knight = "k7/pp6/8/8/8/8/8/KN6 w - - 0 1";  // White has K+N only
  auto plain = New(lone_knight);
  ASSERT_TRUE(plain->Act(1, Action::kResign, "").ok());
  EXPECT_EQ(plain->result().places, (std::vector<int>{1, 2}));
  auto fide = New(lone_knight, {{"fide_resignation_exception", "on"}});
  ASSERT_TRUE(fide->Act(1, Action::kResign, "").ok());
  EXPECT_EQ(fide->result().reason, "resignation");
  EXPECT_EQ(fide->result().places, (std::vector<int>{1, 1}));
  // Black still has pawns: White resigning loses even with the exception on.
  auto other = New(lone_knight, {{"fide_resignation_exception", "on"}});
  ASSERT_TRUE(other->Act(0, Action::kResign, "").ok());
  EXPECT_EQ(other->result().places, (std::vector<int>{2, 1}));
  auto back = DecodeBytes(fide->Encode());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->result().places, (std::vector<int>{1, 1}));
  EXPECT_EQ((*back)->result().reason, "resignation");
}

TEST(Export, FenAndPgnFromPosition) {
  auto g = New("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30");
  PlayAll(*g, "Kd7 e4");
  EXPECT_EQ(*g->Export("fen"), g->PositionText());
  EXPECT_EQ(g->PositionText(), "8/3k4/8/8/4P3/8/8/4K3 b - - 0 31");
  auto pgn = g->Export("pgn");
  EXPECT_NE(pgn->find("[SetUp \"1\"]"), std::string::npos);
  EXPECT_NE(pgn->find("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]"), std::string::npos);
  EXPECT_NE(pgn->find("30... Kd7 31. e4 *"), std::string::npos) << *pgn;
  EXPECT_EQ(g->Export("xml").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(g->Perft(3), g->Clone()->Perft(3));
  uint64_t sum = 0;
  for (const auto& [m, n] : g->Divide(2)) sum += n;
  EXPECT_EQ(sum, g->Perft(2));
}

// Encode/Decode continues the game exactly, including repetition history.

}  // namespace
}  // namespace tablero::chess
