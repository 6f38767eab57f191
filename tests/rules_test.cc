// The rules service as a real process over real gRPC: every game played through the API
// to its end, the catalogue and legal moves. The engines are linked only to *find* move
// sequences (a shogi repetition cycle, a Chinese Checkers race); every move is then played
// through the service. Bad input, fuzzing and operations: rules_input_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "libs/bot/levels.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "tests/rules_test_util.h"

namespace tablero::testing {
namespace {

// ---------------------------------------------------------------------------------------
// Catalogue and new games

TEST_F(RulesTest, ListGamesDescribesEveryGameAndItsOptions) {
  v1::ListGamesResponse resp;
  ASSERT_TRUE(Call(&v1::Rules::Stub::ListGames, v1::ListGamesRequest(), &resp).ok());
  ASSERT_EQ(resp.games_size(), 3);
  const int seats[3][2] = {{2, 2}, {4, 4}, {2, 6}};
  for (int i = 0; i < 3; ++i) {
    const v1::GameInfo& g = resp.games(i);
    EXPECT_EQ(g.kind(), static_cast<GameKind>(i + 1));
    EXPECT_FALSE(g.name().empty());
    EXPECT_EQ(g.min_seats(), seats[i][0]);
    EXPECT_EQ(g.max_seats(), seats[i][1]);
    std::map<std::string, const v1::OptionSpec*> by_name;
    for (const v1::OptionSpec& o : g.options()) by_name[o.name()] = &o;
    for (const char* room : {"show_legal_moves", "rotate_first_player"}) {
      ASSERT_TRUE(by_name.count(room)) << g.name() << " lacks " << room;
      EXPECT_TRUE(by_name[room]->room_level());
      EXPECT_EQ(by_name[room]->type(), v1::OptionSpec::TYPE_BOOL);
      EXPECT_EQ(by_name[room]->default_value(), "on");
    }
    for (const v1::OptionSpec& o : g.options()) {
      EXPECT_NE(o.type(), v1::OptionSpec::TYPE_UNSPECIFIED) << o.name();
      // A settings screen's words: a short label (one line on a phone), and one word or
      // phrase per choice.
      EXPECT_FALSE(o.label().empty()) << o.name();
      EXPECT_LE(o.label().size(), 28u) << o.name();
      if (o.type() == v1::OptionSpec::TYPE_CHOICE || o.type() == v1::OptionSpec::TYPE_BOOL) {
        EXPECT_NE(std::find(o.choices().begin(), o.choices().end(), o.default_value()),
                  o.choices().end())
            << o.name();
        ASSERT_EQ(o.choice_labels_size(), o.choices_size()) << o.name();
        for (const std::string& l : o.choice_labels()) EXPECT_FALSE(l.empty()) << o.name();
      } else {
        EXPECT_EQ(o.choice_labels_size(), 0) << o.name();
      }
    }
  }
  // The tables of the rules documents.
  const v1::GameInfo& chess = resp.games(0);
  auto find = [](const v1::GameInfo& g, const std::string& n) -> const v1::OptionSpec* {
    for (const v1::OptionSpec& o : g.options())
      if (o.name() == n) return &o;
    return nullptr;
  };
  ASSERT_NE(find(chess, "draw_mode"), nullptr);
  EXPECT_EQ(find(chess, "draw_mode")->default_value(), "site");
  EXPECT_EQ(find(chess, "draw_mode")->label(), "Draw mode");
  EXPECT_EQ(absl::StrJoin(find(chess, "draw_mode")->choice_labels(), ","), "Site,FIDE");
  EXPECT_EQ(absl::StrJoin(find(chess, "show_legal_moves")->choice_labels(), ","), "On,Off");
  const v1::OptionSpec* limit = find(resp.games(2), "move_limit");
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->type(), v1::OptionSpec::TYPE_INT);
  EXPECT_EQ(limit->default_value(), "200");
  EXPECT_GT(limit->max(), limit->min());
  ASSERT_NE(find(resp.games(1), "format"), nullptr);
  EXPECT_EQ(find(resp.games(1), "format")->default_value(), "singles");
}

// Every game lists its CPU levels 1-10 with the bot's approximate Elo (libs/bot/levels.h):
// every chess level has one, four-player shogi and Chinese Checkers none.
TEST_F(RulesTest, ListGamesGivesEachCpuLevelItsApproximateElo) {
  v1::ListGamesResponse resp;
  ASSERT_TRUE(Call(&v1::Rules::Stub::ListGames, v1::ListGamesRequest(), &resp).ok());
  for (const v1::GameInfo& g : resp.games()) {
    SCOPED_TRACE(g.name());
    ASSERT_EQ(g.cpu_levels_size(), 10);
    for (int i = 0; i < 10; ++i) {
      const v1::CpuLevel& c = g.cpu_levels(i);
      EXPECT_EQ(c.level(), i + 1);
      EXPECT_EQ(c.approx_elo(), bot::ApproxElo(*games::KindFromProto(g.kind()), i + 1));
      if (g.kind() == kChess) {
        EXPECT_GT(c.approx_elo(), 0);
      } else {
        EXPECT_EQ(c.approx_elo(), 0);
      }
    }
  }
}

TEST_F(RulesTest, NewGameFillsEveryOptionAndCountsLegalMoves) {
  v1::NewGameResponse chess;
  ASSERT_TRUE(NewGame(kChess, &chess, {{"draw_mode", "fide"}}).ok());
  EXPECT_EQ(chess.legal_move_count(), 20);
  EXPECT_EQ(chess.options().at("draw_mode"), "fide");
  EXPECT_EQ(chess.options().at("show_legal_moves"), "on");
  EXPECT_EQ(chess.view().to_move(), 0);
  EXPECT_EQ(chess.view().pieces_size(), 32);
  EXPECT_EQ(chess.view().position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(chess.view().active_size(), 2);
  // Chess pieces face no seat: facing is left unset, a piece is its square, type and owner.
  for (const v1::PieceView& p : chess.view().pieces()) {
    EXPECT_EQ(p.facing(), 0) << p.square();
    EXPECT_LE(p.ByteSizeLong(), 9u) << p.square();
  }

  v1::NewGameResponse shogi;
  ASSERT_TRUE(NewGame(kShogi, &shogi, {}, 0, 2).ok());
  EXPECT_EQ(shogi.view().to_move(), 2);  // first_seat
  EXPECT_EQ(shogi.view().pieces_size(), 36);
  EXPECT_EQ(shogi.view().hands_size(), 4);
  EXPECT_GT(shogi.legal_move_count(), 0);
  EXPECT_EQ(shogi.options().at("format"), "singles");
  std::set<int> facings;  // each seat's pieces face its own forward
  for (const v1::PieceView& p : shogi.view().pieces()) facings.insert(p.facing());
  EXPECT_EQ(facings, (std::set<int>{0, 1, 2, 3}));

  for (int seats = 2; seats <= 6; ++seats) {
    v1::NewGameResponse cc;
    ASSERT_TRUE(NewGame(kCheckers, &cc, {}, seats).ok()) << seats;
    EXPECT_EQ(cc.view().pieces_size(), 10 * seats);
    for (const v1::PieceView& p : cc.view().pieces()) {
      EXPECT_EQ(p.facing(), 0) << p.square();
      EXPECT_LE(p.ByteSizeLong(), 10u) << p.square();  // hole, "o", owner
    }
    EXPECT_EQ(cc.view().active_size(), seats);
    EXPECT_EQ(cc.options().at("move_limit"), "200");
    EXPECT_GT(cc.legal_move_count(), 0);
  }
  v1::NewGameResponse jp;
  ASSERT_TRUE(NewGame(kCheckers, &jp, {{"rules", "japanese"}}, 3).ok());
  EXPECT_EQ(jp.view().pieces_size(), 45);

  // From a position: the text sets the side to move.
  v1::NewGameResponse fen;
  ASSERT_TRUE(NewGame(kChess, &fen, {}, 0, 0, "4k3/8/8/8/8/8/8/4K2R b K - 0 1").ok());
  EXPECT_EQ(fen.view().to_move(), 1);
  EXPECT_EQ(fen.legal_move_count(), 5);
}

TEST_F(RulesTest, NewGameRefusesBadOptionsAndSeatCounts) {
  v1::NewGameResponse r;
  EXPECT_REFUSED(NewGame(kChess, &r, {{"castling", "off"}}), StatusCode::INVALID_ARGUMENT,
                 "castling");
  EXPECT_REFUSED(NewGame(kChess, &r, {{"draw_mode", "sometimes"}}), StatusCode::INVALID_ARGUMENT,
                 "draw_mode");
  EXPECT_REFUSED(NewGame(kCheckers, &r, {{"move_limit", "lots"}}), StatusCode::INVALID_ARGUMENT,
                 "move_limit");
  EXPECT_REFUSED(NewGame(kShogi, &r, {{"show_legal_moves", "yes"}}), StatusCode::INVALID_ARGUMENT,
                 "show_legal_moves");
  EXPECT_REFUSED(NewGame(kChess, &r, {}, 3), StatusCode::INVALID_ARGUMENT, "3");
  EXPECT_REFUSED(NewGame(kShogi, &r, {}, 2), StatusCode::INVALID_ARGUMENT, "4");
  EXPECT_REFUSED(NewGame(kCheckers, &r, {}, 7), StatusCode::INVALID_ARGUMENT, "7");
  EXPECT_REFUSED(NewGame(kCheckers, &r, {}, 1), StatusCode::INVALID_ARGUMENT, "1");
  EXPECT_REFUSED(NewGame(kCheckers, &r, {}, -2), StatusCode::INVALID_ARGUMENT, "-2");
  EXPECT_REFUSED(NewGame(kCheckers, &r, {{"rules", "japanese"}}, 4), StatusCode::INVALID_ARGUMENT,
                 "japanese");
  EXPECT_REFUSED(NewGame(kCheckers, &r, {}, 3, 3), StatusCode::INVALID_ARGUMENT, "first seat");
  EXPECT_REFUSED(NewGame(kChess, &r, {}, 0, 1), StatusCode::INVALID_ARGUMENT, "first");
  EXPECT_REFUSED(NewGame(v1::GAME_KIND_UNSPECIFIED, &r), StatusCode::INVALID_ARGUMENT, "kind");
  EXPECT_REFUSED(NewGame(static_cast<GameKind>(42), &r), StatusCode::INVALID_ARGUMENT, "42");
  EXPECT_REFUSED(NewGame(kChess, &r, {}, 0, 0, "not a fen"), StatusCode::INVALID_ARGUMENT, "");
  EXPECT_REFUSED(NewGame(kCheckers, &r, {}, 2, 0, "x9/y 0 -"), StatusCode::INVALID_ARGUMENT,
                 "position");
  EXPECT_REFUSED(NewGame(kChess, &r, {}, 0, 0, std::string(9000, 'k')),
                 StatusCode::INVALID_ARGUMENT, "position");
}

// ---------------------------------------------------------------------------------------
// Chess played to its endings

TEST_F(RulesTest, ChessFoolsMateInMixedNotation) {
  std::string state = Start(kChess);
  v1::ApplyMoveResponse last = PlayAll(kChess, &state, {"f2f3", "e5", "g4", "d8h4"});
  EXPECT_TRUE(last.result().over());
  EXPECT_EQ(last.result().reason(), "checkmate");
  EXPECT_EQ(Places(last.result()), (std::vector<int>{2, 1}));
  EXPECT_EQ(last.move().notation(), "d8h4");
  EXPECT_EQ(last.move().display(), "Qh4#");
  EXPECT_EQ(last.move().seat(), 1);
  EXPECT_EQ(EventTypes(last.events()),
            (std::vector<std::string>{"TYPE_MOVE", "TYPE_CHECK", "TYPE_MATE", "TYPE_GAME_OVER"}));
  EXPECT_EQ(last.events(0).detail(), "Qh4#");
  EXPECT_EQ(last.events(3).detail(), "checkmate");
  EXPECT_EQ(last.view().to_move(), -1);
  EXPECT_EQ(last.view().ply(), 4);
  EXPECT_EQ(last.view().last_move().notation(), "d8h4");

  // A finished game takes no more moves and lists none.
  v1::ApplyMoveResponse after;
  EXPECT_REFUSED(Apply(kChess, state, "e2e4", &after), StatusCode::FAILED_PRECONDITION, "over");
  v1::LegalMovesRequest lreq;
  lreq.set_kind(kChess);
  lreq.set_state(state);
  v1::LegalMovesResponse lresp;
  ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, lreq, &lresp).ok());
  EXPECT_EQ(lresp.moves_size(), 0);
  EXPECT_EQ(lresp.to_move(), -1);
  EXPECT_EQ(lresp.ply(), 4);
}

