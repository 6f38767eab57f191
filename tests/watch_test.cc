// Watch at scale (services/matchmaking/feeds.h, watch_stream.h, watchers.h): replicas as
// real processes against a real PostgreSQL. A slow reader is ended with RESOURCE_EXHAUSTED
// and resumes without loss; a replica writes its own moves from memory, as stored;
// WatchBatches sends a move's events in one message, the same events as Watch; a
// broken LISTEN connection and a Postgres restart lose no event; over-limit streams are refused;
// thousands of streams open and close cleanly.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <pqxx/pqxx>

#include "tests/matchmaking_test_util.h"

namespace tablero::testing {
namespace {

class WatchTest : public DatabaseTest {};

// A chess game between two guests in a fresh room (FIDE draw mode: the knights' shuffle
// below ends by fivefold repetition after 16 plies; the host then starts a rematch).
struct Game {
  Guest white, black;
  v1::Room room;
  v1::Game game;
  int ply = 0;
};

Game NewGame(v1::Matchmaking::Stub* mm) {
  Game g;
  g.white = NewGuest(mm, "W");
  g.black = NewGuest(mm, "B");
  v1::RoomSettings fide;
  (*fide.mutable_options())["draw_mode"] = "fide";
  g.room = NewRoom(mm, g.white, v1::GAME_KIND_CHESS, fide);
  v1::JoinRoomResponse joined;
  EXPECT_TRUE(Join(mm, g.black, g.room.invite_code(), &joined).ok());
  EXPECT_TRUE(Start(mm, g.white, g.room.id(), &g.game).ok());
  return g;
}

// Plays the next knight move through `mm`; returns the room's seq after it.
int64_t Move(v1::Matchmaking::Stub* mm, Game* g) {
  static const char* kWhite[] = {"g1f3", "f3g1"};
  static const char* kBlack[] = {"g8f6", "f6g8"};
  const bool white_to_move = g->ply % 2 == 0;
  const std::string& mover_id = g->game.seats(g->ply % 2).player_id();
  const Guest& mover = mover_id == g->white.id ? g->white : g->black;
  v1::MakeMoveRequest req;
  req.set_game_id(g->game.id());
  req.set_expected_ply(g->ply);
  req.set_move_text(white_to_move ? kWhite[(g->ply / 2) % 2] : kBlack[(g->ply / 2) % 2]);
  v1::MakeMoveResponse resp;
  grpc::Status s = MM_CALL(mm, MakeMove, &mover, req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  if (!s.ok()) return -1;
  ++g->ply;
  int64_t seq = resp.game().seq();
  if (resp.game().result().over()) {
    v1::RematchRequest rq;
    rq.set_room_id(g->room.id());
    EXPECT_TRUE(MM_CALL(mm, Rematch, &g->white, rq, &g->game).ok());
    seq = g->game.seq();
    g->ply = 0;
  }
  return seq;
}

bool ReachesSeq(Watcher& w, int64_t seq, double seconds = 20) {
  return w.WaitFor([seq](const auto& ev) { return !ev.empty() && ev.back().seq() >= seq; },
                   seconds);
}

// A PostgreSQL of the test's own (scripts/pg.sh), for what the shared test database must
// not see: a restart, connections refused for a while.
class PrivatePostgres {
 public:
  PrivatePostgres()
      : dir_("/tmp/tablero-watch-test-pg-" + std::to_string(getpid())),
        port_(FreePort()),
        script_(std::string(TABLERO_SOURCE_DIR) + "/scripts/pg.sh") {
    ok_ = Start();
  }
  ~PrivatePostgres() {
    (void)std::system((script_ + " stop " + dir_ + " >/dev/null 2>&1; rm -rf " + dir_ + " " + dir_ +
                       ".initdb.log")
                          .c_str());
  }
  bool ok() const { return ok_; }
  bool Start() {
    return std::system((script_ + " start " + dir_ + " " + std::to_string(port_) + " >/dev/null")
                           .c_str()) == 0;
  }
  bool Stop() { return std::system((script_ + " stop " + dir_ + " >/dev/null").c_str()) == 0; }
  std::string url() const {
    return "postgresql://tablero@127.0.0.1:" + std::to_string(port_) + "/tablero";
  }
  void Exec(const std::string& sql) {
    pqxx::connection c(url() + (url().find('?') == std::string::npos ? "?" : "&") +
                       "dbname=postgres");
    pqxx::nontransaction(c).exec(sql);
  }

 private:
  std::string dir_;
  int port_;
  std::string script_;
  bool ok_ = false;
};

double Metric(Svc& replica, const std::string& sample) {
  auto page = HttpGet("127.0.0.1", replica.metrics_port, "/metrics");
  return page ? MetricValue(*page, sample) : -2;
}

// A client that reads nothing (Watch, or WatchBatches with `batches`) is ended with
// RESOURCE_EXHAUSTED once the replica holds 8 events for it, and resumes without loss.
void SlowReaderEndsAndResumes(bool batches) {
  Stack stack;
  stack.AddReplica({"--watch_queue_events=8"});
  auto* mm = stack.mm();
  Game g = NewGame(mm);
  // A client that reads nothing, on a connection with the smallest flow-control window:
  // the replica's writes stall at once and its queue for the stream fills.
  grpc::ChannelArguments args;
  args.SetInt("grpc.http2.bdp_probe", 0);
  args.SetInt("grpc.http2.lookahead_bytes", 1024);
  auto slow_mm = v1::Matchmaking::NewStub(
      grpc::CreateCustomChannel(stack.replica().addr, grpc::InsecureChannelCredentials(), args));
  grpc::ClientContext ctx;
  Deadline(&ctx, 60);  // without a queue limit the stream would never end
  v1::WatchRequest wr;
  wr.set_room_id(g.room.id());
  wr.set_after_seq(0);
  auto reader = batches ? nullptr : slow_mm->Watch(&ctx, wr);
  auto batch_reader = batches ? slow_mm->WatchBatches(&ctx, wr) : nullptr;
  Watcher fast(mm, g.room.id(), 0, nullptr);  // a reader that keeps up, for comparison
  int64_t last = 0;
  // Each move waits for the fast reader, so a loaded machine never lets it fall 8 events
  // behind (it has the same small queue); the slow one falls behind at once.
  for (int i = 0; i < 60; ++i) {
    last = Move(mm, &g);
    ASSERT_TRUE(ReachesSeq(fast, last)) << "the fast reader gets every event";
  }
  EXPECT_TRUE(Contiguous(fast.events()));

  // Now the slow client reads: what was sent before the replica gave up, then the status.
  std::vector<v1::RoomEvent> got;
  v1::RoomEvent e;
  v1::RoomEventBatch b;
  while (batches ? batch_reader->Read(&b) : reader->Read(&e)) {
    if (!batches) *b.add_events() = e;
    for (const v1::RoomEvent& one : b.events()) {
      if (one.seq() > 0) got.push_back(one);
    }
    b.Clear();
  }
  grpc::Status s = batches ? batch_reader->Finish() : reader->Finish();
  EXPECT_EQ(s.error_code(), Code::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_NE(s.error_message().find("after_seq"), std::string::npos) << s.error_message();
  ASSERT_LT(got.size(), static_cast<size_t>(last)) << "it was cut off before the end";
  EXPECT_TRUE(Contiguous(got));
  // It resumes from the last seq it received and misses nothing.
  Watcher resumed(mm, g.room.id(), got.empty() ? 0 : got.back().seq(), nullptr);
  ASSERT_TRUE(ReachesSeq(resumed, last));
  auto rest = resumed.events();
  EXPECT_TRUE(Contiguous(rest, got.empty() ? 0 : got.back().seq()));
  EXPECT_GE(
      Metric(stack.replica(), "tablero_matchmaking_watch_ended_total{reason=\"slow_reader\"}"), 1);
}

TEST_F(WatchTest, ASlowReaderIsEndedWithResourceExhaustedAndResumesWithoutLoss) {
  SlowReaderEndsAndResumes(false);
}

TEST_F(WatchTest, ASlowBatchReaderIsEndedWithResourceExhaustedAndResumesWithoutLoss) {
  SlowReaderEndsAndResumes(true);
}

TEST_F(WatchTest, ABrokenListenConnectionUnderARunningGameLosesNoEvent) {
  PrivatePostgres pg;
  ASSERT_TRUE(pg.ok());
  Stack stack;
  stack.AddReplica({}, pg.url());
  // The watchers' replica never sweeps: only the listener's resync can catch it up.
  stack.AddReplica({"--watch_sweep_seconds=600"}, pg.url());
  Game g = NewGame(stack.mm(0));
  Watcher on_other(stack.mm(1), g.room.id(), 0, nullptr);
  Watcher on_same(stack.mm(0), g.room.id(), 0, nullptr);
  int64_t last = 0;
  for (int i = 0; i < 6; ++i) last = Move(stack.mm(i % 2), &g);
  ASSERT_TRUE(ReachesSeq(on_other, last));
  // The listeners' connections are cut and cannot come back for a while: the moves meanwhile
  // are committed (the replicas' pooled connections stay open) and their notifications are
  // lost to the other replica.
  pqxx::connection db(pg.url());
  pg.Exec("ALTER DATABASE tablero ALLOW_CONNECTIONS false");
  pqxx::result killed = pqxx::nontransaction(db).exec(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
      "WHERE application_name LIKE 'tablero-matchmaking-listen:%'");
  EXPECT_EQ(killed.size(), 2u);
  for (int i = 0; i < 6; ++i) last = Move(stack.mm(0), &g);
  EXPECT_TRUE(ReachesSeq(on_same, last)) << "the committing replica's own watchers";
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_LT(on_other.last_seq(), last) << "nothing told the other replica yet";
  pg.Exec("ALTER DATABASE tablero ALLOW_CONNECTIONS true");
  ASSERT_TRUE(ReachesSeq(on_other, last, 15)) << "seen: " << on_other.last_seq() << " of " << last;
  EXPECT_TRUE(Contiguous(on_other.events()));
  EXPECT_TRUE(Contiguous(on_same.events()));
  EXPECT_EQ(on_other.events().size(), on_same.events().size());
}

TEST_F(WatchTest, TheCommittingReplicaWritesItsOwnMovesFromMemoryAsStored) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  Game g = NewGame(stack.mm(0));
  Watcher on_same(stack.mm(0), g.room.id(), 0, nullptr);
  Watcher on_other(stack.mm(1), g.room.id(), 0, nullptr);
  ASSERT_TRUE(ReachesSeq(on_same, g.game.seq()));
  const std::string kCommit = "tablero_matchmaking_watch_feed_updates_total{source=\"commit\"}";
  const double before = Metric(stack.replica(0), kCommit);
  // 20 moves: the 16th ends the game by fivefold repetition (its commit is a transaction)
  // and the host starts a rematch. Each move once the last reached the replica's watcher.
  constexpr int kMoves = 20;
  int64_t last = 0;
  for (int i = 0; i < kMoves; ++i) {
    last = Move(stack.mm(0), &g);
    ASSERT_TRUE(ReachesSeq(on_same, last));
  }
  ASSERT_TRUE(ReachesSeq(on_same, last));
  ASSERT_TRUE(ReachesSeq(on_other, last));
  // Every move's events went out from the commit, with no read of the events table (a
  // safety sweep's read may take the odd one first).
  EXPECT_GE(Metric(stack.replica(0), kCommit) - before, kMoves - 2);
  // And they are what the other replica read from the events table, in order, each once
  // (compared as messages: maps serialize in no fixed order).
  std::vector<v1::RoomEvent> same = on_same.events(), other = on_other.events();
  ASSERT_EQ(same.size(), other.size());
  EXPECT_TRUE(Contiguous(same));
  for (size_t i = 0; i < same.size(); ++i) {
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(same[i], other[i]))
        << "seq " << same[i].seq();
  }
}

TEST_F(WatchTest, WatchBatchesSendsEachMoveAsOneMessageWithTheEventsOfWatch) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  Game g = NewGame(stack.mm(0));
  // On the committing replica (events from the commit) and on the other (from a read).
  Watcher single(stack.mm(0), g.room.id(), 0, nullptr);
  BatchWatcher on_same(stack.mm(0), g.room.id(), 0, nullptr);
  BatchWatcher on_other(stack.mm(1), g.room.id(), 0, nullptr);
  ASSERT_TRUE(ReachesSeq(single, g.game.seq()));
  ASSERT_TRUE(on_same.ReachesSeq(g.game.seq()));
  ASSERT_TRUE(on_other.ReachesSeq(g.game.seq()));
  const size_t opening_same = on_same.batches().size(), opening_other = on_other.batches().size();
  // 20 moves, as above (a game end by repetition and a rematch among them), each once the
  // last reached every watcher: each move's events are ready together.
  constexpr int kMoves = 20;
  int64_t last = 0;
  for (int i = 0; i < kMoves; ++i) {
    last = Move(stack.mm(0), &g);
    ASSERT_TRUE(ReachesSeq(single, last));
    ASSERT_TRUE(on_same.ReachesSeq(last));
    ASSERT_TRUE(on_other.ReachesSeq(last));
  }
  // One message per move (the game-ending move and the rematch are two commits), where
  // Watch sent two or more.
  for (BatchWatcher* w : {&on_same, &on_other}) {
    const size_t opening = w == &on_same ? opening_same : opening_other;
    const size_t moves_batches = w->batches().size() - opening;
    EXPECT_GE(moves_batches, static_cast<size_t>(kMoves));
    EXPECT_LE(moves_batches, static_cast<size_t>(kMoves + 1));
    for (const v1::RoomEventBatch& b : w->batches()) {
      EXPECT_GE(b.events_size(), 1);
      EXPECT_LE(b.events_size(), 64);
    }
  }
  std::vector<v1::RoomEvent> one_by_one = single.events();
  EXPECT_GE(one_by_one.size(), 2 * static_cast<size_t>(kMoves));
  // The same events as Watch's, in order, each once (compared as messages: maps serialize
  // in no fixed order).
  for (BatchWatcher* w : {&on_same, &on_other}) {
    std::vector<v1::RoomEvent> batched = w->events();
    ASSERT_EQ(batched.size(), one_by_one.size());
    EXPECT_TRUE(Contiguous(batched));
    for (size_t i = 0; i < batched.size(); ++i) {
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(batched[i], one_by_one[i]))
          << "seq " << batched[i].seq();
    }
  }
  // A late stream gets the backlog in batches too, resuming exactly after after_seq: the
  // events Watch sent from seq 4 on, message for message.
  BatchWatcher late(stack.mm(1), g.room.id(), 3, nullptr);
  ASSERT_TRUE(late.ReachesSeq(last));
  std::vector<v1::RoomEvent> rest = late.events();
  EXPECT_TRUE(Contiguous(rest, 3));
  EXPECT_LT(late.batches().size(), rest.size());
  ASSERT_GT(one_by_one.size(), 3u);
  ASSERT_EQ(one_by_one[2].seq(), 3);
  ASSERT_EQ(rest.size(), one_by_one.size() - 3);
  for (size_t i = 0; i < rest.size(); ++i) {
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(rest[i], one_by_one[i + 3]))
        << "seq " << rest[i].seq();
  }
}

