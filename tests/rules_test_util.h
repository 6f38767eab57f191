// Shared by the rules service tests: a rules process on a fresh port, a fixture whose
// suite shares one such process, small client helpers, and move sequences to play (one
// found with the engine library: a four-player shogi repetition cycle).
#ifndef TABLERO_TESTS_RULES_TEST_UTIL_H_
#define TABLERO_TESTS_RULES_TEST_UTIL_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libs/game/game.h"
#include "libs/games/games.h"
#include "tablero/v1/rules.grpc.pb.h"
#include "tests/support/grpc_util.h"
#include "tests/support/process.h"

namespace tablero::testing {

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
inline std::unique_ptr<Replica> StartReplica(bool metrics = false,
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
inline void Stop(Replica* r) {
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

  static inline Replica* server_ = nullptr;
};

// The code is right and the message names the problem.
#define EXPECT_REFUSED(status, code, needle)                                       \
  do {                                                                             \
    grpc::Status s_ = (status);                                                    \
    EXPECT_EQ(s_.error_code(), code) << s_.error_message();                        \
    EXPECT_NE(s_.error_message().find(needle), std::string::npos)                  \
        << "message \"" << s_.error_message() << "\" does not mention " << needle; \
  } while (0)

inline std::vector<std::string> EventTypes(
    const google::protobuf::RepeatedPtrField<v1::PlayEvent>& ev) {
  std::vector<std::string> out;
  for (const v1::PlayEvent& e : ev) out.push_back(v1::PlayEvent::Type_Name(e.type()));
  return out;
}

inline std::vector<int> Places(const v1::Result& r) {
  return {r.places().begin(), r.places().end()};
}

// Morphy - Duke of Brunswick and Count Isouard, Paris 1858 ("the Opera game").
inline const std::vector<std::string> kOperaGame = {
    "e4",    "e5",  "Nf3",  "d6",   "d4",  "Bg4", "dxe5",  "Bxf3", "Qxf3", "dxe5",  "Bc4",
    "Nf6",   "Qb3", "Qe7",  "Nc3",  "c6",  "Bg5", "b5",    "Nxb5", "cxb5", "Bxb5+", "Nbd7",
    "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8",  "Rd8#"};

// The board part of a shogi4 position text (drops the trailing ply number).
inline std::string WithoutPly(const std::string& text) { return text.substr(0, text.rfind(' ')); }

// One quiet board move per seat, then each seat's move back: a cycle of 8 plies that
// repeats the start position with no check and no capture.
inline std::vector<std::string> FindShogiCycle() {
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

}  // namespace tablero::testing

#endif  // TABLERO_TESTS_RULES_TEST_UTIL_H_
