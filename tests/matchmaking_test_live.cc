// Liveness across processes: racing moves from two replicas, the CPU taking over an
// absent player and giving the seat back, presence leases, turn timers, a replica killed
// mid-game, quick match, and the rating outbox.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <map>
#include <pqxx/pqxx>
#include <set>

#include "tablero/v1/rating.grpc.pb.h"
#include "tests/matchmaking_test_util.h"

namespace tablero::testing {
namespace {

class MatchmakingLiveTest : public DatabaseTest {};

// A two-player chess room (host = white), started, on replica `r`.
struct Chess {
  Guest white, black;
  v1::Room room;
  v1::Game game;
};
Chess NewChess(Stack& stack, int r, v1::RoomSettings settings = {}) {
  Chess c;
  auto* mm = stack.mm(r);
  c.white = NewGuest(mm, "W");
  c.black = NewGuest(mm, "B");
  c.room = NewRoom(mm, c.white, v1::GAME_KIND_CHESS, settings);
  v1::JoinRoomResponse joined;
  EXPECT_TRUE(Join(mm, c.black, c.room.invite_code(), &joined).ok());
  return c;
}
void StartChess(Stack& stack, int r, Chess* c) {
  grpc::Status s = Start(stack.mm(r), c->white, c->room.id(), &c->game);
  ASSERT_TRUE(s.ok()) << s.error_message();
}

TEST_F(MatchmakingLiveTest, RacingMovesFromTwoReplicasExactlyOneWins) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  Chess c = NewChess(stack, 0);
  StartChess(stack, 0, &c);
  for (int round = 0; round < 5; ++round) {
    v1::Game g = GetGame(stack.mm(0), c.game.id());
    const Guest& mover = g.to_move() == 0 ? c.white : c.black;
    // Two different legal moves for the same ply, one through each replica, at once.
    const char* moves[2][2] = {{"a2a3", "h2h3"}, {"a7a6", "h7h6"}};
    const char* ms[2] = {moves[g.to_move()][0], moves[g.to_move()][1]};
    if (round >= 2) {  // later rounds: other pawns
      ms[0] = g.to_move() == 0 ? (round == 2   ? "b2b3"
                                  : round == 3 ? "c2c3"
                                               : "d2d3")
                               : (round == 2   ? "b7b6"
                                  : round == 3 ? "c7c6"
                                               : "d7d6");
      ms[1] = g.to_move() == 0 ? (round == 2   ? "g2g3"
                                  : round == 3 ? "f2f3"
                                               : "e2e3")
                               : (round == 2   ? "g7g6"
                                  : round == 3 ? "f7f6"
                                               : "e7e6");
    }
    grpc::Status s[2];
    std::atomic<int> ready{0};
    std::thread t[2];
    for (int i = 0; i < 2; ++i) {
      t[i] = std::thread([&, i] {
        ++ready;
        while (ready < 2) {
        }
        s[i] = Move(stack.mm(i), &mover, c.game.id(), g.ply(), ms[i]);
      });
    }
    for (auto& th : t) th.join();
    int ok = s[0].ok() + s[1].ok();
    ASSERT_EQ(ok, 1) << s[0].error_message() << " / " << s[1].error_message();
    const grpc::Status& loser = s[0].ok() ? s[1] : s[0];
    EXPECT_EQ(loser.error_code(), Code::ABORTED) << loser.error_message();
    EXPECT_EQ(GetGame(stack.mm(1), c.game.id()).ply(), g.ply() + 1);
  }
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.moves WHERE game_id = '" + c.game.id() + "'"),
            5);
}