TEST_F(WatchTest, StreamsSurviveAPostgresRestartAndCatchUp) {
  PrivatePostgres pg;
  ASSERT_TRUE(pg.ok());
  Stack stack;
  stack.AddReplica({}, pg.url());
  Game g = NewGame(stack.mm());
  Watcher w(stack.mm(), g.room.id(), 0, &g.white);
  int64_t last = Move(stack.mm(), &g);
  ASSERT_TRUE(ReachesSeq(w, last));
  ASSERT_TRUE(pg.Stop());
  ASSERT_TRUE(pg.Start());
  // The stream stayed open; moves after the restart reach it. First, until the replica's
  // pooled connections are all fresh again.
  int fine = 0;
  for (int i = 0; i < 200 && fine < 40; ++i) {
    v1::GetGameRequest gg;
    gg.set_game_id(g.game.id());
    v1::Game snap;
    fine = MM_CALL(stack.mm(), GetGame, nullptr, gg, &snap).ok() ? fine + 1 : 0;
    if (fine == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (int i = 0; i < 3; ++i) last = Move(stack.mm(), &g);
  ASSERT_TRUE(ReachesSeq(w, last))
      << "seen " << w.last_seq() << " of " << last << "; " << w.status().error_message();
  EXPECT_TRUE(Contiguous(w.events()));
}

TEST_F(WatchTest, StreamsOverALimitAreRefused) {
  Stack stack;
  stack.AddReplica({"--watch_max_per_player=2", "--watch_max_per_address=5"});
  stack.AddReplica({"--watch_max_streams=3"});
  Game g = NewGame(stack.mm(0));
  auto code_of = [](Watcher& w) {
    w.WaitDone(3);
    return w.status().error_code();
  };
  // Per player: a third stream of the same token.
  Watcher a1(stack.mm(0), g.room.id(), 0, &g.white), a2(stack.mm(0), g.room.id(), 0, &g.white);
  ASSERT_TRUE(a1.WaitFor([](const auto& ev) { return !ev.empty(); }));
  ASSERT_TRUE(a2.WaitFor([](const auto& ev) { return !ev.empty(); }));
  Watcher a3(stack.mm(0), g.room.id(), 0, &g.white);
  EXPECT_EQ(code_of(a3), Code::RESOURCE_EXHAUSTED) << a3.status().error_message();
  // Per address: anonymous streams from this one address (two are open already).
  std::vector<std::unique_ptr<Watcher>> anon;
  for (int i = 0; i < 3; ++i) {
    anon.push_back(std::make_unique<Watcher>(stack.mm(0), g.room.id(), 0, nullptr));
    ASSERT_TRUE(anon.back()->WaitFor([](const auto& ev) { return !ev.empty(); }));
  }
  Watcher over(stack.mm(0), g.room.id(), 0, nullptr);
  EXPECT_EQ(code_of(over), Code::RESOURCE_EXHAUSTED) << over.status().error_message();
  // Closing one makes room again.
  anon.pop_back();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Watcher again(stack.mm(0), g.room.id(), 0, nullptr);
  EXPECT_TRUE(again.WaitFor([](const auto& ev) { return !ev.empty(); }))
      << again.status().error_message();
  EXPECT_EQ(Metric(stack.replica(0), "tablero_matchmaking_watch_refused_total{limit=\"player\"}"),
            1);
  EXPECT_EQ(Metric(stack.replica(0), "tablero_matchmaking_watch_refused_total{limit=\"address\"}"),
            1);
  // The replica-wide maximum.
  std::vector<std::unique_ptr<Watcher>> on1;
  for (int i = 0; i < 3; ++i) {
    on1.push_back(std::make_unique<Watcher>(stack.mm(1), g.room.id(), 0, nullptr));
    ASSERT_TRUE(on1.back()->WaitFor([](const auto& ev) { return !ev.empty(); }));
  }
  Watcher full(stack.mm(1), g.room.id(), 0, nullptr);
  EXPECT_EQ(code_of(full), Code::RESOURCE_EXHAUSTED) << full.status().error_message();
  EXPECT_EQ(Metric(stack.replica(1), "tablero_matchmaking_watch_refused_total{limit=\"replica\"}"),
            1);
}

// Streams on the callback client API (no thread each), counted as they end.
class Stream : public grpc::ClientReadReactor<v1::RoomEvent> {
 public:
  Stream(v1::Matchmaking::Stub* mm, const std::string& room, const Guest& g) {
    ctx_.AddMetadata("authorization", "Bearer " + g.token);
    req_.set_room_id(room);
    mm->async()->Watch(&ctx_, &req_, this);
    StartRead(&ev_);
    StartCall();
  }
  void OnReadDone(bool ok) override {
    if (!ok) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (ev_.seq() > 0) ++events_;
    }
    cv_.notify_all();
    StartRead(&ev_);
  }
  void OnDone(const grpc::Status& s) override {
    std::lock_guard<std::mutex> lock(mu_);
    status_ = s;
    done_ = true;
    cv_.notify_all();
  }
  bool WaitEvent() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(120), [&] { return events_ > 0 || done_; });
    return events_ > 0;
  }
  void Cancel() { ctx_.TryCancel(); }
  grpc::Status WaitDone() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return done_; });
    return status_;
  }

 private:
  grpc::ClientContext ctx_;
  v1::WatchRequest req_;
  v1::RoomEvent ev_;
  std::mutex mu_;
  std::condition_variable cv_;
  int events_ = 0;
  bool done_ = false;
  grpc::Status status_;
};

