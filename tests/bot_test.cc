// The bot service as a real process over gRPC: legal moves, a mate in one, refused inputs,
// seeded repeatability and its metrics.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "libs/game/codec.h"
#include "libs/games/games.h"
#include "tablero/v1/bot.grpc.pb.h"
#include "tests/support/grpc_util.h"
#include "tests/support/process.h"

namespace tablero::testing {
namespace {

using tablero::v1::ChooseMoveRequest;
using tablero::v1::ChooseMoveResponse;

class BotTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    metrics_port_ = FreePort();
    addr_ = "127.0.0.1:" + std::to_string(FreePort());
    proc_ =
        new Process(BinPath("bot"), {"--listen=" + addr_,
                                     "--metrics_listen=127.0.0.1:" + std::to_string(metrics_port_),
                                     "--max_budget_ms=3000"});
  }
  static void TearDownTestSuite() {
    proc_->Signal(SIGTERM);
    proc_->Wait(15);
    delete proc_;
  }
  void SetUp() override {
    ASSERT_EQ(WaitHealth(addr_, "SERVING", 30), "SERVING") << proc_->log();
    stub_ =
        tablero::v1::Bot::NewStub(grpc::CreateChannel(addr_, grpc::InsecureChannelCredentials()));
  }

  grpc::Status Call(const ChooseMoveRequest& req, ChooseMoveResponse* resp) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    return stub_->ChooseMove(&ctx, req, resp);
  }

  static std::string State(game::Kind kind, const char* position = nullptr, int seats = 0) {
    game::NewGameParams p;
    p.kind = kind;
    p.seats = seats;
    auto g = position ? games::FromPosition(p, position) : games::NewGame(p);
    EXPECT_TRUE(g.ok()) << g.status();
    return (*g)->Encode();
  }

  static ChooseMoveRequest Req(tablero::v1::GameKind kind, const std::string& state, int level,
                               int budget_ms, uint64_t seed = 0) {
    ChooseMoveRequest r;
    r.set_kind(kind);
    r.set_state(state);
    r.set_level(level);
    r.set_budget_ms(budget_ms);
    r.set_seed(seed);
    return r;
  }

  static inline Process* proc_ = nullptr;
  static inline std::string addr_;
  static inline int metrics_port_ = 0;
  std::unique_ptr<tablero::v1::Bot::Stub> stub_;
};