TEST_F(RulesTest, ChessOperaGameToCheckmateAndItsPgn) {
  std::string state = Start(kChess);
  v1::ApplyMoveResponse last = PlayAll(kChess, &state, kOperaGame);
  EXPECT_TRUE(last.result().over());
  EXPECT_EQ(last.result().reason(), "checkmate");
  EXPECT_EQ(Places(last.result()), (std::vector<int>{1, 2}));
  EXPECT_EQ(last.view().ply(), 33);
  EXPECT_EQ(last.move().display(), "Rd8#");
  EXPECT_EQ(last.move().notation(), "d1d8");

  v1::ExportRequest req;
  req.set_kind(kChess);
  req.set_state(state);
  req.set_format("pgn");
  (*req.mutable_tags())["White"] = "Paul Morphy";
  (*req.mutable_tags())["Black"] = "Duke Karl / Count Isouard";
  (*req.mutable_tags())["Event"] = "A night at the \"opera\"";
  (*req.mutable_tags())["Result"] = "0-1";  // computed, never overridden
  (*req.mutable_tags())["Annotator"] = "tablero";
  v1::ExportResponse pgn;
  ASSERT_TRUE(Call(&v1::Rules::Stub::Export, req, &pgn).ok());
  const std::string& t = pgn.text();
  EXPECT_EQ(
      t.rfind("[Event \"A night at the \\\"opera\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
              "[Round \"?\"]\n[White \"Paul Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n"
              "[Result \"1-0\"]\n[Annotator \"tablero\"]\n\n1. e4 e5 2. Nf3 d6",
              0),
      0u)
      << t;
  EXPECT_NE(t.find("17. Rd8#"), std::string::npos) << t;
  EXPECT_NE(t.find("1-0\n"), std::string::npos) << t;

  req.clear_tags();
  req.set_format("fen");
  v1::ExportResponse fen;
  ASSERT_TRUE(Call(&v1::Rules::Stub::Export, req, &fen).ok());
  EXPECT_EQ(fen.text(), last.view().position());
  EXPECT_EQ(fen.text(), "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");

  req.set_format("epd");
  EXPECT_REFUSED(Call(&v1::Rules::Stub::Export, req, &fen), StatusCode::INVALID_ARGUMENT, "epd");
  req.set_format("pgn");
  (*req.mutable_tags())["Bad Tag"] = "x";
  EXPECT_REFUSED(Call(&v1::Rules::Stub::Export, req, &fen), StatusCode::INVALID_ARGUMENT,
                 "Bad Tag");
}

