// The rules service as a real process over real gRPC: every kind of bad input refused
// with the right code, a fuzz run, metrics, and statelessness across replicas.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "google/protobuf/util/message_differencer.h"
#include "libs/game/codec.h"
#include "tests/rules_test_util.h"

namespace tablero::testing {
namespace {

// The same shared rules process as RulesTest's, in a suite of its own.
class RulesInputTest : public RulesTest {};

// ---------------------------------------------------------------------------------------
// Bad input of every kind

TEST_F(RulesInputTest, BadStatesAreRefusedAsInvalidArgument) {
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

TEST_F(RulesInputTest, BadMovesGetTheRightCodeAndCountAsIllegal) {
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

TEST_F(RulesInputTest, OversizedRequestIsResourceExhaustedAndTheServiceStaysUp) {
  v1::ApplyMoveResponse r;
  grpc::Status s = Apply(kChess, std::string(2 << 20, 'x'), "e2e4", &r);
  EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_EQ(HealthStatus(server_->addr, "tablero.v1.Rules"), "SERVING");
  EXPECT_TRUE(Apply(kChess, Start(kChess), "e4", &r).ok());
}

TEST_F(RulesInputTest, ExpiredDeadlineIsDeadlineExceeded) {
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

TEST_F(RulesInputTest, FuzzStatesAndMoveTextsNeverHurtTheService) {
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

TEST_F(RulesInputTest, MetricsCountMovesIllegalMovesAndLatencyPerKind) {
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
TEST_F(RulesInputTest, AnyReplicaContinuesAnyGame) {
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

TEST_F(RulesInputTest, PingAnswers) {
  v1::RulesPingResponse r;
  EXPECT_TRUE(Call(&v1::Rules::Stub::Ping, v1::RulesPingRequest(), &r).ok());
}

}  // namespace
}  // namespace tablero::testing
