// What an outside audit (issue 23) found, each as the attacker saw it: real processes over
// gRPC against the test Postgres. Invite codes stay with room members; one player's or one
// address's wrong codes never refuse another's valid code; every method answers
// INVALID_ARGUMENT to bytes that are no message; made-up method names create no metric
// series; a database outage shows the client no internals and logs the request id;
// internal methods need service credentials.
#include <google/protobuf/descriptor.h>
#include <grpcpp/generic/generic_stub.h>

#include <future>
#include <random>
#include <sstream>

#include "tablero/v1/bot.grpc.pb.h"
#include "tablero/v1/ops.grpc.pb.h"
#include "tablero/v1/rating.grpc.pb.h"
#include "tablero/v1/rules.grpc.pb.h"
#include "tests/matchmaking_test_util.h"

namespace tablero::testing {
namespace {

using Metadata = std::vector<std::pair<std::string, std::string>>;

// One unary call of raw request bytes to any path.
grpc::Status RawCall(const std::string& addr, const std::string& path, const std::string& bytes,
                     const Metadata& md = {}) {
  auto channel = grpc::CreateChannel(addr, grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::ClientContext ctx;
  Deadline(&ctx, 10);
  for (const auto& [k, v] : md) ctx.AddMetadata(k, v);
  grpc::Slice slice(bytes);
  grpc::ByteBuffer req(&slice, 1), resp;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&ctx, path, grpc::StubOptions(), &req, &resp,
                 [&done](grpc::Status s) { done.set_value(std::move(s)); });
  return done.get_future().get();
}

template <typename Req, typename Resp, typename Fn>
grpc::Status CallWith(Fn fn, const Guest* g, const Metadata& md, const Req& req, Resp* resp) {
  grpc::ClientContext ctx;
  if (g != nullptr) {
    Auth(&ctx, *g);
  } else {
    Deadline(&ctx);
  }
  for (const auto& [k, v] : md) ctx.AddMetadata(k, v);
  return fn(&ctx, req, resp);
}
#define MM_CALL_MD(stub, Method, guest, md, req, resp)           \
  CallWith([&](grpc::ClientContext* c_, const auto& q_,          \
               auto* r_) { return (stub)->Method(c_, q_, r_); }, \
           (guest), (md), (req), (resp))

// As Envoy forwards it: whatever the client wrote, then the address Envoy saw.
Metadata From(const std::string& address) {
  return {{"x-forwarded-for", "192.0.2.99, " + address}};
}

TEST(Audit, AStrangerCannotLearnAnInviteCode) {
  Stack stack;
  auto* mm = stack.mm(stack.AddReplica());
  Guest host = NewGuest(mm), stranger = NewGuest(mm);
  v1::Room room = NewRoom(mm, host);
  ASSERT_FALSE(room.invite_code().empty());
  // Player ids are public, and a player's games list their rooms.
  v1::GetRoomRequest by_id;
  by_id.set_room_id(room.id());
  for (const Guest* who : std::vector<const Guest*>{nullptr, &stranger}) {
    v1::Room seen;
    ASSERT_TRUE(MM_CALL(mm, GetRoom, who, by_id, &seen).ok());
    EXPECT_EQ(seen.id(), room.id());
    EXPECT_EQ(seen.invite_code(), "");
    EXPECT_EQ(seen.invite_url(), "");
    EXPECT_EQ(seen.members_size(), 1);  // the room itself stays visible (spectating)
  }
  v1::Room mine;
  ASSERT_TRUE(MM_CALL(mm, GetRoom, &host, by_id, &mine).ok());
  EXPECT_EQ(mine.invite_code(), room.invite_code());
  EXPECT_EQ(mine.invite_url(), "/join/" + room.invite_code());
}

TEST(Audit, WrongCodesOfOnePlayerOrAddressNeverRefuseAnothersValidCode) {
  Stack stack;
  // Behind one Envoy: the client is the last x-forwarded-for entry.
  auto* mm = stack.mm(stack.AddReplica({"--trusted_proxy_hops=1"}));
  Guest host = NewGuest(mm), typist = NewGuest(mm), friend_ = NewGuest(mm);
  v1::Room room = NewRoom(mm, host);
  v1::JoinRoomRequest wrong, right;
  wrong.set_invite_code("ZZZZZZZZ");
  right.set_invite_code(room.invite_code());
  v1::JoinRoomResponse joined;
  const Metadata home = From("203.0.113.7");
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(MM_CALL_MD(mm, JoinRoom, &typist, home, wrong, &joined).error_code(),
              Code::NOT_FOUND);
  }
  grpc::Status refused = MM_CALL_MD(mm, JoinRoom, &typist, home, right, &joined);
  EXPECT_EQ(refused.error_code(), Code::RESOURCE_EXHAUSTED) << refused.error_message();
  // Another player at the same address, and one elsewhere, join with the valid code.
  grpc::Status s = MM_CALL_MD(mm, JoinRoom, &friend_, home, right, &joined);
  EXPECT_TRUE(s.ok()) << s.error_message();
  Guest other = NewGuest(mm);
  s = MM_CALL_MD(mm, JoinRoom, &other, From("198.51.100.20"), right, &joined);
  EXPECT_TRUE(s.ok()) << s.error_message();