TEST_F(MatchmakingLiveTest, AbsentPlayerIsReplacedByCpuAndReclaimsTheSeat) {
  Stack stack;
  stack.AddReplica({"--grace_seconds=1"});
  auto* mm = stack.mm();
  Chess c = NewChess(stack, 0);
  Watcher room_w(mm, c.room.id(), 0, nullptr);
  auto ww = std::make_unique<Watcher>(mm, c.room.id(), 0, &c.white);
  auto wb = std::make_unique<Watcher>(mm, c.room.id(), 0, &c.black);
  // Both streams count once their presence is in the log.
  ASSERT_TRUE(room_w.WaitFor([](const auto& ev) {
    int n = 0;
    for (const auto& e : ev) n += e.has_presence_changed() && e.presence_changed().connected();
    return n == 2;
  }));
  StartChess(stack, 0, &c);
  const std::string gid = c.game.id();
  EXPECT_TRUE(c.game.seats(1).connected());
  ASSERT_TRUE(Move(mm, &c.white, gid, 0, "e2e4").ok());
  // Black's connection drops; after the grace period the CPU plays black's turn.
  wb.reset();
  ASSERT_TRUE(room_w.WaitFor(
      [&](const auto& ev) {
        for (const auto& e : ev) {
          if (e.has_move_played() && e.move_played().seat() == 1) return true;
        }
        return false;
      },
      30));
  bool took_over = false, by_cpu = false;
  for (const auto& e : room_w.events()) {
    if (e.has_presence_changed() && e.presence_changed().player_id() == c.black.id &&
        e.presence_changed().cpu_controlled()) {
      took_over = true;
      EXPECT_FALSE(e.presence_changed().connected());
      EXPECT_EQ(e.presence_changed().seat(), 1);
    }
    if (e.has_move_played() && e.move_played().seat() == 1) by_cpu = e.move_played().by_cpu();
  }
  EXPECT_TRUE(took_over);
  EXPECT_TRUE(by_cpu);
  v1::Game g = GetGame(mm, gid);
  EXPECT_TRUE(g.seats(1).controlled_by_cpu_now());
  EXPECT_FALSE(g.seats(1).connected());
  EXPECT_EQ(g.ply(), 2);

  // Black comes back with the token: the seat is theirs at once.
  wb = std::make_unique<Watcher>(mm, c.room.id(), room_w.last_seq(), &c.black);
  ASSERT_TRUE(wb->WaitFor([&](const auto& ev) {
    for (const auto& e : ev) {
      if (e.has_presence_changed() && e.presence_changed().player_id() == c.black.id &&
          !e.presence_changed().cpu_controlled() && e.presence_changed().connected()) {
        return true;
      }
    }
    return false;
  }));
  g = GetGame(mm, gid);
  EXPECT_FALSE(g.seats(1).controlled_by_cpu_now());
  EXPECT_TRUE(g.seats(1).connected());
  ASSERT_TRUE(Move(mm, &c.white, gid, 2, "d2d4").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // past the grace period
  EXPECT_EQ(GetGame(mm, gid).ply(), 3);                          // the CPU did not move
  v1::ListLegalMovesRequest lr;
  lr.set_game_id(gid);
  v1::ListLegalMovesResponse legal;
  ASSERT_TRUE(MM_CALL(mm, ListLegalMoves, nullptr, lr, &legal).ok());
  ASSERT_GT(legal.moves_size(), 0);
  ASSERT_TRUE(Move(mm, &c.black, gid, 3, legal.moves(0).notation()).ok());
  auto metrics = HttpGet("127.0.0.1", stack.replica().metrics_port, "/metrics");
  ASSERT_TRUE(metrics.has_value());
  // One replica on a database of this test's own: it made the take-over.
  EXPECT_GE(MetricValue(*metrics, "tablero_matchmaking_cpu_takeovers_total{reason=\"absent\"}"), 1)
      << *metrics;
  EXPECT_EQ(MetricValue(*metrics, "tablero_matchmaking_connected_players"), 2);
}

TEST_F(MatchmakingLiveTest, TurnTimerExpiresAndTheCpuPlaysThatTurn) {
  Stack stack;
  stack.AddReplica({"--turn_time_scale=0.05"});  // 30 s turns last 1.5 s
  auto* mm = stack.mm();
  v1::RoomSettings st;
  st.set_turn_time_limit_seconds(30);
  Chess c = NewChess(stack, 0, st);
  Watcher ww(mm, c.room.id(), 0, &c.white), wb(mm, c.room.id(), 0, &c.black);
  StartChess(stack, 0, &c);
  EXPECT_TRUE(c.game.has_turn_deadline());
  EXPECT_EQ(c.game.turn_time_limit_seconds(), 30);
  ASSERT_TRUE(ww.WaitFor([](const auto& ev) {
    for (const auto& e : ev) {
      if (e.has_move_played()) return true;
    }
    return false;
  }));
  v1::Game g = GetGame(mm, c.game.id());
  EXPECT_EQ(g.ply(), 1);
  EXPECT_FALSE(g.seats(0).controlled_by_cpu_now());  // only that turn
  bool by_cpu = false;
  for (const auto& e : ww.events()) {
    if (e.has_move_played()) by_cpu = e.move_played().by_cpu() && e.move_played().seat() == 0;
  }
  EXPECT_TRUE(by_cpu);
  // Black answers in time; the CPU plays again only when a turn runs out.
  v1::MakeMoveResponse mr;
  const bool answered = Move(mm, &c.black, c.game.id(), 1, "e7e5", &mr).ok();
  ASSERT_TRUE(answered || GetGame(mm, c.game.id()).ply() > 1);
  if (answered) {  // White's turn is timed again, and the answer says until when
    ASSERT_TRUE(mr.game().has_turn_deadline());
    v1::Game now = GetGame(mm, c.game.id());
    if (now.ply() == 2) {
      EXPECT_EQ(mr.game().turn_deadline().seconds(), now.turn_deadline().seconds());
      EXPECT_EQ(mr.game().turn_deadline().nanos(), now.turn_deadline().nanos());
    }
  }
  auto metrics = HttpGet("127.0.0.1", stack.replica().metrics_port, "/metrics");
  ASSERT_TRUE(metrics.has_value());
  // One replica on a database of this test's own: it played the timed-out turn.
  EXPECT_GE(MetricValue(*metrics, "tablero_matchmaking_cpu_takeovers_total{reason=\"timeout\"}"),
            1);
}

TEST_F(MatchmakingLiveTest, PresenceLastsAsLongAsTheReplicaLease) {
  // Leases of 2 s, renewed every third of a second: one row per replica, whatever its
  // number of streams.
  Stack stack;
  stack.AddReplica({"--presence_lease_seconds=2"});
  stack.AddReplica({"--presence_lease_seconds=2"});
  Chess c = NewChess(stack, 0);
  Watcher room_w(stack.mm(1), c.room.id(), 0, nullptr);
  Watcher ww(stack.mm(1), c.room.id(), 0, &c.white);
  auto wb = std::make_unique<Watcher>(stack.mm(0), c.room.id(), 0, &c.black);
  auto presence = [&](const Guest& who, bool connected) {
    return [&who, connected](const auto& ev) {
      for (const auto& e : ev) {
        if (e.has_presence_changed() && e.presence_changed().player_id() == who.id &&
            e.presence_changed().connected() == connected) {
          return true;
        }
      }
      return false;
    };
  };
  ASSERT_TRUE(room_w.WaitFor(presence(c.white, true)));
  ASSERT_TRUE(room_w.WaitFor(presence(c.black, true)));
  StartChess(stack, 0, &c);
  const std::string black_row = "FROM matchmaking.connections WHERE room_id = '" + c.room.id() +
                                "' AND player_id = '" + c.black.id + "'";
  const std::string dead = [&] {
    pqxx::connection db(TestDatabaseUrl());
    return pqxx::nontransaction(db).exec("SELECT replica " + black_row)[0][0].as<std::string>();
  }();
  // Three leases later both players are still connected: the replicas renewed.
  std::this_thread::sleep_for(std::chrono::seconds(6));
  v1::Game g = GetGame(stack.mm(1), c.game.id());
  EXPECT_TRUE(g.seats(0).connected());
  EXPECT_TRUE(g.seats(1).connected());
  EXPECT_EQ(Count("SELECT count(*) " + black_row), 1);

  // Black's replica dies without closing its stream: once its lease runs out, the other
  // replica sweeps black's row and tells the room, and then drops the dead lease.
  stack.replica(0).proc->Signal(SIGKILL);
  ASSERT_TRUE(stack.replica(0).proc->Wait(10).has_value());
  ASSERT_TRUE(room_w.WaitFor(presence(c.black, false), 30));
  g = GetGame(stack.mm(1), c.game.id());
  EXPECT_TRUE(g.seats(0).connected());
  EXPECT_FALSE(g.seats(1).connected());
  EXPECT_EQ(Count("SELECT count(*) " + black_row), 0);
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (Count("SELECT count(*) FROM matchmaking.replicas WHERE id = '" + dead + "'") > 0 &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.replicas WHERE id = '" + dead + "'"), 0);
  // White was never reported gone.
  for (const auto& e : room_w.events()) {
    EXPECT_FALSE(e.has_presence_changed() && e.presence_changed().player_id() == c.white.id &&
                 !e.presence_changed().connected());
  }
}

TEST_F(MatchmakingLiveTest, ReplicaKilledMidGameAnotherCarriesOn) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  Chess c = NewChess(stack, 0);
  auto w0 = std::make_unique<Watcher>(stack.mm(0), c.room.id(), 0, nullptr);
  StartChess(stack, 0, &c);
  const std::string gid = c.game.id();
  ASSERT_TRUE(Move(stack.mm(0), &c.white, gid, 0, "e2e4").ok());
  ASSERT_TRUE(Move(stack.mm(0), &c.black, gid, 1, "e7e5").ok());
  ASSERT_TRUE(w0->WaitFor([](const auto& ev) { return ev.size() >= 8; }));
  int64_t seen = w0->last_seq();
  stack.replica(0).proc->Signal(SIGKILL);
  ASSERT_TRUE(stack.replica(0).proc->Wait(10).has_value());
  w0->WaitDone();
  EXPECT_EQ(w0->status().error_code(), Code::UNAVAILABLE);
  // The other replica has everything and carries on; a watcher resumes there.
  v1::Game g = GetGame(stack.mm(1), gid);
  EXPECT_EQ(g.ply(), 2);
  Watcher w1(stack.mm(1), c.room.id(), seen, nullptr);
  ASSERT_TRUE(Move(stack.mm(1), &c.white, gid, 2, "g1f3").ok());
  ASSERT_TRUE(Move(stack.mm(1), &c.black, gid, 3, "b8c6").ok());
  ASSERT_TRUE(w1.WaitFor([](const auto& ev) {
    int moves = 0;
    for (const auto& e : ev) moves += e.has_move_played();
    return moves == 2;
  }));
  auto all = w0->events();
  auto rest = w1.events();
  all.insert(all.end(), rest.begin(), rest.end());
  EXPECT_TRUE(Contiguous(all));
  v1::GetGameMovesRequest gm;
  gm.set_game_id(gid);
  v1::GetGameMovesResponse moves;
  ASSERT_TRUE(MM_CALL(stack.mm(1), GetGameMoves, nullptr, gm, &moves).ok());
  ASSERT_EQ(moves.moves_size(), 4);
  EXPECT_EQ(moves.moves(2).move().notation(), "g1f3");

  // A CPU game whose replica dies: the survivor's scheduler plays on.
  Guest solo = NewGuest(stack.mm(1), "Solo");
  const v1::Room room = NewRoom(stack.mm(1), solo);
  v1::Game cpu_game;
  ASSERT_TRUE(Start(stack.mm(1), solo, room.id(), &cpu_game).ok());
  EXPECT_TRUE(cpu_game.seats(1).is_cpu());
  ASSERT_TRUE(Move(stack.mm(1), &solo, cpu_game.id(), 0, "e2e4").ok());
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (GetGame(stack.mm(1), cpu_game.id()).ply() < 2 &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(GetGame(stack.mm(1), cpu_game.id()).ply(), 2);
}

TEST_F(MatchmakingLiveTest, QuickMatchPairsTwoWaitingPlayers) {
  Stack stack;
  stack.AddReplica();
  auto* mm = stack.mm();
  // A pool of its own (a non-default option) so that other tests' tickets stay apart.
  v1::JoinQueueRequest jq;
  jq.set_kind(v1::GAME_KIND_CHESS);
  (*jq.mutable_options())["fide_resignation_exception"] = "on";
  (*jq.mutable_options())["draw_mode"] = "fide";
  (*jq.mutable_options())["show_legal_moves"] = "off";  // room-level: ignored
  Guest a = NewGuest(mm, "QA"), b = NewGuest(mm, "QB"), c = NewGuest(mm, "QC");
  v1::Ticket ta, tb, tc;
  grpc::Status s = MM_CALL(mm, JoinQueue, &a, jq, &ta);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(ta.status(), v1::Ticket::STATUS_WAITING);
  EXPECT_EQ(ta.player_count(), 2);
  EXPECT_EQ(ta.options().at("draw_mode"), "fide");
  EXPECT_EQ(ta.options().at("show_legal_moves"), "on");  // room-level: the request's is ignored
  EXPECT_LE(ta.rating_low(), ta.rating());
  EXPECT_GE(ta.rating_high(), ta.rating());
  EXPECT_EQ(MM_CALL(mm, JoinQueue, &a, jq, &tc).error_code(), Code::ALREADY_EXISTS);
  v1::JoinQueueRequest bad = jq;
  bad.set_player_count(3);
  EXPECT_EQ(MM_CALL(mm, JoinQueue, &c, bad, &tc).error_code(), Code::INVALID_ARGUMENT);
  bad = jq;
  bad.set_kind(v1::GAME_KIND_UNSPECIFIED);
  EXPECT_EQ(MM_CALL(mm, JoinQueue, &c, bad, &tc).error_code(), Code::INVALID_ARGUMENT);
  bad = jq;
  (*bad.mutable_options())["draw_mode"] = "never";
  s = MM_CALL(mm, JoinQueue, &c, bad, &tc);
  EXPECT_EQ(s.error_code(), Code::INVALID_ARGUMENT);
  // The message names the request's field (JoinQueueRequest has no `settings`).
  EXPECT_EQ(s.error_message().rfind("options: option \"draw_mode\"", 0), 0u) << s.error_message();
  v1::GetTicketRequest gt;
  gt.set_ticket_id(ta.ticket_id());
  EXPECT_EQ(MM_CALL(mm, GetTicket, &c, gt, &tc).error_code(), Code::PERMISSION_DENIED);

  ASSERT_TRUE(MM_CALL(mm, JoinQueue, &b, jq, &tb).ok());
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < until) {
    ASSERT_TRUE(MM_CALL(mm, GetTicket, &a, gt, &ta).ok());
    if (ta.status() == v1::Ticket::STATUS_MATCHED) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(ta.status(), v1::Ticket::STATUS_MATCHED);
  gt.set_ticket_id(tb.ticket_id());
  ASSERT_TRUE(MM_CALL(mm, GetTicket, &b, gt, &tb).ok());
  EXPECT_EQ(tb.status(), v1::Ticket::STATUS_MATCHED);
  EXPECT_EQ(ta.room_id(), tb.room_id());
  EXPECT_EQ(ta.game_id(), tb.game_id());
  v1::Game g = GetGame(mm, ta.game_id());
  EXPECT_TRUE(g.ranked());
  EXPECT_EQ(g.options().at("draw_mode"), "fide");
  std::set<std::string> seated = {g.seats(0).player_id(), g.seats(1).player_id()};
  EXPECT_EQ(seated, (std::set<std::string>{a.id, b.id}));
  v1::GetRoomRequest gr;
  gr.set_room_id(ta.room_id());
  v1::Room room;
  ASSERT_TRUE(MM_CALL(mm, GetRoom, nullptr, gr, &room).ok());
  EXPECT_TRUE(room.quick_match());
  EXPECT_EQ(room.state(), v1::Room::STATE_PLAYING);
  v1::CancelQueueRequest cq;
  cq.set_ticket_id(ta.ticket_id());
  EXPECT_EQ(MM_CALL(mm, CancelQueue, &a, cq, &tc).error_code(), Code::FAILED_PRECONDITION);

  // Cancel: idempotent, and a cancelled ticket is never matched.
  ASSERT_TRUE(MM_CALL(mm, JoinQueue, &c, jq, &tc).ok());
  cq.set_ticket_id(tc.ticket_id());
  ASSERT_TRUE(MM_CALL(mm, CancelQueue, &c, cq, &tc).ok());
  EXPECT_EQ(tc.status(), v1::Ticket::STATUS_CANCELLED);
  EXPECT_EQ(tc.cancel_reason(), "cancelled");
  ASSERT_TRUE(MM_CALL(mm, CancelQueue, &c, cq, &tc).ok());
  EXPECT_EQ(MM_CALL(mm, CancelQueue, &a, cq, &tc).error_code(), Code::PERMISSION_DENIED);
  // The replica that matched them observed both waits (its own database: no other test's).
  auto m = HttpGet("127.0.0.1", stack.replica().metrics_port, "/metrics");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(MetricValue(*m, "tablero_matchmaking_queue_wait_seconds_count{kind=\"chess\"}"), 2);
  EXPECT_EQ(MetricValue(*m, "tablero_matchmaking_queue_wait_seconds_count{kind=\"checkers\"}"), 0);
}

// A rating service stand-in: records reports, refuses the first `fail_first` with
// UNAVAILABLE (to exercise the outbox's retries).
class FakeRating final : public v1::Rating::Service {
 public:
  explicit FakeRating(int fail_first) : fail_left_(fail_first) {}
  grpc::Status ReportGame(grpc::ServerContext*, const v1::ReportGameRequest* req,
                          v1::ReportGameResponse*) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++calls_[req->game_id()];
    if (fail_left_ > 0) {
      --fail_left_;
      return grpc::Status(Code::UNAVAILABLE, "not yet");
    }
    acked_.push_back(*req);
    return grpc::Status::OK;
  }
  grpc::Status GetRatings(grpc::ServerContext*, const v1::GetRatingsRequest* req,
                          v1::GetRatingsResponse* resp) override {
    resp->set_player_id(req->player_id());
    auto* r = resp->add_ratings();
    r->set_pool(v1::RATING_POOL_CHESS);
    r->set_rating(1500);
    return grpc::Status::OK;
  }
  // Other tests' replicas share the database: look at one game's reports only.
  std::vector<v1::ReportGameRequest> acked(const std::string& game) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<v1::ReportGameRequest> out;
    for (const auto& r : acked_) {
      if (r.game_id() == game) out.push_back(r);
    }
    return out;
  }
  int calls(const std::string& game) {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_[game];
  }

 private:
  std::mutex mu_;
  int fail_left_;
  std::map<std::string, int> calls_;
  std::vector<v1::ReportGameRequest> acked_;
};