// Sam Loyd's ten-move stalemate, played from the start.
TEST_F(RulesTest, ChessStalemateFromTheStart) {
  std::string state = Start(kChess);
  v1::ApplyMoveResponse last =
      PlayAll(kChess, &state,
              {"e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7",
               "Qxb7", "Qd3", "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6"});
  EXPECT_TRUE(last.result().over());
  EXPECT_EQ(last.result().reason(), "stalemate");
  EXPECT_EQ(Places(last.result()), (std::vector<int>{1, 1}));
  EXPECT_EQ(EventTypes(last.events()).back(), "TYPE_GAME_OVER");
  EXPECT_EQ(last.view().in_check_size(), 0);
}

TEST_F(RulesTest, ChessDrawsOffersClaimsAndResignation) {
  const std::vector<std::string> shuffle = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"};
  // Site mode: the third occurrence draws by itself.
  std::string site = Start(kChess);
  v1::ApplyMoveResponse last = PlayAll(kChess, &site, shuffle);
  ASSERT_FALSE(last.result().over());
  ASSERT_TRUE(Apply(kChess, site, "Ng8", &last).ok());
  EXPECT_EQ(last.result().reason(), "threefold_repetition");
  v1::ApplyActionResponse act;
  site = Start(kChess);
  PlayAll(kChess, &site, shuffle);
  EXPECT_REFUSED(Act(kChess, site, 1, v1::ACTION_CLAIM_DRAW, &act, "Ng8"),
                 StatusCode::FAILED_PRECONDITION, "automatic");

  // FIDE mode: it must be claimed, by the player to move, with the move that makes it hold.
  std::string fide = Start(kChess, {{"draw_mode", "fide"}});
  PlayAll(kChess, &fide, shuffle);
  EXPECT_REFUSED(Act(kChess, fide, 1, v1::ACTION_CLAIM_DRAW, &act), StatusCode::FAILED_PRECONDITION,
                 "no draw to claim");
  EXPECT_REFUSED(Act(kChess, fide, 0, v1::ACTION_CLAIM_DRAW, &act, "Ng8"),
                 StatusCode::FAILED_PRECONDITION, "to move");
  ASSERT_TRUE(Act(kChess, fide, 1, v1::ACTION_CLAIM_DRAW, &act, "Ng8").ok());
  EXPECT_TRUE(act.result().over());
  EXPECT_EQ(act.result().reason(), "draw_claimed");
  EXPECT_EQ(EventTypes(act.events()),
            (std::vector<std::string>{"TYPE_MOVE", "TYPE_DRAW_CLAIMED", "TYPE_GAME_OVER"}));
  EXPECT_EQ(act.view().ply(), 8);
  EXPECT_EQ(act.events(1).seat(), 1);
  EXPECT_FALSE(act.events(1).detail().empty());  // the claim's reason

  // Offers: not before both sides moved; accept ends the game; decline keeps it going.
  std::string g = Start(kChess);
  EXPECT_REFUSED(Act(kChess, g, 0, v1::ACTION_OFFER_DRAW, &act), StatusCode::FAILED_PRECONDITION,
                 "both sides");
  PlayAll(kChess, &g, {"e4", "e5"});
  ASSERT_TRUE(Act(kChess, g, 0, v1::ACTION_OFFER_DRAW, &act).ok());
  EXPECT_EQ(act.view().draw_offer_by().value(), 0);
  EXPECT_TRUE(act.view().has_draw_offer_by());
  const std::string offered = act.state();
  EXPECT_REFUSED(Act(kChess, offered, 0, v1::ACTION_ACCEPT_DRAW, &act),
                 StatusCode::FAILED_PRECONDITION, "no draw offer");
  ASSERT_TRUE(Act(kChess, offered, 1, v1::ACTION_DECLINE_DRAW, &act).ok());
  EXPECT_FALSE(act.result().over());
  EXPECT_FALSE(act.view().has_draw_offer_by());
  ASSERT_TRUE(Act(kChess, offered, 1, v1::ACTION_ACCEPT_DRAW, &act).ok());
  EXPECT_EQ(act.result().reason(), "draw_agreed");
  EXPECT_EQ(Places(act.result()), (std::vector<int>{1, 1}));

  // Resignation on the opponent's turn.
  ASSERT_TRUE(Act(kChess, g, 1, v1::ACTION_RESIGN, &act).ok());
  EXPECT_EQ(act.result().reason(), "resignation");
  EXPECT_EQ(Places(act.result()), (std::vector<int>{1, 2}));
  EXPECT_EQ(EventTypes(act.events()),
            (std::vector<std::string>{"TYPE_RESIGNED", "TYPE_GAME_OVER"}));
  EXPECT_REFUSED(Act(kChess, act.state(), 0, v1::ACTION_RESIGN, &act),
                 StatusCode::FAILED_PRECONDITION, "over");

  // Bad action requests.
  EXPECT_REFUSED(Act(kChess, g, 2, v1::ACTION_RESIGN, &act), StatusCode::INVALID_ARGUMENT,
                 "seat 2");
  EXPECT_REFUSED(Act(kChess, g, 0, v1::ACTION_UNSPECIFIED, &act), StatusCode::INVALID_ARGUMENT,
                 "action");
  EXPECT_REFUSED(Act(kChess, g, 0, v1::ACTION_RESIGN, &act, "e2e4"), StatusCode::INVALID_ARGUMENT,
                 "move_text");
  // Other games' rules.
  EXPECT_REFUSED(Act(kShogi, Start(kShogi), 0, v1::ACTION_RESIGN, &act),
                 StatusCode::FAILED_PRECONDITION, "resign");
  EXPECT_REFUSED(Act(kCheckers, Start(kCheckers), 0, v1::ACTION_OFFER_DRAW, &act),
                 StatusCode::FAILED_PRECONDITION, "draw");
  ASSERT_TRUE(Act(kCheckers, Start(kCheckers), 0, v1::ACTION_RESIGN, &act).ok());
  EXPECT_TRUE(act.result().over());
  EXPECT_EQ(Places(act.result()), (std::vector<int>{2, 1}));
}

