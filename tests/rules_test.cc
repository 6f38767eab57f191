// The rules service as a real process over real gRPC: every game played through the API
// to its end, every kind of bad input refused with the right code, a fuzz run, metrics,
// and statelessness across replicas. The engines are linked only to *find* move sequences
// (a shogi repetition cycle, a Chinese Checkers race); every move is then played through
// the service.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "google/protobuf/util/message_differencer.h"
#include "libs/bot/levels.h"
#include "libs/game/codec.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "tablero/v1/rules.grpc.pb.h"
#include "tests/support/grpc_util.h"
#include "tests/support/process.h"

namespace tablero::testing {
namespace {

using grpc::StatusCode;
using v1::GameKind;

constexpr GameKind kChess = v1::GAME_KIND_CHESS;
constexpr GameKind kShogi = v1::GAME_KIND_SHOGI4;
constexpr GameKind kCheckers = v1::GAME_KIND_CHECKERS;

struct Replica {
  std::unique_ptr<Process> proc;
  std::string addr;
  int metrics_port = 0;
  std::unique_ptr<v1::Rules::Stub> stub;
};

// A rules process. `metrics`: also serve /metrics (its HTTP server takes ~2 s to stop, so
// only the test that reads it asks for it).
std::unique_ptr<Replica> StartReplica(bool metrics = false,
                                      const std::vector<std::string>& extra = {}) {
  auto r = std::make_unique<Replica>();
  r->addr = "127.0.0.1:" + std::to_string(FreePort());
  std::vector<std::string> args = {"--listen=" + r->addr, "--max_message_bytes=1048576"};
  args.insert(args.end(), extra.begin(), extra.end());
  if (metrics) {
    r->metrics_port = FreePort();
    args.push_back("--metrics_listen=127.0.0.1:" + std::to_string(r->metrics_port));
  }
  r->proc = std::make_unique<Process>(BinPath("rules"), args);
  r->stub = v1::Rules::NewStub(grpc::CreateChannel(r->addr, grpc::InsecureChannelCredentials()));
  return r;
}

// Stops a replica the way an orchestrator does; it must exit cleanly.
void Stop(Replica* r) {
  r->stub.reset();  // no open connection to wait for while draining
  r->proc->Signal(SIGTERM);
  EXPECT_EQ(r->proc->Wait(15), std::optional<int>(0)) << r->proc->log();
}

class RulesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = StartReplica().release();
    ASSERT_EQ(WaitHealth(server_->addr, "SERVING", 30, "tablero.v1.Rules"), "SERVING")
        << server_->proc->log();
  }
  static void TearDownTestSuite() {
    Stop(server_);
    delete server_;
    server_ = nullptr;
  }

  // One unary call with a generous deadline.
  template <typename Req, typename Resp>
  static grpc::Status Call(grpc::Status (v1::Rules::Stub::*method)(grpc::ClientContext*, const Req&,
                                                                   Resp*),
                           const Req& req, Resp* resp, v1::Rules::Stub* stub = nullptr) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    return ((stub ? stub : server_->stub.get())->*method)(&ctx, req, resp);
  }

  static grpc::Status NewGame(GameKind kind, v1::NewGameResponse* resp,
                              std::map<std::string, std::string> options = {}, int seats = 0,
                              int first_seat = 0, const std::string& position = "") {
    v1::NewGameRequest req;
    req.set_kind(kind);
    for (const auto& [k, v] : options) (*req.mutable_options())[k] = v;
    req.set_seats(seats);
    req.set_first_seat(first_seat);
    req.set_position(position);
    return Call(&v1::Rules::Stub::NewGame, req, resp);
  }

  static std::string Start(GameKind kind, std::map<std::string, std::string> options = {},
                           int seats = 0, const std::string& position = "") {
    v1::NewGameResponse resp;
    grpc::Status s = NewGame(kind, &resp, options, seats, 0, position);
    EXPECT_TRUE(s.ok()) << v1::GameKind_Name(kind) << ": " << s.error_message();
    return resp.state();
  }

  static grpc::Status Apply(GameKind kind, const std::string& state, const std::string& move,
                            v1::ApplyMoveResponse* resp) {
    v1::ApplyMoveRequest req;
    req.set_kind(kind);
    req.set_state(state);
    req.set_move_text(move);
    return Call(&v1::Rules::Stub::ApplyMove, req, resp);
  }

  // Plays `moves` in order from *state (updated); returns the last answer.
  static v1::ApplyMoveResponse PlayAll(GameKind kind, std::string* state,
                                       const std::vector<std::string>& moves) {
    v1::ApplyMoveResponse resp;
    for (size_t i = 0; i < moves.size(); ++i) {
      resp.Clear();
      grpc::Status s = Apply(kind, *state, moves[i], &resp);
      EXPECT_TRUE(s.ok()) << "move " << i + 1 << " " << moves[i] << ": " << s.error_message();
      if (!s.ok()) break;
      EXPECT_FALSE(resp.result().over() && i + 1 < moves.size())
          << "game over early, after move " << i + 1 << " " << moves[i] << ": "
          << resp.result().reason();
      *state = resp.state();
    }
    return resp;
  }

  static grpc::Status Act(GameKind kind, const std::string& state, int seat, v1::Action action,
                          v1::ApplyActionResponse* resp, const std::string& move_text = "") {
    v1::ApplyActionRequest req;
    req.set_kind(kind);
    req.set_state(state);
    req.set_seat(seat);
    req.set_action(action);
    req.set_move_text(move_text);
    return Call(&v1::Rules::Stub::ApplyAction, req, resp);
  }

  static Replica* server_;
};

