// The API as a front end meets it (issue 24, items 8-9), over gRPC against real processes
// and the test Postgres: retried creations with a request_id create once and answer the
// same on any replica, refusals carry a google.rpc.ErrorInfo reason in
// grpc-status-details-bin, a quick match is pushed on WatchTicket with no GetTicket call,
// and a mated four-player shogi seat has its place while the game goes on.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <atomic>
#include <pqxx/pqxx>
#include <thread>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "tablero/v1/rules.grpc.pb.h"
#include "tests/matchmaking_test_util.h"

namespace tablero::testing {
namespace {

class ApiTest : public DatabaseTest {};

// A fresh random UUID, as a client makes one per thing it creates.
std::string Uuid() {
  pqxx::connection c(TestDatabaseUrl());
  pqxx::nontransaction n(c);
  return n.exec("SELECT gen_random_uuid()::text")[0][0].as<std::string>();
}

// What a client reads from the trailer grpc-status-details-bin: a google.rpc.Status with
// an ErrorInfo among its details. (grpc::Status::error_details() holds that trailer's
// bytes as they came.) Empty reason when there is none.
google::rpc::ErrorInfo Details(const grpc::Status& s) {
  google::rpc::ErrorInfo info;
  google::rpc::Status st;
  if (s.error_details().empty() || !st.ParseFromString(s.error_details())) return info;
  EXPECT_EQ(st.code(), static_cast<int>(s.error_code()));
  EXPECT_EQ(st.message(), s.error_message());
  for (const auto& any : st.details()) {
    if (any.type_url() == "type.googleapis.com/google.rpc.ErrorInfo") {
      EXPECT_TRUE(info.ParseFromString(any.value()));
      EXPECT_EQ(info.domain(), "tablero");
    }
  }
  return info;
}

TEST_F(ApiTest, CreateGuestWithARequestIdCreatesOnceAndAnswersTheSameOnAnyReplica) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  const std::string name = "Retry " + Uuid().substr(0, 8);
  v1::CreateGuestRequest req;
  req.set_display_name(name);
  req.set_request_id(Uuid());
  v1::CreateGuestResponse first, again, elsewhere;
  ASSERT_TRUE(MM_CALL(stack.mm(0), CreateGuest, nullptr, req, &first).ok());
  ASSERT_TRUE(MM_CALL(stack.mm(0), CreateGuest, nullptr, req, &again).ok());
  ASSERT_TRUE(MM_CALL(stack.mm(1), CreateGuest, nullptr, req, &elsewhere).ok());
  for (const auto* r : {&again, &elsewhere}) {
    EXPECT_EQ(r->player_id(), first.player_id());
    EXPECT_EQ(r->token(), first.token());
    EXPECT_EQ(r->display_name(), name);
  }
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.players WHERE display_name = $1", name), 1);
  // The token of the replayed answer acts for the player.
  v1::GetMeResponse me;
  Guest g{first.player_id(), elsewhere.token(), name};
  ASSERT_TRUE(MM_CALL(stack.mm(1), GetMe, &g, v1::GetMeRequest(), &me).ok());
  EXPECT_EQ(me.player().player_id(), first.player_id());
  // What is kept for the retry never holds the token in the clear.
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.request_ids WHERE position(convert_to($1, "
                  "'UTF8') in answer) > 0 OR position(convert_to($1, 'UTF8') in secret) > 0",
                  first.token()),
            0);
  // Without an id, or with a new one, every call creates.
  v1::CreateGuestResponse other;
  req.set_request_id(Uuid());
  ASSERT_TRUE(MM_CALL(stack.mm(0), CreateGuest, nullptr, req, &other).ok());
  EXPECT_NE(other.player_id(), first.player_id());
  // The same id with another request is refused; an id that is no UUID too.
  v1::CreateGuestRequest changed = req;
  changed.set_display_name(name + "!");
  grpc::Status s = MM_CALL(stack.mm(1), CreateGuest, nullptr, changed, &other);
  EXPECT_EQ(s.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(Details(s).reason(), "REQUEST_ID_REUSED");
  changed.set_request_id("retry-1");
  EXPECT_EQ(MM_CALL(stack.mm(0), CreateGuest, nullptr, changed, &other).error_code(),
            Code::INVALID_ARGUMENT);
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.players WHERE display_name = $1", name), 2);
}

TEST_F(ApiTest, CreateRoomRetriedAtOnceOnTwoReplicasMakesOneRoom) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  Guest host = NewGuest(stack.mm(0), "Host");
  v1::CreateRoomRequest req;
  req.set_kind(v1::GAME_KIND_CHECKERS);
  req.set_request_id(Uuid());
  // Two calls with one id racing on two replicas (a retry sent while the first is still
  // being served): one room, and both get it.
  v1::Room rooms[2];
  grpc::Status status[2];
  std::thread t([&] { status[1] = MM_CALL(stack.mm(1), CreateRoom, &host, req, &rooms[1]); });
  status[0] = MM_CALL(stack.mm(0), CreateRoom, &host, req, &rooms[0]);
  t.join();
  ASSERT_TRUE(status[0].ok()) << status[0].error_message();
  ASSERT_TRUE(status[1].ok()) << status[1].error_message();
  EXPECT_EQ(rooms[0].id(), rooms[1].id());
  EXPECT_EQ(rooms[0].invite_code(), rooms[1].invite_code());
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.rooms WHERE host_id = $1", host.id), 1);
  // A later retry: the same answer, field for field.
  v1::Room later;
  ASSERT_TRUE(MM_CALL(stack.mm(0), CreateRoom, &host, req, &later).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(later, rooms[0]));
  // Ids are per caller: another player's same id creates that player's own room.
  Guest other = NewGuest(stack.mm(0), "Other");
  v1::Room theirs;
  ASSERT_TRUE(MM_CALL(stack.mm(1), CreateRoom, &other, req, &theirs).ok());
  EXPECT_NE(theirs.id(), rooms[0].id());
  EXPECT_EQ(theirs.host_player_id(), other.id);
}

TEST_F(ApiTest, JoinQueueRetriedReturnsTheTicketAndAlreadyExistsNamesIt) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  Guest p = NewGuest(stack.mm(0), "Queuer");
  v1::JoinQueueRequest req;  // a pool of its own: Japanese Chinese Checkers for three
  req.set_kind(v1::GAME_KIND_CHECKERS);
  req.set_player_count(3);
  (*req.mutable_options())["rules"] = "japanese";
  req.set_request_id(Uuid());
  v1::Ticket first, again;
  grpc::Status s = MM_CALL(stack.mm(0), JoinQueue, &p, req, &first);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_TRUE(MM_CALL(stack.mm(1), JoinQueue, &p, req, &again).ok());  // not ALREADY_EXISTS
  EXPECT_EQ(again.ticket_id(), first.ticket_id());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(again, first));
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.tickets WHERE player_id = $1", p.id), 1);
  // A new call (no id) while the ticket waits: ALREADY_EXISTS, the ticket in ErrorInfo.
  req.clear_request_id();
  v1::Ticket dup;
  s = MM_CALL(stack.mm(1), JoinQueue, &p, req, &dup);
  ASSERT_EQ(s.error_code(), Code::ALREADY_EXISTS);
  google::rpc::ErrorInfo info = Details(s);
  EXPECT_EQ(info.reason(), "ALREADY_QUEUED");
  EXPECT_EQ(info.metadata().at("ticket_id"), first.ticket_id());
  v1::CancelQueueRequest cq;
  cq.set_ticket_id(first.ticket_id());
  ASSERT_TRUE(MM_CALL(stack.mm(0), CancelQueue, &p, cq, &dup).ok());
}

