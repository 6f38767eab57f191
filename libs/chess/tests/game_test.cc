// The game::Game adapter: every ending in both draw modes, claims, offers, resignation,
// events, legal-move queries, PGN/FEN export and the encoded state.
#include "libs/chess/game.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "libs/chess/chess.h"
#include "libs/game/codec.h"

namespace tablero::chess {
namespace {

using game::Action;
using game::EventType;
using StatusCode = absl::StatusCode;

std::unique_ptr<game::Game> New(const char* fen = nullptr, game::Options options = {}) {
  game::NewGameParams p;
  p.kind = game::Kind::kChess;
  p.options = options;
  auto g = fen ? FromPosition(p, fen) : NewGame(p);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? std::move(*g) : nullptr;
}

std::unique_ptr<game::Game> Fide(const char* fen = nullptr) {
  return New(fen, {{"draw_mode", "fide"}});
}

absl::StatusOr<std::vector<game::Event>> PlayText(game::Game& g, absl::string_view text) {
  auto m = g.ParseMove(text);
  if (!m.ok()) return m.status();
  return g.Play(*m);
}

// Plays space-separated moves, failing the test on the first refusal.
std::vector<game::Event> PlayAll(game::Game& g, const std::string& moves) {
  std::vector<game::Event> last;
  for (absl::string_view t : absl::StrSplit(moves, ' ', absl::SkipEmpty())) {
    auto ev = PlayText(g, t);
    EXPECT_TRUE(ev.ok()) << t << ": " << ev.status();
    if (!ev.ok()) break;
    last = *ev;
  }
  return last;
}

bool Has(const std::vector<game::Event>& ev, EventType type, int seat = -2,
         const std::string& detail = "\x01") {
  for (const auto& e : ev) {
    if (e.type == type && (seat == -2 || e.seat == seat) &&
        (detail == "\x01" || e.detail == detail))
      return true;
  }
  return false;
}

absl::StatusOr<std::unique_ptr<game::Game>> DecodeBytes(const std::string& bytes) {
  auto env = game::UnwrapState(bytes);
  if (!env.ok()) return env.status();
  if (env->kind != game::Kind::kChess) return absl::InvalidArgumentError("kind");
  return Decode(env->version, env->payload);
}

int ParsedHalfmove(const game::Game& g) {
  std::vector<std::string> f = absl::StrSplit(g.PositionText(), ' ');
  return std::stoi(f[4]);
}

constexpr const char* kShuffle = "Nf3 Nf6 Ng1 Ng8";

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
TEST(State, RoundTripKeepsHistory) {
  auto g = New();
  PlayAll(*g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
  auto back = DecodeBytes(g->Encode());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->Encode(), g->Encode());
  EXPECT_EQ((*back)->PositionText(), g->PositionText());
  EXPECT_EQ((*back)->ply(), 7);
  const auto* cg = dynamic_cast<const ChessGame*>(back->get());
  ASSERT_NE(cg, nullptr);
  EXPECT_EQ(cg->repetition_keys().size(), 8u);
  EXPECT_EQ(cg->repetition_keys()[0], cg->repetition_keys()[4]);
  EXPECT_EQ(cg->moves().size(), 7u);
  EXPECT_EQ(cg->start_position().Fen(), std::string(kStartFen));
  PlayAll(**back, "Ng8");
  EXPECT_EQ((*back)->result().reason, "threefold_repetition");

  auto f = Fide();
  PlayAll(*f, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
  auto fb = DecodeBytes(f->Encode());
  ASSERT_TRUE(fb.ok());
  EXPECT_EQ((*fb)->options().at("draw_mode"), "fide");
  ASSERT_TRUE((*fb)->Act(0, Action::kClaimDraw, "").ok());
  auto claimed = DecodeBytes((*fb)->Encode());
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ((*claimed)->result().reason, "draw_claimed");
}

TEST(State, RoundTripsRandomGames) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 40; ++i) {
    auto g = i % 2 ? Fide() : New();
    for (int ply = 0; ply < 200 && !g->result().over; ++ply) {
      auto moves = g->LegalMoves();
      ASSERT_FALSE(moves.empty());
      ASSERT_TRUE(g->Play(moves[rng() % moves.size()]).ok());
    }
    const std::string bytes = g->Encode();
    // Two bytes a move, two packed positions, eight bytes per position that can repeat.
    const size_t keys = std::min(g->ply(), ParsedHalfmove(*g));
    EXPECT_LT(bytes.size(), 100 + 2 * size_t(g->ply()) + 8 * keys);
    auto back = DecodeBytes(bytes);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ((*back)->Encode(), bytes);
    EXPECT_EQ((*back)->result().reason, g->result().reason);
    EXPECT_EQ((*back)->result().places, g->result().places);
    EXPECT_EQ(*(*back)->Export("pgn"), *g->Export("pgn"));
    EXPECT_EQ((*back)->LegalMoves().size(), g->LegalMoves().size());
  }
}

// A repetition that spans decodes still counts: the keys since the last irreversible
// move travel in the state, and PGN export replays the (unchecked) move list.
TEST(State, RepetitionSpansDecodes) {
  auto g = New();
  PlayAll(*g, "e4 e5 Nf3 Nf6 Ng1 Ng8");
  auto a = DecodeBytes(g->Encode());
  ASSERT_TRUE(a.ok()) << a.status();
  const auto* cg = dynamic_cast<const ChessGame*>(a->get());
  ASSERT_NE(cg, nullptr);
  EXPECT_EQ(cg->repetition_keys().size(), 5u);  // only since e5 can repeat
  EXPECT_EQ(cg->RepetitionCount(), 2);
  PlayAll(**a, "Nf3 Nf6 Ng1");
  auto b = DecodeBytes((*a)->Encode());
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_FALSE((*b)->result().over);
  auto ev = PlayAll(**b, "Ng8");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -2, "threefold_repetition"));
  PlayAll(*g, "Nf3 Nf6 Ng1 Ng8");
  EXPECT_EQ(g->result().reason, "threefold_repetition");
  EXPECT_EQ((*b)->Encode(), g->Encode());
  auto pgn = (*b)->Export("pgn");
  ASSERT_TRUE(pgn.ok()) << pgn.status();
  EXPECT_EQ(*pgn, *g->Export("pgn"));
  EXPECT_NE(pgn->find("1. e4 e5 2. Nf3 Nf6"), std::string::npos) << *pgn;
  const game::PublicView v = (*b)->View();
  ASSERT_TRUE(v.last_move.has_value());
  EXPECT_EQ(v.last_move->display, "Ng8");

  // FIDE mode: the claim after decodes, with the claim's detail as common.proto names it.
  auto f = Fide();
  PlayAll(*f, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
  auto fb = DecodeBytes(f->Encode());
  ASSERT_TRUE(fb.ok());
  auto claim = (*fb)->Act(1, Action::kClaimDraw, "Ng8");
  ASSERT_TRUE(claim.ok()) << claim.status();
  EXPECT_TRUE(Has(*claim, EventType::kDrawClaimed, 1, "threefold_repetition"));
}