Replica* RulesTest::server_ = nullptr;

// The code is right and the message names the problem.
#define EXPECT_REFUSED(status, code, needle)                                       \
  do {                                                                             \
    grpc::Status s_ = (status);                                                    \
    EXPECT_EQ(s_.error_code(), code) << s_.error_message();                        \
    EXPECT_NE(s_.error_message().find(needle), std::string::npos)                  \
        << "message \"" << s_.error_message() << "\" does not mention " << needle; \
  } while (0)

std::vector<std::string> EventTypes(const google::protobuf::RepeatedPtrField<v1::PlayEvent>& ev) {
  std::vector<std::string> out;
  for (const v1::PlayEvent& e : ev) out.push_back(v1::PlayEvent::Type_Name(e.type()));
  return out;
}

std::vector<int> Places(const v1::Result& r) { return {r.places().begin(), r.places().end()}; }

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
      if (o.type() == v1::OptionSpec::TYPE_CHOICE || o.type() == v1::OptionSpec::TYPE_BOOL) {
        EXPECT_NE(std::find(o.choices().begin(), o.choices().end(), o.default_value()),
                  o.choices().end())
            << o.name();
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

// Morphy - Duke of Brunswick and Count Isouard, Paris 1858 ("the Opera game").
const std::vector<std::string> kOperaGame = {
    "e4",    "e5",  "Nf3",  "d6",   "d4",  "Bg4", "dxe5",  "Bxf3", "Qxf3", "dxe5",  "Bc4",
    "Nf6",   "Qb3", "Qe7",  "Nc3",  "c6",  "Bg5", "b5",    "Nxb5", "cxb5", "Bxb5+", "Nbd7",
    "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8",  "Rd8#"};

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

// The board part of a shogi4 position text (drops the trailing ply number).
std::string WithoutPly(const std::string& text) { return text.substr(0, text.rfind(' ')); }

// One quiet board move per seat, then each seat's move back: a cycle of 8 plies that
// repeats the start position with no check and no capture.
std::vector<std::string> FindShogiCycle() {
  game::NewGameParams p;
  p.kind = game::Kind::kShogi4;
  auto start = games::NewGame(p);
  if (!start.ok()) return {};
  std::vector<std::set<std::string>> banned(4);
  for (int attempt = 0; attempt < 200; ++attempt) {
    std::unique_ptr<game::Game> g = (*start)->Clone();
    std::vector<std::string> cycle;
    std::vector<game::Move> out(4);
    bool ok = true;
    for (int i = 0; i < 4 && ok; ++i) {
      const int seat = g->to_move();
      ok = false;
      for (const game::Move& m : g->LegalMoves()) {
        if (m.path.size() != 2 || !m.drop.empty() || !m.promotion.empty()) continue;
        if (banned[seat].count(m.notation)) continue;
        std::unique_ptr<game::Game> trial = g->Clone();
        auto ev = trial->Play(m);
        if (!ev.ok()) continue;
        bool quiet = true;
        for (const game::Event& e : *ev) quiet &= e.type == game::EventType::kMove;
        if (!quiet) continue;
        g = std::move(trial);
        out[seat] = m;
        cycle.push_back(m.notation);
        ok = true;
        break;
      }
    }
    if (!ok) return {};
    for (int i = 0; i < 4 && ok; ++i) {
      const int seat = g->to_move();
      const game::Move& there = out[seat];
      ok = false;
      for (const game::Move& m : g->LegalMoves()) {
        if (m.path == std::vector<std::string>{there.path[1], there.path[0]} &&
            m.promotion.empty() && m.drop.empty()) {
          auto ev = g->Play(m);
          ok = ev.ok() && ev->size() == 1;
          cycle.push_back(m.notation);
          break;
        }
      }
      if (!ok) banned[seat].insert(there.notation);
    }
    if (ok && WithoutPly(g->PositionText()) == WithoutPly((*start)->PositionText())) return cycle;
  }
  return {};
}

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

// ---------------------------------------------------------------------------------------
// Bad input of every kind

TEST_F(RulesTest, BadStatesAreRefusedAsInvalidArgument) {
  const std::string chess = Start(kChess);
  v1::ApplyMoveResponse r;
  EXPECT_REFUSED(Apply(kShogi, chess, "e2e4", &r), StatusCode::INVALID_ARGUMENT, "chess");
  EXPECT_REFUSED(Apply(v1::GAME_KIND_UNSPECIFIED, chess, "e2e4", &r), StatusCode::INVALID_ARGUMENT,
                 "kind");
  EXPECT_REFUSED(Apply(kChess, "", "e2e4", &r), StatusCode::INVALID_ARGUMENT, "state");
  std::string flipped = chess;
  flipped[flipped.size() / 2] ^= 0x10;
  EXPECT_REFUSED(Apply(kChess, flipped, "e2e4", &r), StatusCode::INVALID_ARGUMENT, "checksum");
  EXPECT_REFUSED(Apply(kChess, chess.substr(0, 6), "e2e4", &r), StatusCode::INVALID_ARGUMENT,
                 "short");
  EXPECT_REFUSED(Apply(kChess, "garbage-garbage-garbage", "e2e4", &r), StatusCode::INVALID_ARGUMENT,
                 "state");
  // Another encoding version, with a valid envelope: refused by the engine.
  auto env = game::UnwrapState(chess);
  ASSERT_TRUE(env.ok());
  const std::string v99 = game::WrapState(game::Kind::kChess, 99, env->payload);
  EXPECT_REFUSED(Apply(kChess, v99, "e2e4", &r), StatusCode::INVALID_ARGUMENT, "version");
  // A valid envelope around a payload the engine cannot trust.
  std::string payload(env->payload);
  payload.back() ^= 0x7f;
  EXPECT_REFUSED(
      Apply(kChess, game::WrapState(game::Kind::kChess, env->version, payload), "e2e4", &r),
      StatusCode::INVALID_ARGUMENT, "chess");

  // ValidateState: any kind when unspecified; the kind must match otherwise.
  for (GameKind kind : {kChess, kShogi, kCheckers}) {
    v1::ValidateStateRequest req;
    req.set_state(Start(kind, {}, kind == kCheckers ? 3 : 0));
    v1::ValidateStateResponse resp;
    ASSERT_TRUE(Call(&v1::Rules::Stub::ValidateState, req, &resp).ok());
    EXPECT_EQ(resp.kind(), kind);
    EXPECT_EQ(resp.seats(), kind == kChess ? 2 : kind == kShogi ? 4 : 3);
    EXPECT_TRUE(resp.options().count("show_legal_moves"));
    EXPECT_FALSE(resp.result().over());
    EXPECT_FALSE(resp.view().position().empty());
    req.set_kind(kind == kChess ? kCheckers : kChess);
    EXPECT_REFUSED(Call(&v1::Rules::Stub::ValidateState, req, &resp), StatusCode::INVALID_ARGUMENT,
                   "not");
    req.set_kind(static_cast<GameKind>(9));
    EXPECT_REFUSED(Call(&v1::Rules::Stub::ValidateState, req, &resp), StatusCode::INVALID_ARGUMENT,
                   "kind");
  }
  v1::ValidateStateRequest bad;
  bad.set_state(flipped);
  v1::ValidateStateResponse resp;
  EXPECT_REFUSED(Call(&v1::Rules::Stub::ValidateState, bad, &resp), StatusCode::INVALID_ARGUMENT,
                 "checksum");

  // Export is chess-only.
  v1::ExportRequest ex;
  ex.set_kind(kShogi);
  ex.set_state(Start(kShogi));
  ex.set_format("fen");
  v1::ExportResponse text;
  EXPECT_REFUSED(Call(&v1::Rules::Stub::Export, ex, &text), StatusCode::FAILED_PRECONDITION,
                 "shogi4");
  ex.set_format("sgf");
  EXPECT_REFUSED(Call(&v1::Rules::Stub::Export, ex, &text), StatusCode::INVALID_ARGUMENT, "sgf");
}

TEST_F(RulesTest, BadMovesGetTheRightCodeAndCountAsIllegal) {
  const std::string chess = Start(kChess);
  v1::ApplyMoveResponse r;
  EXPECT_REFUSED(Apply(kChess, chess, "e2e5", &r), StatusCode::FAILED_PRECONDITION, "e2e5");
  EXPECT_REFUSED(Apply(kChess, chess, "Ke2", &r), StatusCode::FAILED_PRECONDITION, "");
  EXPECT_REFUSED(Apply(kChess, chess, "hello", &r), StatusCode::INVALID_ARGUMENT, "hello");
  EXPECT_REFUSED(Apply(kChess, chess, "", &r), StatusCode::INVALID_ARGUMENT, "");
  EXPECT_REFUSED(Apply(kChess, chess, std::string(2000, 'e'), &r), StatusCode::INVALID_ARGUMENT,
                 "move_text");
  EXPECT_REFUSED(Apply(kShogi, Start(kShogi), "5i5a", &r), StatusCode::FAILED_PRECONDITION, "");
  EXPECT_REFUSED(Apply(kShogi, Start(kShogi), "Q*5e", &r), StatusCode::INVALID_ARGUMENT, "");
  EXPECT_REFUSED(Apply(kCheckers, Start(kCheckers), "a1-q1", &r), StatusCode::FAILED_PRECONDITION,
                 "");
  EXPECT_REFUSED(Apply(kCheckers, Start(kCheckers), "a1-zz", &r), StatusCode::INVALID_ARGUMENT,
                 "zz");

  // A stale move: expected_ply names a ply that is not the state's.
  v1::ApplyMoveRequest req;
  req.set_kind(kChess);
  req.set_state(chess);
  req.set_move_text("e2e4");
  req.mutable_expected_ply()->set_value(3);
  EXPECT_REFUSED(Call(&v1::Rules::Stub::ApplyMove, req, &r), StatusCode::ABORTED, "ply");
  req.mutable_expected_ply()->set_value(0);
  EXPECT_TRUE(Call(&v1::Rules::Stub::ApplyMove, req, &r).ok());
}

TEST_F(RulesTest, OversizedRequestIsResourceExhaustedAndTheServiceStaysUp) {
  v1::ApplyMoveResponse r;
  grpc::Status s = Apply(kChess, std::string(2 << 20, 'x'), "e2e4", &r);
  EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_EQ(HealthStatus(server_->addr, "tablero.v1.Rules"), "SERVING");
  EXPECT_TRUE(Apply(kChess, Start(kChess), "e4", &r).ok());
}

TEST_F(RulesTest, ExpiredDeadlineIsDeadlineExceeded) {
  v1::ApplyMoveRequest req;
  req.set_kind(kChess);
  req.set_state(Start(kChess));
  req.set_move_text("e4");
  v1::ApplyMoveResponse r;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() - std::chrono::milliseconds(1));
  EXPECT_EQ(server_->stub->ApplyMove(&ctx, req, &r).error_code(), StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(HealthStatus(server_->addr, "tablero.v1.Rules"), "SERVING");
}

// ---------------------------------------------------------------------------------------
// Fuzz: random bytes at the decoders, random text at the move parsers; fixed seed.

TEST_F(RulesTest, FuzzStatesAndMoveTextsNeverHurtTheService) {
  std::mt19937_64 rng(20261129);
  auto bytes = [&](size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
  };
  const GameKind kinds[3] = {kChess, kShogi, kCheckers};
  std::vector<std::string> seeds;  // valid states a few moves deep, to mutate
  for (GameKind k : kinds) {
    std::string st = Start(k, {}, k == kCheckers ? 3 : 0);
    seeds.push_back(st);
    for (int i = 0; i < 6; ++i) {
      v1::LegalMovesRequest lreq;
      lreq.set_kind(k);
      lreq.set_state(st);
      v1::LegalMovesResponse legal;
      ASSERT_TRUE(Call(&v1::Rules::Stub::LegalMoves, lreq, &legal).ok());
      if (legal.moves_size() == 0) break;
      v1::ApplyMoveResponse r;
      ASSERT_TRUE(Apply(k, st, legal.moves(rng() % legal.moves_size()).notation(), &r).ok());
      st = r.state();
    }
    seeds.push_back(st);
  }
  const std::string alphabet = "abcdefghiqKQRBNPSG+*-=#x0123456789O/ \n";
  int calls = 0, ok = 0, invalid = 0, other = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (calls < 6000 && (calls < 1500 || std::chrono::steady_clock::now() < until)) {
    const int k = static_cast<int>(rng() % 3);
    std::string state;
    std::string move = "e2e4";
    switch (rng() % 4) {
      case 0:  // raw random bytes
        state = bytes(rng() % 200);
        break;
      case 1: {  // a valid envelope around random bytes: the engine's decoder is hit
        state = game::WrapState(static_cast<game::Kind>(k + 1), 1, bytes(rng() % 300));
        break;
      }
      case 2: {  // a real state with a few bytes changed, checksum fixed up
        const std::string& seed = seeds[rng() % seeds.size()];
        auto env = game::UnwrapState(seed);
        std::string payload(env->payload);
        for (int n = 1 + static_cast<int>(rng() % 3); n > 0 && !payload.empty(); --n) {
          payload[rng() % payload.size()] = static_cast<char>(rng());
        }
        if (rng() % 4 == 0) payload.resize(rng() % (payload.size() + 1));
        state = game::WrapState(env->kind, env->version, payload);
        break;
      }
      default: {  // a real state and a random move text
        state = seeds[rng() % seeds.size()];
        move.clear();
        for (size_t n = rng() % 14; n > 0; --n) {
          // Proto strings must be UTF-8 (clients refuse to send anything else): any ASCII
          // byte, the notation alphabet, and now and then a multi-byte character.
          if (rng() % 16 == 0) {
            move += "\u00e9";
          } else {
            move += rng() % 4 == 0 ? static_cast<char>(1 + rng() % 127)
                                   : alphabet[rng() % alphabet.size()];
          }
        }
        break;
      }
    }
    v1::ApplyMoveResponse r;
    GameKind kind = kinds[k];
    if (rng() % 2 == 0) {  // the seed's own kind
      auto env = game::UnwrapState(state);
      if (env.ok()) kind = static_cast<GameKind>(env->kind);
    }
    grpc::Status s = Apply(kind, state, move, &r);
    ++calls;
    if (s.ok()) {
      ++ok;
    } else if (s.error_code() == StatusCode::INVALID_ARGUMENT ||
               s.error_code() == StatusCode::FAILED_PRECONDITION) {
      ++invalid;
      EXPECT_FALSE(s.error_message().empty());
    } else {
      ++other;
      ADD_FAILURE() << "unexpected " << s.error_code() << ": " << s.error_message();
    }
    if (rng() % 16 == 0) {  // the other decoding RPCs too
      v1::ValidateStateRequest vreq;
      vreq.set_state(state);
      v1::ValidateStateResponse vresp;
      grpc::Status vs = Call(&v1::Rules::Stub::ValidateState, vreq, &vresp);
      EXPECT_TRUE(vs.ok() || vs.error_code() == StatusCode::INVALID_ARGUMENT) << vs.error_message();
      ++calls;
    }
  }
  EXPECT_GE(calls, 1500);
  EXPECT_GT(invalid, calls / 2);
  EXPECT_EQ(other, 0);
  EXPECT_TRUE(server_->proc->running()) << server_->proc->log();
  EXPECT_EQ(HealthStatus(server_->addr, "tablero.v1.Rules"), "SERVING");
  v1::ApplyMoveResponse r;
  EXPECT_TRUE(Apply(kChess, Start(kChess), "e4", &r).ok());
  std::cout << "fuzz: " << calls << " calls, " << ok << " ok, " << invalid << " refused\n";
}

// ---------------------------------------------------------------------------------------
// Operations: metrics per kind, statelessness across replicas.

// Value of the sample `name{labels}` on the metrics page (-1 if absent).
double Sample(const std::string& page, const std::string& prefix) {
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix + " ", 0) == 0) return std::stod(line.substr(prefix.size() + 1));
  }
  return -1;
}