// ---------------------------------------------------------------------------------------
// Legal moves and structured moves

TEST_F(RulesTest, LegalMovesAllOrFromOneSquare) {
  v1::LegalMovesRequest req;
  req.set_kind(kChess);
  req.set_state(Start(kChess));
  v1::LegalMovesResponse resp;
  ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, req, &resp).ok());
  EXPECT_EQ(resp.moves_size(), 20);
  EXPECT_EQ(resp.to_move(), 0);
  EXPECT_EQ(resp.ply(), 0);
  req.set_from_square("e2");
  ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, req, &resp).ok());
  ASSERT_EQ(resp.moves_size(), 2);
  std::vector<std::string> got;
  for (const v1::Move& m : resp.moves()) {
    got.push_back(m.notation() + "/" + m.display());
    EXPECT_EQ(m.seat(), 0);
    ASSERT_EQ(m.path_size(), 2);
    EXPECT_EQ(m.path(0), "e2");
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"e2e3/e3", "e2e4/e4"}));
  req.set_from_square("e5");  // empty square
  ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, req, &resp).ok());
  EXPECT_EQ(resp.moves_size(), 0);
  req.set_from_square("e7");  // not the mover's piece
  ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, req, &resp).ok());
  EXPECT_EQ(resp.moves_size(), 0);
  req.set_from_square("z9");
  EXPECT_REFUSED(Call(&v1::Rules::Stub::LegalMoves, req, &resp), StatusCode::INVALID_ARGUMENT,
                 "z9");

  // Every listed move of every game is accepted back by its notation, and the sum of the
  // per-square lists is the full list.
  for (GameKind kind : {kChess, kShogi, kCheckers}) {
    v1::LegalMovesRequest all;
    all.set_kind(kind);
    all.set_state(Start(kind));
    v1::LegalMovesResponse full;
    ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, all, &full).ok());
    ASSERT_GT(full.moves_size(), 0) << v1::GameKind_Name(kind);
    std::map<std::string, int> per_square;
    for (const v1::Move& m : full.moves()) {
      ++per_square[m.path(0)];
      EXPECT_FALSE(m.notation().empty());
      EXPECT_FALSE(m.display().empty());
    }
    int sum = 0;
    for (const auto& [sq, n] : per_square) {
      if (!full.moves(0).drop().empty()) break;
      v1::LegalMovesRequest one = all;
      one.set_from_square(sq);
      v1::LegalMovesResponse part;
      ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, one, &part).ok()) << sq;
      sum += part.moves_size();
    }
    EXPECT_EQ(sum, full.moves_size()) << v1::GameKind_Name(kind);
    for (int i = 0; i < full.moves_size(); i += 7) {
      v1::ApplyMoveResponse r;
      ASSERT_TRUE(Apply(kind, all.state(), full.moves(i).notation(), &r).ok())
          << full.moves(i).notation();
      EXPECT_EQ(r.move().notation(), full.moves(i).notation());
      EXPECT_EQ(r.view().ply(), 1);
    }
  }
}