TEST_F(WatchTest, ThousandsOfStreamsOpenAndCloseCleanly) {
  Stack stack;
  stack.AddReplica({"--guests_per_minute=0"});
  auto* mm = stack.mm();
  constexpr int kRooms = 20, kPlayersPerRoom = 25, kStreamsEach = 4;  // 2,000 streams
  std::vector<v1::Room> rooms(kRooms);
  std::vector<Guest> players;
  for (int r = 0; r < kRooms; ++r) {
    for (int p = 0; p < kPlayersPerRoom; ++p) {
      players.push_back(NewGuest(mm));
      if (p == 0) {
        rooms[r] = NewRoom(mm, players.back(), v1::GAME_KIND_CHECKERS);
      } else {
        v1::JoinRoomResponse resp;
        ASSERT_TRUE(Join(mm, players.back(), rooms[r].invite_code(), &resp).ok());
      }
    }
  }
  auto db = pqxx::connection(TestDatabaseUrl());
  std::string in_rooms = "r.id IN (";
  for (int r = 0; r < kRooms; ++r) in_rooms += (r ? ",'" : "'") + rooms[r].id() + "'";
  in_rooms += ")";
  // Events appended to the rooms: presence events only, once the players are seated.
  auto events = [&] {
    return pqxx::nontransaction(db)
        .exec1("SELECT sum(seq) FROM matchmaking.rooms r WHERE " + in_rooms)[0]
        .as<int64_t>();
  };
  const int64_t events0 = events();
  std::vector<std::unique_ptr<Stream>> streams;
  for (int i = 0; i < kRooms * kPlayersPerRoom; ++i) {
    for (int k = 0; k < kStreamsEach; ++k) {
      streams.push_back(std::make_unique<Stream>(mm, rooms[i / kPlayersPerRoom].id(), players[i]));
    }
  }
  int opened = 0;
  for (auto& s : streams) opened += s->WaitEvent() ? 1 : 0;
  EXPECT_EQ(opened, static_cast<int>(streams.size()));
  EXPECT_EQ(Metric(stack.replica(), "tablero_matchmaking_watch_streams"), streams.size());
  EXPECT_EQ(Metric(stack.replica(), "tablero_matchmaking_watch_rooms"), kRooms);
  EXPECT_EQ(Metric(stack.replica(), "tablero_db_pool_size"), 16);
  EXPECT_GE(Metric(stack.replica(), "tablero_db_pool_connections{state=\"idle\"}"), 1);
  EXPECT_GE(Metric(stack.replica(), "tablero_db_pool_waits_total"), 0);
  EXPECT_EQ(Metric(stack.replica(), "tablero_matchmaking_connected_players"),
            kRooms * kPlayersPerRoom);
  auto count = [&](const std::string& where) {
    return pqxx::nontransaction(db)
        .exec1(
            "SELECT count(*) FROM matchmaking.connections c JOIN matchmaking.rooms r ON "
            "r.id = c.room_id WHERE " +
            where)[0]
        .as<int>();
  };
  EXPECT_EQ(count(in_rooms), kRooms * kPlayersPerRoom)
      << "a presence row per player and replica, however many streams it has open";
  EXPECT_EQ(events() - events0, kRooms * kPlayersPerRoom)
      << "one 'connected' event per player: its first stream, not every stream";
  // The replica holds no thread per stream.
  std::ifstream status("/proc/" + std::to_string(stack.replica().proc->pid()) + "/status");
  std::string line;
  int threads = 0;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) threads = std::stoi(line.substr(8));
  }
  EXPECT_LT(threads, 100) << "threads with " << streams.size() << " streams open";
  for (auto& s : streams) s->Cancel();
  for (auto& s : streams) EXPECT_EQ(s->WaitDone().error_code(), Code::CANCELLED);
  streams.clear();
  for (int i = 0; i < 100 && count(in_rooms) > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(count(in_rooms), 0) << "every presence row is deleted as its stream closes";
  EXPECT_EQ(events() - events0, 2 * kRooms * kPlayersPerRoom)
      << "one 'disconnected' event per player, when its last stream closed";
  EXPECT_EQ(Metric(stack.replica(), "tablero_matchmaking_watch_streams"), 0);
  EXPECT_EQ(Metric(stack.replica(), "tablero_matchmaking_watch_rooms"), 0);
  EXPECT_EQ(Metric(stack.replica(), "tablero_matchmaking_connected_players"), 0);
  EXPECT_EQ(
      Metric(stack.replica(), "tablero_matchmaking_watch_ended_total{reason=\"client_gone\"}"),
      kRooms * kPlayersPerRoom * kStreamsEach);
}

}  // namespace
}  // namespace tablero::testing