// The payload of a game with no moves whose start position is given piece by piece
// (bypassing Position::Pack), to forge positions no FEN would give.
std::string ForgedState(const std::vector<std::pair<Square, Piece>>& pieces, uint8_t side_castling,
                        uint8_t ep_file = 0) {
  game::ByteWriter w;
  w.U8(0);
  uint64_t occ = 0;
  uint8_t code[64];
  for (auto [s, p] : pieces) {
    occ |= uint64_t(1) << s;
    code[s] = p;
  }
  w.U64(occ);
  std::vector<uint8_t> nibbles;
  for (int s = 0; s < 64; ++s)
    if (occ >> s & 1) nibbles.push_back(code[s]);
  for (size_t i = 0; i < nibbles.size(); i += 2)
    w.U8(uint8_t(nibbles[i] | (i + 1 < nibbles.size() ? nibbles[i + 1] << 4 : 0)));
  w.U8(side_castling);
  w.U8(ep_file);
  w.Varint(0);  // halfmove clock
  w.Varint(1);  // fullmove number
  w.Varint(0);  // moves
  w.Varint(0);  // repetition keys
  w.U8(0);      // draw offer
  w.U8(0);      // ending
  return game::WrapState(game::Kind::kChess, 2, w.bytes());
}

TEST(State, ForgedPositionsAreRefused) {
  const Piece K = MakePiece(kWhite, kKing), k = MakePiece(kBlack, kKing);
  const Piece R = MakePiece(kWhite, kRook), P = MakePiece(kWhite, kPawn);
  const Piece p = MakePiece(kBlack, kPawn);
  // The forging itself works: a legal position decodes.
  auto fine = DecodeBytes(ForgedState({{4, K}, {7, R}, {60, k}}, 0 | kWhiteOO << 1));
  ASSERT_TRUE(fine.ok()) << fine.status();
  EXPECT_EQ((*fine)->PositionText(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  auto refused = [](const std::string& bytes, absl::string_view why) {
    auto d = DecodeBytes(bytes);
    EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument) << why;
    EXPECT_NE(d.status().message().find(why), absl::string_view::npos) << d.status();
  };
  refused(ForgedState({{4, K}, {5, K}, {60, k}}, 0), "White needs one king");
  refused(ForgedState({{4, K}, {60, k}, {12, MakePiece(kBlack, kRook)}}, 1),
          "not to move is in check");
  refused(ForgedState({{4, K}, {12, R}, {60, k}}, 0), "not to move is in check");
  refused(ForgedState({{4, K}, {60, k}}, 0 | kWhiteOO << 1), "castling right");
  refused(ForgedState({{4, K}, {56, P}, {60, k}}, 0), "pawn on the first or last rank");
  // En passant on e6 needs a black pawn on e5 and a white pawn beside it.
  refused(ForgedState({{4, K}, {60, k}, {36, p}}, 0, 5), "en passant");
  auto ep = DecodeBytes(ForgedState({{4, K}, {60, k}, {36, p}, {35, P}}, 0, 5));
  ASSERT_TRUE(ep.ok()) << ep.status();
  EXPECT_EQ((*ep)->PositionText(), "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
  EXPECT_EQ((*ep)->LegalMoves().size(), 7u);  // 5 king moves, d6, dxe6
}

// A forged move list (the current position still legal) is caught when the moves are
// needed: Export replays them and says what is wrong.
TEST(State, ForgedHistoryIsCaughtOnExport) {
  auto g = New();
  PlayAll(*g, "e4 e5 Nf3");
  const std::string bytes = g->Encode();
  auto env = game::UnwrapState(bytes);
  ASSERT_TRUE(env.ok());
  std::string payload(env->payload);
  game::ByteWriter start;
  Position::StartPosition().Pack(&start);
  const size_t first = 1 + start.bytes().size() + 1;  // flags, start, move count
  const Move e2e4 = Move::Make(12, 28), e2e3 = Move::Make(12, 20);
  ASSERT_EQ(uint8_t(payload[first]), uint8_t(e2e4.raw()));
  payload[first] = char(uint8_t(e2e3.raw()));
  payload[first + 1] = char(uint8_t(e2e3.raw() >> 8));
  auto d = DecodeBytes(game::WrapState(game::Kind::kChess, 2, payload));
  ASSERT_TRUE(d.ok()) << d.status();  // not replayed on decode
  EXPECT_EQ((*d)->PositionText(), g->PositionText());
  auto pgn = (*d)->Export("pgn");
  EXPECT_EQ(pgn.status().code(), StatusCode::kInvalidArgument);
  const auto* cg = dynamic_cast<const ChessGame*>(d->get());
  EXPECT_FALSE(cg->CheckHistory().ok());
  EXPECT_TRUE(dynamic_cast<const ChessGame*>(g.get())->CheckHistory().ok());
  EXPECT_TRUE(PlayText(**d, "Nc6").ok());  // play goes on from the (legal) position
}

TEST(State, GarbageIsRefused) {
  std::mt19937_64 rng(11);
  auto g = New();
  PlayAll(*g, "e4 e5 Nf3 Nc6 Bb5 a6");
  ASSERT_TRUE(g->Act(0, Action::kOfferDraw, "").ok());
  const std::string good = g->Encode();
  auto env = game::UnwrapState(good);
  ASSERT_TRUE(env.ok());
  const std::string payload(env->payload);
  EXPECT_EQ(Decode(1, payload).status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(Decode(1, payload).status().message().find("version 1"), absl::string_view::npos);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string p = payload;
    switch (i % 4) {
      case 0:  // truncation
        p.resize(rng() % p.size());
        break;
      case 1:  // bit flips
        for (int k = 1 + int(rng() % 3); k > 0; --k) p[rng() % p.size()] ^= char(1 << (rng() % 8));
        break;
      case 2:  // random bytes
        p.resize(rng() % 64);
        for (char& c : p) c = char(rng());
        break;
      default:  // appended bytes
        p += char(rng());
    }
    auto d = Decode(2, p);
    if (d.ok()) {
      ++accepted;  // a flip may still spell a valid state: it must then be self-consistent
      auto again = DecodeBytes((*d)->Encode());
      ASSERT_TRUE(again.ok());
      EXPECT_EQ((*again)->Encode(), (*d)->Encode());
    } else {
      EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
    }
    // Through the envelope, the checksum refuses the change.
    if (p != payload) {
      std::string wrapped = good;
      wrapped.replace(4, payload.size(), p);
      EXPECT_FALSE(DecodeBytes(wrapped).ok());
    }
  }
  EXPECT_LT(accepted, 5000);
}

}  // namespace
}  // namespace tablero::chess