TEST_F(RulesTest, StructuredMovesAreCompletedByTheEngine) {
  v1::ApplyMoveRequest req;
  req.set_kind(kChess);
  req.set_state(Start(kChess, {}, 0, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
  v1::Move* m = req.mutable_structured();
  m->add_path("a7");
  m->add_path("a8");
  m->set_promotion("q");
  m->set_seat(1);           // ignored
  m->set_notation("junk");  // ignored
  v1::ApplyMoveResponse resp;
  ASSERT_TRUE(Call(&v1::Rules::Stub::ApplyMove, req, &resp).ok());
  EXPECT_EQ(resp.move().notation(), "a7a8q");
  EXPECT_EQ(resp.move().display(), "a8=Q+");
  EXPECT_EQ(resp.move().seat(), 0);
  EXPECT_EQ(EventTypes(resp.events()),
            (std::vector<std::string>{"TYPE_MOVE", "TYPE_PROMOTION", "TYPE_CHECK"}));

  // Chinese Checkers: a structured path of the first listed move.
  v1::LegalMovesRequest lreq;
  lreq.set_kind(kCheckers);
  lreq.set_state(Start(kCheckers));
  v1::LegalMovesResponse legal;
  ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, lreq, &legal).ok());
  ASSERT_GT(legal.moves_size(), 0);
  req.set_kind(kCheckers);
  req.set_state(lreq.state());
  *req.mutable_structured() = legal.moves(legal.moves_size() - 1);
  req.mutable_structured()->clear_notation();
  ASSERT_TRUE(Call(&v1::Rules::Stub::ApplyMove, req, &resp).ok());
  EXPECT_EQ(resp.move().notation(), legal.moves(legal.moves_size() - 1).notation());
  EXPECT_EQ(resp.view().to_move(), 1);

  req.mutable_structured()->clear_path();
  EXPECT_REFUSED(Call(&v1::Rules::Stub::ApplyMove, req, &resp), StatusCode::INVALID_ARGUMENT,
                 "path");
  req.clear_move();
  EXPECT_REFUSED(Call(&v1::Rules::Stub::ApplyMove, req, &resp), StatusCode::INVALID_ARGUMENT,
                 "no move");
}