TEST_F(BotTest, LegalMoveForEveryGameStart) {
  const std::pair<tablero::v1::GameKind, game::Kind> kinds[] = {
      {tablero::v1::GAME_KIND_CHESS, game::Kind::kChess},
      {tablero::v1::GAME_KIND_SHOGI4, game::Kind::kShogi4},
      {tablero::v1::GAME_KIND_CHECKERS, game::Kind::kCheckers}};
  for (auto [wire, kind] : kinds) {
    const std::string state = State(kind);
    ChooseMoveResponse resp;
    grpc::Status s = Call(Req(wire, state, 10, 300), &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    auto g = *games::Decode(state);
    auto legal = g->LegalMoves();
    auto parsed = g->ParseMove(resp.notation());
    ASSERT_TRUE(parsed.ok()) << resp.notation();
    EXPECT_NE(std::find(legal.begin(), legal.end(), *parsed), legal.end());
    EXPECT_EQ(resp.move().notation(), resp.notation());
    EXPECT_EQ(resp.move().seat(), g->to_move());
    EXPECT_FALSE(resp.move().path().empty());
    EXPECT_GE(resp.depth(), 1);
    EXPECT_GT(resp.nodes(), 0u);
    EXPECT_LE(resp.elapsed_ms(), 3000);
  }
}

TEST_F(BotTest, FindsChessMateInOne) {
  const std::string state = State(game::Kind::kChess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
  ChooseMoveResponse resp;
  ASSERT_TRUE(Call(Req(tablero::v1::GAME_KIND_CHESS, state, 10, 1000), &resp).ok());
  EXPECT_EQ(resp.notation(), "d1d8");
  EXPECT_EQ(resp.move().display(), "Rd8#");
  EXPECT_EQ(resp.eval(), 1000000 - 1);
}

TEST_F(BotTest, RefusesBadInputNamingTheField) {
  const std::string chess = State(game::Kind::kChess);
  struct Case {
    ChooseMoveRequest req;
    grpc::StatusCode code;
    const char* field;
  };
  std::string flipped = chess;
  flipped[flipped.size() / 2] ^= 0x5A;
  const Case cases[] = {
      {Req(tablero::v1::GAME_KIND_UNSPECIFIED, chess, 5, 100), grpc::INVALID_ARGUMENT, "kind"},
      {Req(tablero::v1::GameKind(9), chess, 5, 100), grpc::INVALID_ARGUMENT, "kind"},
      {Req(tablero::v1::GAME_KIND_CHESS, chess, 0, 100), grpc::INVALID_ARGUMENT, "level"},
      {Req(tablero::v1::GAME_KIND_CHESS, chess, 11, 100), grpc::INVALID_ARGUMENT, "level"},
      {Req(tablero::v1::GAME_KIND_CHESS, chess, 5, -1), grpc::INVALID_ARGUMENT, "budget_ms"},
      {Req(tablero::v1::GAME_KIND_CHESS, "", 5, 100), grpc::INVALID_ARGUMENT, "state"},
      {Req(tablero::v1::GAME_KIND_CHESS, "garbage", 5, 100), grpc::INVALID_ARGUMENT, "state"},
      {Req(tablero::v1::GAME_KIND_CHESS, flipped, 5, 100), grpc::INVALID_ARGUMENT, "state"},
      {Req(tablero::v1::GAME_KIND_SHOGI4, chess, 5, 100), grpc::INVALID_ARGUMENT, "state"},
      // Fool's mate: the game is over.
      {Req(tablero::v1::GAME_KIND_CHESS,
           State(game::Kind::kChess,
                 "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
           5, 100),
       grpc::FAILED_PRECONDITION, "over"},
  };
  for (const Case& c : cases) {
    ChooseMoveResponse resp;
    grpc::Status s = Call(c.req, &resp);
    EXPECT_EQ(s.error_code(), c.code) << c.field << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.field), std::string::npos) << s.error_message();
  }
}

// Bad input gets its precise code through the one absl -> gRPC conversion (never INTERNAL),
// with a message naming the field and nothing of the server's insides; a server-side
// failure's own message stays in the bot's log.
TEST_F(BotTest, BadInputGetsItsOwnCodeAndNoInternals) {
  const std::string chess = State(game::Kind::kChess);
  std::string crc = chess;
  crc.back() ^= 0x01;
  const std::pair<std::string, std::string> malformed[] = {
      {"truncated", chess.substr(0, 5)},
      {"bad magic", std::string(chess.size(), 'x')},
      {"corrupted", crc},
      {"unknown kind in the envelope", game::WrapState(static_cast<game::Kind>(9), 1, "xx")},
      {"payload no engine reads", game::WrapState(game::Kind::kChess, 1, "not a position")},
      {"a checkers state sent as chess", State(game::Kind::kCheckers)},
  };
  const std::string port = addr_.substr(addr_.rfind(':') + 1);
  auto clean = [&](const grpc::Status& s) {
    for (const char* inside : {"127.0.0.1", ".cc", "absl", "std::", "0x", "INTERNAL"}) {
      EXPECT_EQ(s.error_message().find(inside), std::string::npos) << s.error_message();
    }
    // (A request id is hex: it may hold the port's digits by chance.)
    if (s.error_message().find("request id") == std::string::npos) {
      EXPECT_EQ(s.error_message().find(port), std::string::npos) << s.error_message();
    }
  };
  for (const auto& [what, state] : malformed) {
    ChooseMoveResponse resp;
    grpc::Status s = Call(Req(tablero::v1::GAME_KIND_CHESS, state, 5, 100), &resp);
    EXPECT_EQ(s.error_code(), grpc::INVALID_ARGUMENT) << what << ": " << s.error_message();
    EXPECT_EQ(s.error_message().rfind("state: ", 0), 0u) << what << ": " << s.error_message();
    EXPECT_EQ(s.error_message().find("state: state: "), std::string::npos) << s.error_message();
    EXPECT_EQ(s.error_message().find("request id"), std::string::npos) << s.error_message();
    EXPECT_TRUE(s.error_details().empty()) << what;
    clean(s);
  }
  ChooseMoveResponse resp;
  grpc::Status kind = Call(Req(tablero::v1::GameKind(9), chess, 5, 100), &resp);
  EXPECT_EQ(kind.error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(kind.error_message(),
            "kind: unknown value 9 (use GAME_KIND_CHESS, GAME_KIND_SHOGI4 or GAME_KIND_CHECKERS)");
  // The bot's own DEADLINE_EXCEEDED (a call with less than its 50 ms margin left) is a
  // server error: the client sees the public message with the request id, not "no time
  // left before the deadline". (The client's own timer may fire first: then gRPC's text.)
  int answered = 0;
  for (int i = 0; i < 20 && answered < 3; ++i) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(40));
    grpc::Status s = stub_->ChooseMove(&ctx, Req(tablero::v1::GAME_KIND_CHESS, chess, 5, 0), &resp);
    EXPECT_EQ(s.error_code(), grpc::DEADLINE_EXCEEDED) << s.error_message();
    EXPECT_EQ(s.error_message().find("no time left"), std::string::npos) << s.error_message();
    clean(s);
    if (s.error_message().find("(request id ") != std::string::npos) ++answered;
  }
  EXPECT_GE(answered, 1) << "the bot never answered before the client's own deadline";
}