namespace tablero::chess {
namespace {

// Random client input at the Game level: errors of the documented kinds, never a crash.
TEST(Fuzz, RandomClientInput) {
  std::mt19937_64 rng(3);
  const std::string chars = "abcdefghi0123456789NBRQKqrbnxO-=+# ";
  auto text = [&](int max) {
    std::string s;
    for (int n = int(rng() % max); n > 0; --n) s += chars[rng() % chars.size()];
    return s;
  };
  auto ok_code = [](const absl::Status& s) {
    return s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kFailedPrecondition;
  };
  auto g = Fide("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (int i = 0; i < 5000 && !g->result().over; ++i) {
    auto from = g->LegalMovesFrom(text(4));
    if (!from.ok()) {
      EXPECT_EQ(from.status().code(), StatusCode::kInvalidArgument);
    }
    auto parsed = g->ParseMove(text(8));
    if (!parsed.ok()) {
      EXPECT_TRUE(ok_code(parsed.status())) << parsed.status();
    }
    game::Move m;
    m.seat = int(rng() % 3) - 1;
    for (int k = int(rng() % 4); k > 0; --k) m.path.push_back(text(4));
    m.promotion = text(2);
    auto played = g->Play(m);
    if (!played.ok()) {
      EXPECT_TRUE(ok_code(played.status())) << played.status();
    }
    const int seat = int(rng() % 4) - 1;
    if (rng() % 8 == 0) {
      auto claim = g->Act(seat, Action::kClaimDraw, text(6));
      if (!claim.ok()) {
        EXPECT_TRUE(ok_code(claim.status())) << claim.status();
      }
    }
    // Keep the game going with a real move now and then.
    if (i % 10 == 0 && !g->result().over) {
      auto moves = g->LegalMoves();
      ASSERT_TRUE(g->Play(moves[rng() % moves.size()]).ok());
    }
  }
  EXPECT_GT(g->ply(), 5);
}

}  // namespace
}  // namespace tablero::chess