  // Without a token the address is the key: the real one, never what the client wrote.
  v1::GetRoomRequest guess, code;
  guess.set_invite_code("YYYYYYYY");
  code.set_invite_code(room.invite_code());
  v1::Room seen;
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(MM_CALL_MD(mm, GetRoom, nullptr, From("198.51.100.1"), guess, &seen).error_code(),
              Code::NOT_FOUND);
  }
  EXPECT_EQ(MM_CALL_MD(mm, GetRoom, nullptr, From("198.51.100.1"), code, &seen).error_code(),
            Code::RESOURCE_EXHAUSTED);
  s = MM_CALL_MD(mm, GetRoom, nullptr, From("198.51.100.2"), code, &seen);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(seen.invite_code(), room.invite_code());
}

TEST(Audit, CreateGuestIsLimitedPerClientAddress) {
  Stack stack;
  auto* mm = stack.mm(stack.AddReplica({"--trusted_proxy_hops=1", "--guests_per_minute=3"}));
  v1::CreateGuestRequest req;
  v1::CreateGuestResponse resp;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(MM_CALL_MD(mm, CreateGuest, nullptr, From("203.0.113.9"), req, &resp).ok());
  }
  EXPECT_EQ(MM_CALL_MD(mm, CreateGuest, nullptr, From("203.0.113.9"), req, &resp).error_code(),
            Code::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(MM_CALL_MD(mm, CreateGuest, nullptr, From("203.0.113.10"), req, &resp).ok());
}

// The first string field of `type` (searched into message fields, 3 deep), as the path of
// field numbers to it; empty when there is none.
std::vector<int> StringFieldPath(const google::protobuf::Descriptor* type, int depth = 0) {
  using FD = google::protobuf::FieldDescriptor;
  for (int i = 0; i < type->field_count(); ++i) {
    if (type->field(i)->type() == FD::TYPE_STRING) return {type->field(i)->number()};
  }
  if (depth == 3) return {};
  for (int i = 0; i < type->field_count(); ++i) {
    const FD* f = type->field(i);
    if (f->type() != FD::TYPE_MESSAGE || f->is_map()) continue;
    std::vector<int> rest = StringFieldPath(f->message_type(), depth + 1);
    if (rest.empty()) continue;
    rest.insert(rest.begin(), f->number());
    return rest;
  }
  return {};
}

std::string Varint(uint64_t v) {
  std::string out;
  do {
    out.push_back(static_cast<char>((v & 0x7F) | (v > 0x7F ? 0x80 : 0)));
    v >>= 7;
  } while (v != 0);
  return out;
}

// A message whose string field at `path` holds invalid UTF-8.
std::string InvalidUtf8At(const std::vector<int>& path) {
  std::string inner = "\xC3\x28\xFF";
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    inner = Varint(static_cast<uint64_t>(*it) << 3 | 2) + Varint(inner.size()) + inner;
  }
  return inner;
}

// Random bytes that protobuf refuses as `type` (most random bytes are refused; the seed
// makes the run repeatable).
std::string Garbage(const google::protobuf::Message& prototype, std::mt19937* rng) {
  for (;;) {
    std::string bytes(8 + (*rng)() % 40, '\0');
    for (char& c : bytes) c = static_cast<char>((*rng)() & 0xFF);
    std::unique_ptr<google::protobuf::Message> m(prototype.New());
    if (!m->ParseFromString(bytes)) return bytes;
  }
}