// ---------------------------------------------------------------------------------------
// Four-player shogi: a repetition cycle found with the library, played through the API.

TEST_F(RulesTest, ShogiFourthOccurrenceEndsTheGame) {
  const std::vector<std::string> cycle = FindShogiCycle();
  ASSERT_EQ(cycle.size(), 8u) << "no quiet repetition cycle found in the start position";
  std::string state = Start(kShogi);
  // The start is the first occurrence; after three cycles it occurs a fourth time.
  std::vector<std::string> moves;
  for (int k = 0; k < 3; ++k) moves.insert(moves.end(), cycle.begin(), cycle.end());
  v1::ApplyMoveResponse last = PlayAll(kShogi, &state, moves);
  EXPECT_TRUE(last.result().over());
  EXPECT_EQ(last.result().reason(), "fourth_occurrence");
  EXPECT_EQ(last.view().ply(), 24);
  EXPECT_EQ(EventTypes(last.events()).back(), "TYPE_GAME_OVER");
  EXPECT_EQ(last.result().places_size(), 4);
  for (int p : last.result().places()) EXPECT_GE(p, 1);  // every survivor ranked
  v1::ApplyMoveResponse after;
  EXPECT_REFUSED(Apply(kShogi, state, cycle[0], &after), StatusCode::FAILED_PRECONDITION, "over");

  // Shogi specifics through the API: drops listed from a hand square, bad square names.
  v1::LegalMovesRequest lreq;
  lreq.set_kind(kShogi);
  lreq.set_state(Start(kShogi));
  lreq.set_from_square("P*");
  v1::LegalMovesResponse lresp;
  ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, lreq, &lresp).ok());
  EXPECT_EQ(lresp.moves_size(), 0);  // empty hand
  lreq.set_from_square("0z");
  EXPECT_REFUSED(Call(&v1::Rules::Stub::LegalMoves, lreq, &lresp), StatusCode::INVALID_ARGUMENT,
                 "0z");
}