TEST_F(MatchmakingLiveTest, FinishedRankedGameIsReportedOnceThroughTheOutbox) {
  FakeRating fake(2);
  std::string addr = "127.0.0.1:" + std::to_string(FreePort());
  grpc::ServerBuilder builder;
  builder.AddListeningPort(addr, grpc::InsecureServerCredentials());
  builder.RegisterService(&fake);
  auto server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  Stack stack;
  stack.rating_addr = addr;
  stack.AddReplica();
  stack.AddReplica();
  auto* mm = stack.mm();

  // Ranked needs every seat human.
  Guest solo = NewGuest(mm);
  v1::CreateRoomRequest cr;
  cr.set_kind(v1::GAME_KIND_CHESS);
  cr.mutable_settings()->set_ranked(true);
  v1::Room lonely;
  ASSERT_TRUE(MM_CALL(mm, CreateRoom, &solo, cr, &lonely).ok());
  v1::StartGameRequest sr;
  sr.set_room_id(lonely.id());
  v1::Game none;
  EXPECT_EQ(MM_CALL(mm, StartGame, &solo, sr, &none).error_code(), Code::FAILED_PRECONDITION);

  v1::RoomSettings st;
  st.set_ranked(true);
  Chess c = NewChess(stack, 0, st);
  StartChess(stack, 0, &c);
  EXPECT_TRUE(c.game.ranked());
  ASSERT_TRUE(Move(mm, &c.white, c.game.id(), 0, "e2e4").ok());
  v1::ResignRequest rs;
  rs.set_game_id(c.game.id());
  v1::GameActionResponse ar;
  ASSERT_TRUE(MM_CALL(mm, Resign, &c.black, rs, &ar).ok());
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (fake.acked(c.game.id()).empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(fake.acked(c.game.id()).size(), 1u);
  EXPECT_GE(fake.calls(c.game.id()), 1);
  v1::ReportGameRequest rep = fake.acked(c.game.id())[0];
  EXPECT_EQ(rep.game_id(), c.game.id());
  EXPECT_EQ(rep.pool(), v1::RATING_POOL_CHESS);
  EXPECT_TRUE(rep.ranked());
  ASSERT_EQ(rep.seats_size(), 2);
  EXPECT_EQ(rep.seats(0).player_id(), c.white.id);
  EXPECT_EQ(rep.seats(0).place(), 1);
  EXPECT_EQ(rep.seats(1).place(), 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  int calls = fake.calls(c.game.id());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(fake.calls(c.game.id()), calls);  // acknowledged: never sent again, by either replica
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.outbox WHERE game_id = '" + c.game.id() + "'"),
            0);
  auto m = HttpGet("127.0.0.1", stack.replica(1).metrics_port, "/metrics");
  ASSERT_TRUE(m.has_value());
  EXPECT_GE(MetricValue(*m, "tablero_matchmaking_outbox_pending"), 0);
  server->Shutdown();
}

TEST_F(MatchmakingLiveTest, OutboxLagIsTheAgeOfTheOldestUnsentReport) {
  Stack stack;
  stack.rating_addr = "127.0.0.1:" + std::to_string(FreePort());  // nothing listens: kept
  stack.AddReplica();
  auto* mm = stack.mm();
  auto sample = [&](const char* name) {
    auto m = HttpGet("127.0.0.1", stack.replica().metrics_port, "/metrics");
    return m ? MetricValue(*m, name) : -2;
  };
  EXPECT_EQ(sample("tablero_matchmaking_outbox_oldest_seconds"), 0);
  v1::RoomSettings st;
  st.set_ranked(true);
  Chess c = NewChess(stack, 0, st);
  StartChess(stack, 0, &c);
  v1::ResignRequest rs;
  rs.set_game_id(c.game.id());
  v1::GameActionResponse ar;
  ASSERT_TRUE(MM_CALL(mm, Resign, &c.black, rs, &ar).ok());
  // Counted from the database every 5 s: the report waits, and its age grows.
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  double first = 0;
  while (std::chrono::steady_clock::now() < until &&
         (sample("tablero_matchmaking_outbox_pending") != 1 ||
          (first = sample("tablero_matchmaking_outbox_oldest_seconds")) <= 0)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_GT(first, 0);
  until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  double later = first;
  while (std::chrono::steady_clock::now() < until &&
         (later = sample("tablero_matchmaking_outbox_oldest_seconds")) <= first) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_GT(later, first);
  EXPECT_EQ(sample("tablero_matchmaking_outbox_pending"), 1);
}

}  // namespace
}  // namespace tablero::testing