TEST(Audit, EveryMethodAnswersGarbageWithInvalidArgument) {
  Stack stack;
  Svc rating("rating", {}, true);
  stack.rating_addr = rating.addr;
  stack.AddReplica();
  std::vector<std::pair<std::string, std::string>> targets = {
      {"rules", stack.rules().addr},
      {"matchmaking", stack.replica().addr},
      {"rating", rating.addr},
  };
  Svc bot("bot", {}, false);
  targets.emplace_back("bot", bot.addr);
  // Link every service's descriptors into this binary's pool.
  for (const auto* d : {v1::NewGameRequest::descriptor(), v1::ChooseMoveRequest::descriptor(),
                        v1::ReportGameRequest::descriptor(), v1::CreateGuestRequest::descriptor(),
                        v1::PingRequest::descriptor()}) {
    ASSERT_NE(d, nullptr);
  }
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  auto* factory = google::protobuf::MessageFactory::generated_factory();
  std::mt19937 rng(23);
  int methods = 0;
  for (const auto& [name, addr] : targets) {
    for (const std::string& service : ReflectionServices(addr)) {
      if (service.rfind("tablero.", 0) != 0) continue;  // gRPC's own services are not ours
      const auto* svc = pool->FindServiceByName(service);
      ASSERT_NE(svc, nullptr) << service;
      for (int i = 0; i < svc->method_count(); ++i) {
        const auto* method = svc->method(i);
        const std::string path = "/" + service + "/" + method->name();
        const auto* prototype = factory->GetPrototype(method->input_type());
        std::vector<std::string> bad = {std::string(11, '\xFF'), Garbage(*prototype, &rng),
                                        Garbage(*prototype, &rng)};
        std::vector<int> text = StringFieldPath(method->input_type());
        if (!text.empty()) bad.push_back(InvalidUtf8At(text));
        for (const std::string& bytes : bad) {
          grpc::Status s = RawCall(addr, path, bytes);
          EXPECT_EQ(s.error_code(), Code::INVALID_ARGUMENT)
              << path << " answered " << s.error_code() << " " << s.error_message();
          EXPECT_NE(s.error_message(), "") << path;
        }
        ++methods;
      }
    }
    EXPECT_EQ(HealthStatus(addr), "SERVING") << name;
  }
  EXPECT_GE(methods, 40);
  // Every service still answers well-formed calls.
  v1::PingRequest ping;
  for (const auto& [name, addr] : targets) {
    grpc::Status s = RawCall(addr, "/tablero.v1.Ops/Ping", ping.SerializeAsString());
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
  }
  // The logs stay one logfmt line per event: no line of protobuf's own (it complains of a
  // string field's invalid UTF-8 at ERROR, once per such request, in a format of its own).
  for (const Svc* svc : {&stack.rules(), &stack.replica(), &rating, &bot}) {
    std::istringstream log(svc->proc->log());
    for (std::string line; std::getline(log, line);) {
      EXPECT_EQ(line.rfind("ts=", 0), 0u) << svc->addr << ": " << line;
    }
  }
}