// ---------------------------------------------------------------------------------------
// Chinese Checkers: a two-player race to the finish, both seats greedy (library), every
// move played through the API.

struct Hex {
  int q, r;
};

// Hole names as the rules document defines the board: rows "a".."q" from the south tip,
// holes numbered from the west within a row (r = 8 - row; q ascending).
std::map<std::string, Hex> HoleMap() {
  std::map<std::string, Hex> out;
  for (int row = 0; row < 17; ++row) {
    const int r = 8 - row;
    int col = 0;
    for (int q = -8; q <= 8; ++q) {
      const int s = -q - r;
      const bool on = (q <= 4 && r <= 4 && s <= 4) || (q >= -4 && r >= -4 && s >= -4);
      if (!on) continue;
      char name[16];
      std::snprintf(name, sizeof name, "%c%d", 'a' + row, ++col);
      out[name] = {q, r};
    }
  }
  return out;
}

int Distance(Hex a, Hex b) {
  const int dq = std::abs(a.q - b.q), dr = std::abs(a.r - b.r);
  const int ds = std::abs((a.q + a.r) - (b.q + b.r));
  return std::max({dq, dr, ds});
}

std::vector<std::string> FindCheckersRace() {
  const std::map<std::string, Hex> holes = HoleMap();
  game::NewGameParams p;
  p.kind = game::Kind::kCheckers;
  p.seats = 2;
  auto g = games::NewGame(p);
  if (!g.ok()) return {};
  const Hex tip[2] = {holes.at("q1"), holes.at("a1")};  // seat 0 goes north, seat 1 south
  std::vector<std::string> moves;
  while (!(*g)->result().over && moves.size() < 600) {
    const int seat = (*g)->to_move();
    const Hex goal = tip[seat];
    const game::Move* best = nullptr;
    int best_gain = -100, best_back = -1;
    std::vector<game::Move> legal = (*g)->LegalMoves();
    for (const game::Move& m : legal) {
      const int from = Distance(holes.at(m.path.front()), goal);
      const int to = Distance(holes.at(m.path.back()), goal);
      // Largest gain; among equals move the rearmost piece so that nobody is left behind.
      if (from - to > best_gain || (from - to == best_gain && from > best_back)) {
        best = &m;
        best_gain = from - to;
        best_back = from;
      }
    }
    if (best == nullptr || !(*g)->Play(*best).ok()) return {};
    moves.push_back(best->notation);
  }
  return moves;
}