TEST_F(RulesTest, MetricsCountMovesIllegalMovesAndLatencyPerKind) {
  // A replica of its own, with /metrics; the helpers talk to it for this test.
  std::unique_ptr<Replica> metered = StartReplica(/*metrics=*/true);
  ASSERT_EQ(WaitHealth(metered->addr, "SERVING", 30, "tablero.v1.Rules"), "SERVING");
  struct Swap {
    Replica* saved;
    ~Swap() { server_ = saved; }
  } swap{server_};
  server_ = metered.get();
  auto before = HttpGet("127.0.0.1", server_->metrics_port, "/metrics");
  ASSERT_TRUE(before.has_value());
  std::string chess = Start(kChess);
  PlayAll(kChess, &chess, {"e4", "e5", "Nf3"});
  v1::ApplyMoveResponse r;
  EXPECT_FALSE(Apply(kChess, chess, "Ke5", &r).ok());
  EXPECT_FALSE(Apply(kCheckers, Start(kCheckers), "a1-a1", &r).ok());
  std::string shogi = Start(kShogi);
  PlayAll(kShogi, &shogi, {FindShogiCycle().at(0)});
  auto after = HttpGet("127.0.0.1", server_->metrics_port, "/metrics");
  ASSERT_TRUE(after.has_value());
  auto delta = [&](const std::string& sample) {
    double b = Sample(*before, sample), a = Sample(*after, sample);
    EXPECT_GE(a, 0) << sample << " missing:\n" << *after;
    return a - std::max(b, 0.0);
  };
  EXPECT_EQ(delta("tablero_rules_moves_total{kind=\"chess\"}"), 3);
  EXPECT_EQ(delta("tablero_rules_moves_total{kind=\"shogi4\"}"), 1);
  EXPECT_EQ(delta("tablero_rules_moves_total{kind=\"checkers\"}"), 0);
  EXPECT_EQ(delta("tablero_rules_illegal_moves_total{kind=\"chess\"}"), 1);
  EXPECT_EQ(delta("tablero_rules_illegal_moves_total{kind=\"checkers\"}"), 1);
  EXPECT_EQ(delta("tablero_rules_apply_seconds_count{kind=\"chess\"}"), 4);
  EXPECT_GT(delta("tablero_rules_apply_seconds_sum{kind=\"chess\"}"), 0);
  EXPECT_NE(after->find("# TYPE tablero_rules_apply_seconds histogram"), std::string::npos);
  // Every state above came from this replica's own last answer (a NewGame or a move): each
  // of the six applies took its game from the decoded-state cache.
  EXPECT_GE(delta("tablero_rules_state_cache_total{result=\"hit\"}"), 6);
  Stop(metered.get());
}