TEST(Audit, OverSizeRequestsAreResourceExhaustedAsDocumented) {
  Svc rules("rules", {}, false);
  v1::ApplyMoveRequest req;
  req.set_kind(v1::GAME_KIND_CHESS);
  req.set_state(std::string((1 << 20) + 100, 'x'));  // over --max_message_bytes (1 MiB)
  req.set_move_text("e2e4");
  grpc::Status s = RawCall(rules.addr, "/tablero.v1.Rules/ApplyMove", req.SerializeAsString());
  EXPECT_EQ(s.error_code(), Code::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_EQ(HealthStatus(rules.addr), "SERVING");
}

// Number of samples of one metric family on a /metrics page.
int Series(const std::string& page, const std::string& family) {
  int n = 0;
  for (size_t at = page.find("\n" + family); at != std::string::npos;
       at = page.find("\n" + family, at + 1)) {
    ++n;
  }
  return n;
}

TEST(Audit, MadeUpMethodNamesCreateNoMetricSeries) {
  Svc rules("rules", {}, false);
  auto page = [&] { return HttpGet("127.0.0.1", rules.metrics_port, "/metrics").value_or(""); };
  // The first unknown path makes the one "other" series.
  EXPECT_EQ(RawCall(rules.addr, "/tablero.v1.Rules/Bogus", "").error_code(), Code::UNIMPLEMENTED);
  std::string before = page();
  for (int i = 0; i < 30; ++i) {
    std::string path = "/tablero.v1.Rules/Bogus" + std::to_string(i);
    EXPECT_EQ(RawCall(rules.addr, path, "").error_code(), Code::UNIMPLEMENTED);
  }
  std::string after = page();
  for (const char* family : {"grpc_server_started_total", "grpc_server_handled_total",
                             "grpc_server_handling_seconds_bucket"}) {
    EXPECT_EQ(Series(after, family), Series(before, family)) << family;
  }
  EXPECT_EQ(after.find("Bogus"), std::string::npos);
  EXPECT_GE(
      MetricValue(after, "grpc_server_started_total{grpc_method=\"other\",grpc_service=\"other\"}"),
      31);
}

TEST(Audit, ADatabaseOutageShowsNoInternalsAndLogsTheRequestId) {
  // A database that is down: nothing listens on its port.
  const int db_port = FreePort();
  const std::string addr = "127.0.0.1:" + std::to_string(FreePort());
  Process mm(BinPath("matchmaking"),
             {"--listen=" + addr, "--rules_addr=", "--bot_addr=", "--rating_addr="},
             {{"TABLERO_DATABASE_URL",
               "postgresql://tablero@127.0.0.1:" + std::to_string(db_port) + "/tablero"}});
  ASSERT_EQ(WaitHealth(addr, "NOT_SERVING", 30), "NOT_SERVING") << mm.log();
  auto stub =
      v1::Matchmaking::NewStub(grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  v1::CreateGuestRequest req;
  v1::CreateGuestResponse resp;
  const Metadata kWithId = {{"x-request-id", "audit-42"}};
  grpc::Status s = MM_CALL_MD(stub.get(), CreateGuest, nullptr, kWithId, req, &resp);
  EXPECT_EQ(s.error_code(), Code::UNAVAILABLE);
  EXPECT_NE(s.error_message().find("request id audit-42"), std::string::npos) << s.error_message();
  for (const std::string& leak : {std::string("127.0.0.1"), std::to_string(db_port),
                                  std::string("PostgreSQL"), std::string("connection to server")}) {
    EXPECT_EQ(s.error_message().find(leak), std::string::npos) << s.error_message();
  }
  // A request without an id (or with an unfit one) gets one of its own, in the message as
  // in the log.
  const Metadata kUnfit = {{"x-request-id", "no spaces=allowed"}};
  grpc::Status s2 = MM_CALL_MD(stub.get(), CreateGuest, nullptr, kUnfit, req, &resp);
  EXPECT_EQ(s2.error_message().find("allowed"), std::string::npos) << s2.error_message();
  size_t at = s2.error_message().find("(request id ");
  ASSERT_NE(at, std::string::npos) << s2.error_message();
  std::string generated = s2.error_message().substr(at + 12, 32);
  // One line per failed call, with the detail the client did not get.
  std::string log = mm.log();
  int lines = 0;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find("request_id=audit-42") == std::string::npos) continue;
    ++lines;
    EXPECT_NE(line.find("msg=\"rpc failed\""), std::string::npos) << line;
    EXPECT_NE(line.find("level=warn"), std::string::npos) << line;
    EXPECT_NE(line.find("method=/tablero.v1.Matchmaking/CreateGuest"), std::string::npos) << line;
    EXPECT_NE(line.find("code=UNAVAILABLE"), std::string::npos) << line;
    EXPECT_NE(line.find("duration_ms="), std::string::npos) << line;
    EXPECT_NE(line.find(std::to_string(db_port)), std::string::npos) << line;
  }
  EXPECT_EQ(lines, 1) << log;
  EXPECT_NE(log.find("request_id=" + generated), std::string::npos) << log;
}