TEST_F(RulesTest, ChineseCheckersRacePlayedToTheFinish) {
  const std::vector<std::string> moves = FindCheckersRace();
  ASSERT_FALSE(moves.empty()) << "the library could not play a race";
  std::string state = Start(kCheckers);
  v1::ApplyMoveResponse last = PlayAll(kCheckers, &state, moves);
  ASSERT_TRUE(last.result().over()) << last.view().position();
  EXPECT_NE(last.result().reason(), "no_progress") << "the greedy race stalled";
  EXPECT_NE(last.result().reason(), "move_limit");
  std::vector<std::string> types = EventTypes(last.events());
  EXPECT_NE(std::find(types.begin(), types.end(), "TYPE_FINISHED"), types.end());
  EXPECT_EQ(types.back(), "TYPE_GAME_OVER");
  std::vector<int> places = Places(last.result());
  std::sort(places.begin(), places.end());
  EXPECT_EQ(places, (std::vector<int>{1, 2}));
  EXPECT_EQ(last.result().places(last.move().seat()), 1);  // the last mover finished first
}

// The shared replica (the default flags) hands each game from one move to the next through
// its decoded-state cache, a plain one decodes every state: both must give the same answers,
// byte for byte, to every call of a long game of every kind, refusals included.
TEST_F(RulesTest, CachedGamesAnswerAsDecodedOnes) {
  std::unique_ptr<Replica> plain = StartReplica(false, {"--state_cache_entries=0"});
  ASSERT_EQ(WaitHealth(plain->addr, "SERVING", 30, "tablero.v1.Rules"), "SERVING");
  for (GameKind kind : {kChess, kShogi, kCheckers}) {
    std::string state = Start(kind, {}, kind == kCheckers ? 3 : 0);
    int plies = 0;
    for (; plies < 120; ++plies) {
      v1::LegalMovesRequest lreq;
      lreq.set_kind(kind);
      lreq.set_state(state);
      v1::LegalMovesResponse la, lb;
      ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, lreq, &la).ok());
      ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, lreq, &lb, plain->stub.get()).ok());
      EXPECT_EQ(la.SerializeAsString(), lb.SerializeAsString()) << "ply " << plies;
      if (la.moves_size() == 0) break;
      v1::ApplyMoveRequest req;
      req.set_kind(kind);
      req.set_state(state);
      req.set_move_text("zz9");  // refused: the game stays as it was
      v1::ApplyMoveResponse a, b;
      grpc::Status sa = Call(&v1::Rules::Stub::ApplyMove, req, &a);
      grpc::Status sb = Call(&v1::Rules::Stub::ApplyMove, req, &b, plain->stub.get());
      EXPECT_EQ(sa.error_code(), StatusCode::INVALID_ARGUMENT);
      EXPECT_EQ(sa.error_message(), sb.error_message());
      req.set_move_text(la.moves((plies * 7) % la.moves_size()).notation());
      a.Clear();
      b.Clear();
      ASSERT_TRUE(Call(&v1::Rules::Stub::ApplyMove, req, &a).ok()) << req.move_text();
      ASSERT_TRUE(Call(&v1::Rules::Stub::ApplyMove, req, &b, plain->stub.get()).ok());
      ASSERT_EQ(a.SerializeAsString(), b.SerializeAsString())
          << v1::GameKind_Name(kind) << " ply " << plies << " " << req.move_text();
      state = a.state();
      if (a.result().over()) break;
    }
    EXPECT_GE(plies, 20) << v1::GameKind_Name(kind);
  }
  Stop(plain.get());
}

}  // namespace
}  // namespace tablero::testing