TEST_F(BotTest, SameSeedSameMove) {
  // A middlegame position with many reasonable moves.
  const std::string state = State(
      game::Kind::kChess, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  for (int level : {2, 5}) {
    ChooseMoveResponse a, b;
    ASSERT_TRUE(Call(Req(tablero::v1::GAME_KIND_CHESS, state, level, 3000, 77), &a).ok());
    ASSERT_TRUE(Call(Req(tablero::v1::GAME_KIND_CHESS, state, level, 3000, 77), &b).ok());
    EXPECT_EQ(a.notation(), b.notation()) << level;
    EXPECT_EQ(a.nodes(), b.nodes()) << level;
    EXPECT_EQ(a.eval(), b.eval()) << level;
  }
}

TEST_F(BotTest, ExportsThinkTimeAndOverrunMetrics) {
  ChooseMoveResponse resp;
  ASSERT_TRUE(
      Call(Req(tablero::v1::GAME_KIND_CHESS, State(game::Kind::kChess), 3, 200), &resp).ok());
  auto metrics = HttpGet("127.0.0.1", metrics_port_, "/metrics");
  ASSERT_TRUE(metrics.has_value());
  EXPECT_NE(metrics->find("tablero_bot_think_seconds_count{kind=\"chess\"}"), std::string::npos)
      << *metrics;
  EXPECT_NE(metrics->find("tablero_bot_budget_overruns_total{kind=\"checkers\"}"),
            std::string::npos)
      << *metrics;
}

// A search whose answer is no longer wanted stops: a call the caller cancelled frees its
// core at once (its think time is observed long before its 60 s budget), and a draining
// bot exits after its drain deadline instead of after the longest search in flight.
TEST(BotCancelTest, ASearchStopsWhenItsCallIsCancelledAndWhenTheServerDrains) {
  const int metrics_port = FreePort();
  const std::string addr = "127.0.0.1:" + std::to_string(FreePort());
  Process proc(BinPath("bot"),
               {"--listen=" + addr, "--metrics_listen=127.0.0.1:" + std::to_string(metrics_port),
                "--max_budget_ms=60000", "--drain_seconds=1"});
  ASSERT_EQ(WaitHealth(addr, "SERVING", 30), "SERVING") << proc.log();
  auto stub =
      tablero::v1::Bot::NewStub(grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  ChooseMoveRequest req;
  req.set_kind(tablero::v1::GAME_KIND_CHESS);
  req.set_level(10);
  req.set_budget_ms(60000);
  {
    game::NewGameParams p;
    p.kind = game::Kind::kChess;
    req.set_state((*games::NewGame(p))->Encode());
  }
  const std::string counted = "tablero_bot_think_seconds_count{kind=\"chess\"} 1";
  auto think_counted = [&] {
    auto m = HttpGet("127.0.0.1", metrics_port, "/metrics");
    return m.has_value() && m->find(counted) != std::string::npos;
  };
  ASSERT_FALSE(think_counted());
  {  // The caller gives up after 300 ms.
    grpc::ClientContext ctx;
    ChooseMoveResponse resp;
    std::thread cancel([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      ctx.TryCancel();
    });
    EXPECT_EQ(stub->ChooseMove(&ctx, req, &resp).error_code(), grpc::StatusCode::CANCELLED);
    cancel.join();
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!think_counted() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(think_counted()) << "the cancelled search still runs";
  // Drain with a search in flight: the call ends, and the process exits well before the
  // search's budget.
  grpc::ClientContext ctx;
  ChooseMoveResponse resp;
  grpc::Status status;
  std::thread call([&] { status = stub->ChooseMove(&ctx, req, &resp); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  proc.Signal(SIGTERM);
  const std::optional<int> exit = proc.Wait(20);
  EXPECT_TRUE(exit.has_value()) << "still running 20 s after SIGTERM with a 1 s drain";
  if (!exit.has_value()) ctx.TryCancel();
  call.join();
}

}  // namespace
}  // namespace tablero::testing