// One Rules call with a deadline.
template <typename Req, typename Resp>
grpc::Status RulesCall(v1::Rules::Stub* rules,
                       grpc::Status (v1::Rules::Stub::*method)(grpc::ClientContext*, const Req&,
                                                               Resp*),
                       const Req& req, Resp* resp) {
  grpc::ClientContext ctx;
  Deadline(&ctx);
  return (rules->*method)(&ctx, req, resp);
}

v1::ApplyMoveRequest MoveOn(v1::GameKind kind, const std::string& state, const std::string& text) {
  v1::ApplyMoveRequest am;
  am.set_kind(kind);
  am.set_state(state);
  am.set_move_text(text);
  return am;
}

TEST_F(ApiTest, RefusalsCarryAReasonAFrontEndCanActOn) {
  Stack stack;
  stack.AddReplica();
  auto* mm = stack.mm();
  Guest white = NewGuest(mm, "W"), black = NewGuest(mm, "B"), fan = NewGuest(mm, "F");
  const v1::Room room = NewRoom(mm, white);
  v1::JoinRoomResponse joined;
  ASSERT_TRUE(Join(mm, black, room.invite_code(), &joined).ok());
  v1::Game game;
  ASSERT_TRUE(Start(mm, white, room.id(), &game).ok());

  struct Case {
    grpc::Status status;
    Code code;
    const char* reason;
  } cases[] = {
      {Move(mm, &black, game.id(), 0, "e7e5"), Code::FAILED_PRECONDITION, "NOT_YOUR_TURN"},
      {Move(mm, &white, game.id(), 3, "e2e4"), Code::ABORTED, "STALE_PLY"},
      // Refused by the rules service; its reason reaches the client through matchmaking.
      {Move(mm, &white, game.id(), 0, "e2e5"), Code::FAILED_PRECONDITION, "ILLEGAL_MOVE"},
      {Move(mm, &fan, game.id(), 0, "e2e4"), Code::PERMISSION_DENIED, "NOT_SEATED"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.status.error_code(), c.code) << c.reason << ": " << c.status.error_message();
    EXPECT_EQ(Details(c.status).reason(), c.reason) << c.status.error_message();
  }
  // A malformed move is not an illegal one: INVALID_ARGUMENT, no reason.
  grpc::Status bad = Move(mm, &white, game.id(), 0, "zz");
  EXPECT_EQ(bad.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(Details(bad).reason(), "");

  grpc::Status unknown = Join(mm, fan, "ZZZZZZZZ", &joined);
  EXPECT_EQ(unknown.error_code(), Code::NOT_FOUND);
  EXPECT_EQ(Details(unknown).reason(), "INVITE_CODE_UNKNOWN");
  v1::GetRoomRequest gr;
  gr.set_invite_code("ZZZZ-ZZZZ");
  v1::Room r;
  unknown = MM_CALL(mm, GetRoom, &fan, gr, &r);
  EXPECT_EQ(Details(unknown).reason(), "INVITE_CODE_UNKNOWN");

  // The rules service answers its own callers with the same reasons.
  auto rules = v1::Rules::NewStub(
      grpc::CreateChannel(stack.rules().addr, grpc::InsecureChannelCredentials()));
  v1::NewGameRequest ng;
  ng.set_kind(v1::GAME_KIND_CHESS);
  v1::NewGameResponse fresh;
  ASSERT_TRUE(RulesCall(rules.get(), &v1::Rules::Stub::NewGame, ng, &fresh).ok());
  v1::ApplyMoveRequest am = MoveOn(v1::GAME_KIND_CHESS, fresh.state(), "e2e5");
  v1::ApplyMoveResponse applied;
  grpc::Status illegal = RulesCall(rules.get(), &v1::Rules::Stub::ApplyMove, am, &applied);
  EXPECT_EQ(illegal.error_code(), Code::FAILED_PRECONDITION);
  EXPECT_EQ(Details(illegal).reason(), "ILLEGAL_MOVE");
  am.set_move_text("e2e4");
  am.mutable_expected_ply()->set_value(5);
  EXPECT_EQ(Details(RulesCall(rules.get(), &v1::Rules::Stub::ApplyMove, am, &applied)).reason(),
            "STALE_PLY");
}

// A WatchTicket stream read on a thread.
class TicketReader : public StreamReader<v1::Ticket> {
 public:
  TicketReader(v1::Matchmaking::Stub* mm, const Guest& g, const std::string& ticket)
      : StreamReader([&](grpc::ClientContext* ctx) {
          ctx->AddMetadata("authorization", "Bearer " + g.token);
          v1::WatchTicketRequest req;
          req.set_ticket_id(ticket);
          return mm->WatchTicket(ctx, req);
        }) {}
  bool WaitCount(size_t n, double seconds = 30) {
    return WaitFor([n](const std::vector<v1::Ticket>& got) { return got.size() >= n; }, seconds);
  }
};

TEST_F(ApiTest, WatchTicketPushesTheMatchWithoutPolling) {
  Stack stack;
  // The streams' periodic refresh (heartbeat) comes only every minute here: what reaches
  // them within the waits below was pushed.
  const std::vector<std::string> slow = {"--heartbeat_seconds=60", "--ticket_abandon_seconds=600"};
  stack.AddReplica(slow);
  stack.AddReplica(slow);
  // A pool of its own: chess with the FIDE resignation exception, site draws.
  v1::JoinQueueRequest jq;
  jq.set_kind(v1::GAME_KIND_CHESS);
  (*jq.mutable_options())["fide_resignation_exception"] = "on";
  (*jq.mutable_options())["draw_mode"] = "site";
  Guest a = NewGuest(stack.mm(0), "PushA"), b = NewGuest(stack.mm(0), "PushB");
  Guest c = NewGuest(stack.mm(0), "PushC");
  v1::Ticket ta, tb;
  ASSERT_TRUE(MM_CALL(stack.mm(0), JoinQueue, &a, jq, &ta).ok());
  {  // Someone else's ticket, or none: refused.
    TicketReader theirs(stack.mm(1), c, ta.ticket_id());
    ASSERT_TRUE(theirs.WaitDone(30));
    EXPECT_EQ(theirs.status().error_code(), Code::PERMISSION_DENIED);
    TicketReader none(stack.mm(1), c, "no-such-ticket");
    ASSERT_TRUE(none.WaitDone(30));
    EXPECT_EQ(none.status().error_code(), Code::NOT_FOUND);
  }
  // a follows the ticket on the other replica than the one that queues b: the match is
  // pushed across replicas (hub NOTIFY). No GetTicket call anywhere in this test.
  TicketReader watch(stack.mm(1), a, ta.ticket_id());
  ASSERT_TRUE(watch.WaitCount(1));
  EXPECT_EQ(watch.got()[0].status(), v1::Ticket::STATUS_WAITING);
  ASSERT_TRUE(MM_CALL(stack.mm(0), JoinQueue, &b, jq, &tb).ok());
  ASSERT_TRUE(watch.WaitDone(30)) << "the match was not pushed";
  EXPECT_TRUE(watch.status().ok()) << watch.status().error_message();
  const v1::Ticket last = watch.got().back();
  EXPECT_EQ(last.status(), v1::Ticket::STATUS_MATCHED);
  EXPECT_FALSE(last.room_id().empty());
  EXPECT_FALSE(last.game_id().empty());
  v1::GetGameRequest gg;
  gg.set_game_id(last.game_id());
  v1::Game game;
  ASSERT_TRUE(MM_CALL(stack.mm(0), GetGame, nullptr, gg, &game).ok());
  std::set<std::string> seated = {game.seats(0).player_id(), game.seats(1).player_id()};
  EXPECT_EQ(seated, (std::set<std::string>{a.id, b.id}));
  // A ticket already decided: the stream sends it and ends at once.
  TicketReader after(stack.mm(0), b, tb.ticket_id());
  ASSERT_TRUE(after.WaitDone(30));
  ASSERT_EQ(after.got().size(), 1u);
  EXPECT_EQ(after.got()[0].game_id(), last.game_id());

  // Cancelling is pushed too.
  v1::Ticket tc;
  ASSERT_TRUE(MM_CALL(stack.mm(0), JoinQueue, &c, jq, &tc).ok());
  TicketReader cancel(stack.mm(1), c, tc.ticket_id());
  ASSERT_TRUE(cancel.WaitCount(1));
  v1::CancelQueueRequest cq;
  cq.set_ticket_id(tc.ticket_id());
  ASSERT_TRUE(MM_CALL(stack.mm(0), CancelQueue, &c, cq, &tc).ok());
  ASSERT_TRUE(cancel.WaitDone(30));
  EXPECT_EQ(cancel.got().back().status(), v1::Ticket::STATUS_CANCELLED);
  EXPECT_EQ(cancel.got().back().cancel_reason(), "cancelled");
}

// A player who closes the page while quick match looks (their WatchTicket stream ends) is
// not paired with the next player: the CPU would have played an absent seat in a ranked
// game. Coming back (GetTicket or WatchTicket) puts the ticket back in the pool.
TEST_F(ApiTest, AQuickMatchPlayerWhoClosedThePageIsNotPairedUntilBack) {
  Stack stack;
  stack.AddReplica({"--ticket_abandon_seconds=600"});  // presence: the last 300 s
  stack.AddReplica({"--ticket_abandon_seconds=600"});
  v1::JoinQueueRequest jq;  // a pool of its own
  jq.set_kind(v1::GAME_KIND_CHESS);
  (*jq.mutable_options())["draw_mode"] = "fide";
  (*jq.mutable_options())["fide_resignation_exception"] = "on";
  Guest a = NewGuest(stack.mm(0), "GoneA"), b = NewGuest(stack.mm(0), "HereB");
  Guest c = NewGuest(stack.mm(0), "HereC"), d = NewGuest(stack.mm(0), "HereD");
  v1::Ticket ta, tb, tc, td;
  ASSERT_TRUE(MM_CALL(stack.mm(0), JoinQueue, &a, jq, &ta).ok());
  {
    TicketReader watch(stack.mm(1), a, ta.ticket_id());
    ASSERT_TRUE(watch.WaitCount(1));
    watch.Cancel();  // the page is closed
  }
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  const char* away =
      "SELECT count(*) FROM matchmaking.tickets WHERE id = $1 AND status = 1 AND polled_at < "
      "now() - interval '290 seconds'";
  while (Count(away, ta.ticket_id()) == 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(Count(away, ta.ticket_id()), 1) << "the closed stream did not mark the ticket away";
  // b and c, both there, are paired; a, the oldest ticket, is passed over.
  ASSERT_TRUE(MM_CALL(stack.mm(0), JoinQueue, &b, jq, &tb).ok());
  TicketReader wb(stack.mm(0), b, tb.ticket_id());
  ASSERT_TRUE(wb.WaitCount(1));
  ASSERT_TRUE(MM_CALL(stack.mm(1), JoinQueue, &c, jq, &tc).ok());
  ASSERT_TRUE(wb.WaitDone(30));
  ASSERT_EQ(wb.got().back().status(), v1::Ticket::STATUS_MATCHED);
  v1::Game game = GetGame(stack.mm(0), wb.got().back().game_id());
  std::set<std::string> seated = {game.seats(0).player_id(), game.seats(1).player_id()};
  EXPECT_EQ(seated, (std::set<std::string>{b.id, c.id}));
  v1::GetTicketRequest gt;
  gt.set_ticket_id(ta.ticket_id());
  ASSERT_TRUE(MM_CALL(stack.mm(1), GetTicket, &a, gt, &ta).ok());  // a is back
  EXPECT_EQ(ta.status(), v1::Ticket::STATUS_WAITING);
  ASSERT_TRUE(MM_CALL(stack.mm(0), JoinQueue, &d, jq, &td).ok());
  TicketReader wa(stack.mm(1), a, ta.ticket_id());
  ASSERT_TRUE(wa.WaitDone(30));
  ASSERT_EQ(wa.got().back().status(), v1::Ticket::STATUS_MATCHED);
  game = GetGame(stack.mm(0), wa.got().back().game_id());
  seated = {game.seats(0).player_id(), game.seats(1).player_id()};
  EXPECT_EQ(seated, (std::set<std::string>{a.id, d.id}));
}

// Four-player shogi, "last one standing": seat 3 is mated already and seat 1 mates seat 2
// (the position of libs/shogi4's ending tests). Play goes on, and both mated seats have
// their final places in the answer's result and as Eliminated's place.
TEST_F(ApiTest, AMatedShogiSeatHasItsPlaceWhilePlayGoesOn) {
  Stack stack;
  auto rules = v1::Rules::NewStub(
      grpc::CreateChannel(stack.rules().addr, grpc::InsecureChannelCredentials()));
  v1::NewGameRequest ng;
  ng.set_kind(v1::GAME_KIND_SHOGI4);
  (*ng.mutable_options())["ending"] = "last_one_standing";
  ng.set_position("K2s8/4R1e4/9/8k3w/9/9/9/4S2s3K1e/4K0n4 1 -/G/RP/- 3:0 0");
  v1::NewGameResponse fresh;
  grpc::Status s = RulesCall(rules.get(), &v1::Rules::Stub::NewGame, ng, &fresh);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::ApplyMoveResponse resp;
  s = RulesCall(rules.get(), &v1::Rules::Stub::ApplyMove,
                MoveOn(v1::GAME_KIND_SHOGI4, fresh.state(), "G*9b"), &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(resp.result().over());
  EXPECT_EQ(std::vector<int>(resp.result().places().begin(), resp.result().places().end()),
            (std::vector<int>{0, 0, 3, 4}));
  bool eliminated = false;
  for (const auto& e : resp.events()) {
    eliminated |= e.type() == v1::PlayEvent::TYPE_ELIMINATION && e.seat() == 2;
  }
  EXPECT_TRUE(eliminated);
}

}  // namespace
}  // namespace tablero::testing