// The other replica has no decoded-state cache, so every second move is decoded from the
// bytes the first replica encoded, and the first replica never sees a state it answered.
TEST_F(RulesTest, AnyReplicaContinuesAnyGame) {
  std::unique_ptr<Replica> other = StartReplica(false, {"--state_cache_entries=0"});
  ASSERT_EQ(WaitHealth(other->addr, "SERVING", 30, "tablero.v1.Rules"), "SERVING");
  std::string state = Start(kChess);
  for (size_t i = 0; i < kOperaGame.size(); ++i) {
    v1::ApplyMoveRequest req;
    req.set_kind(kChess);
    req.set_state(state);
    req.set_move_text(kOperaGame[i]);
    v1::ApplyMoveResponse r;
    grpc::Status s =
        Call(&v1::Rules::Stub::ApplyMove, req, &r, i % 2 ? other->stub.get() : server_->stub.get());
    ASSERT_TRUE(s.ok()) << kOperaGame[i] << ": " << s.error_message();
    state = r.state();
  }
  v1::ValidateStateRequest vreq;
  vreq.set_state(state);
  v1::ValidateStateResponse a, b;
  ASSERT_TRUE(Call(&v1::Rules::Stub::ValidateState, vreq, &a).ok());
  ASSERT_TRUE(Call(&v1::Rules::Stub::ValidateState, vreq, &b, other->stub.get()).ok());
  EXPECT_EQ(a.result().reason(), "checkmate");
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a, b)) << a.DebugString() << "\n"
                                                                        << b.DebugString();
  Stop(other.get());
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

TEST_F(RulesTest, PingAnswers) {
  v1::RulesPingResponse r;
  EXPECT_TRUE(Call(&v1::Rules::Stub::Ping, v1::RulesPingRequest(), &r).ok());
}

}  // namespace
}  // namespace tablero::testing