TEST(Audit, MatchmakingPassesTheRequestIdToTheRules) {
  Svc rules("rules", {"--log_level=debug"}, false);
  Svc replica("matchmaking", {"--rules_addr=" + rules.addr, "--bot_addr=", "--rating_addr="}, true);
  auto stub = v1::Matchmaking::NewStub(
      grpc::CreateChannel(replica.addr, grpc::InsecureChannelCredentials()));
  auto* mm = stub.get();
  Guest host = NewGuest(mm);
  v1::Room room = NewRoom(mm, host);
  v1::StartGameRequest start;
  start.set_room_id(room.id());
  v1::Game game;
  ASSERT_TRUE(MM_CALL(mm, StartGame, &host, start, &game).ok());
  v1::MakeMoveRequest move;
  move.set_game_id(game.id());
  move.set_move_text("e2e5");  // illegal: the rules refuse it
  move.set_expected_ply(0);
  v1::MakeMoveResponse resp;
  const Metadata kWithId = {{"x-request-id", "audit-move-7"}};
  grpc::Status s = MM_CALL_MD(mm, MakeMove, &host, kWithId, move, &resp);
  EXPECT_EQ(s.error_code(), Code::FAILED_PRECONDITION) << s.error_message();
  std::string log = rules.proc->log();
  EXPECT_NE(log.find("request_id=audit-move-7"), std::string::npos) << log;
}

TEST(Audit, ViewsHaveHandsOnlyInShogi) {
  Svc rules("rules", {}, false);
  auto stub =
      v1::Rules::NewStub(grpc::CreateChannel(rules.addr, grpc::InsecureChannelCredentials()));
  auto new_game = [&](v1::GameKind kind) {
    v1::NewGameRequest req;
    req.set_kind(kind);
    v1::NewGameResponse resp;
    grpc::ClientContext ctx;
    Deadline(&ctx);
    grpc::Status s = stub->NewGame(&ctx, req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  };
  // The first legal move of a new game, applied (the rules' own wire writer answers).
  auto first_move = [&](v1::GameKind kind, const std::string& state) {
    v1::LegalMovesRequest lr;
    lr.set_kind(kind);
    lr.set_state(state);
    v1::LegalMovesResponse legal;
    grpc::ClientContext lc;
    Deadline(&lc);
    EXPECT_TRUE(stub->LegalMoves(&lc, lr, &legal).ok());
    v1::ApplyMoveRequest mr;
    mr.set_kind(kind);
    mr.set_state(state);
    if (legal.moves_size() > 0) mr.set_move_text(legal.moves(0).notation());
    v1::ApplyMoveResponse moved;
    grpc::ClientContext mc;
    Deadline(&mc);
    grpc::Status s = stub->ApplyMove(&mc, mr, &moved);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return moved;
  };
  v1::NewGameResponse shogi = new_game(v1::GAME_KIND_SHOGI4);
  EXPECT_EQ(shogi.view().hands_size(), 4);
  for (v1::GameKind kind : {v1::GAME_KIND_CHESS, v1::GAME_KIND_CHECKERS}) {
    v1::NewGameResponse g = new_game(kind);
    EXPECT_EQ(g.view().hands_size(), 0) << kind;
    for (int i = 0; i < 4; ++i) {  // after shogi moves, on whichever server thread
      EXPECT_EQ(first_move(v1::GAME_KIND_SHOGI4, shogi.state()).view().hands_size(), 4);
      EXPECT_EQ(first_move(kind, g.state()).view().hands_size(), 0) << kind;
    }
  }
}

TEST(Audit, ReportGameNeedsServiceCredentials) {
  Svc rating("rating", {}, true);
  auto stub =
      v1::Rating::NewStub(grpc::CreateChannel(rating.addr, grpc::InsecureChannelCredentials()));
  v1::ReportGameRequest req;
  req.set_game_id("audit-unranked");
  req.set_ranked(false);
  v1::ReportGameResponse resp;
  auto report = [&](const char* key) {
    grpc::ClientContext ctx;
    Deadline(&ctx);
    if (key != nullptr) ctx.AddMetadata("x-tablero-service-key", key);
    return stub->ReportGame(&ctx, req, &resp);
  };
  EXPECT_EQ(report(nullptr).error_code(), Code::UNAUTHENTICATED);
  EXPECT_EQ(report("guessed").error_code(), Code::UNAUTHENTICATED);
  grpc::Status s = report(kTestServiceKey);
  EXPECT_TRUE(s.ok()) << s.error_message();
}

}  // namespace
}  // namespace tablero::testing
