// Live play at site scale (see watch_scale.sh and README.md): one process
// holding many Watch streams on one matchmaking replica, on gRPC's async client API over
// a few completion queues (no thread per stream).
//
//   --phase=idle    opens --streams streams with player tokens over --rooms rooms (each
//                   player a member of its room), holds them idle for --idle_seconds and
//                   prints the replica's threads, CPU and RSS per stream (from /proc of
//                   --pid) and Postgres transactions/s (pg_stat_database over
//                   --database_url), first with no stream open, then with all of them.
//   --phase=fanout  --watchers anonymous streams on one room while two guests play
//                   --moves chess moves in it, each once the one before reached every
//                   watcher: commit (the event's time) to the last watcher's receipt,
//                   p50/p99.
//   --rpc           the streams call WatchBatches (default) or Watch.
//   --phase=burst   --calls unary calls at once: the replica's peak threads, and outcomes.
//   --phase=hold    opens --streams streams, prints "holding" and holds them until killed
//                   (watch_scale.sh runs matchmaking_load beside it).
#include <grpcpp/grpcpp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/arena.h"
#include "tablero/v1/matchmaking.grpc.pb.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50052", "the matchmaking replica");
ABSL_FLAG(std::string, phase, "idle", "idle | fanout | hold");
ABSL_FLAG(int, streams, 20000, "streams to open (idle, hold)");
ABSL_FLAG(int, rooms, 1000, "rooms the streams spread over (idle, hold)");
ABSL_FLAG(double, idle_seconds, 30, "length of each idle window (two heartbeat periods)");
ABSL_FLAG(double, settle_seconds, 20,
          "wait before each idle window: set-up writes, presence batches and autovacuum end");
ABSL_FLAG(int, watchers, 1000, "anonymous streams on the fan-out room");
ABSL_FLAG(int, moves, 100, "moves played in the fan-out room");
ABSL_FLAG(int, move_gap_ms, 50,
          "pause between a move reaching every watcher and the next move (fan-out)");
ABSL_FLAG(bool, per_move, false,
          "fan-out: print each move's commit to first, median, last watcher");
ABSL_FLAG(int, calls, 2000, "unary calls sent at once (burst)");
ABSL_FLAG(int, pid, 0, "the replica's process id (for /proc)");
ABSL_FLAG(std::string, database_url, "", "the Postgres the replica uses (pg_stat_database)");
ABSL_FLAG(int, channels, 32, "HTTP/2 connections the streams are spread over");
ABSL_FLAG(int, client_queues, 2, "completion queues (one thread each) reading the streams");
ABSL_FLAG(int, setup_threads, 16, "concurrent calls while creating guests and rooms");
ABSL_FLAG(std::string, rpc, "batches",
          "what the streams call: watch (an event per message) or batches (WatchBatches)");

namespace v1 = tablero::v1;
using Clock = std::chrono::steady_clock;

namespace {

struct Guest {
  std::string id, token;
};

std::vector<std::unique_ptr<v1::Matchmaking::Stub>> stubs;

v1::Matchmaking::Stub* Stub(size_t i) { return stubs[i % stubs.size()].get(); }

void Auth(grpc::ClientContext* ctx, const Guest& g) {
  ctx->AddMetadata("authorization", "Bearer " + g.token);
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
}

Guest NewGuest(v1::Matchmaking::Stub* mm) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  v1::CreateGuestRequest req;
  v1::CreateGuestResponse resp;
  grpc::Status s = mm->CreateGuest(&ctx, req, &resp);
  if (!s.ok()) std::fprintf(stderr, "CreateGuest: %s\n", s.error_message().c_str());
  return {resp.player_id(), resp.token()};
}

// Runs fn(i) for i in [0, n) on --setup_threads threads.
template <typename Fn>
void ParallelFor(int n, Fn fn) {
  std::atomic<int> next{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < absl::GetFlag(FLAGS_setup_threads); ++t) {
    threads.emplace_back([&] {
      for (int i = next++; i < n; i = next++) fn(i);
    });
  }
  for (auto& t : threads) t.join();
}

// The streams' completion queues, one thread each. The generator uses gRPC's async client
// API on queues of its own, as the replica does for Watch (watch_stream.h): on the callback
// API every read of every stream would search one shared queue's pending operations
// (Debian's libgrpc keeps its debug checks), and the generator, not the replica, would set
// the fan-out latency.
class Queues {
 public:
  // The completion queue for stream `i`.
  static grpc::CompletionQueue* For(size_t i) {
    static Queues* q = new Queues(
        absl::GetFlag(FLAGS_client_queues));  // lives until exit: streams may outlive main's scope
    return q->cqs_[i % q->cqs_.size()].get();
  }

 private:
  explicit Queues(int n) {
    n = std::max(1, n);
    for (int i = 0; i < n; ++i) {
      cqs_.push_back(std::make_unique<grpc::CompletionQueue>());
      std::thread([cq = cqs_.back().get()] {
        void* tag = nullptr;
        bool ok = false;
        while (cq->Next(&tag, &ok)) static_cast<Tag*>(tag)->Proceed(ok);
      }).detach();
    }
  }

 public:
  // An operation in flight on a queue.
  struct Tag {
    virtual ~Tag() = default;
    virtual void Proceed(bool ok) = 0;
  };

 private:
  std::vector<std::unique_ptr<grpc::CompletionQueue>> cqs_;
};

// One Watch stream: reads until the stream ends, counting (and with `record`, timing) the
// room events it receives.
class Stream {
  static google::protobuf::ArenaOptions ArenaOptions() {
    google::protobuf::ArenaOptions o;
    o.start_block_size = 4096;  // a move's batch in one or two blocks
    return o;
  }

 public:
  Stream(v1::Matchmaking::Stub* mm, const std::string& room, int64_t after, const Guest* g,
         bool record, grpc::CompletionQueue* cq)
      : record_(record) {
    if (g != nullptr) ctx_.AddMetadata("authorization", "Bearer " + g->token);
    req_.set_room_id(room);
    req_.set_after_seq(after);
    if (absl::GetFlag(FLAGS_rpc) == "watch") {
      reader_ = mm->PrepareAsyncWatch(&ctx_, req_, cq);
      reader_->StartCall(&started_);
    } else {
      batch_reader_ = mm->PrepareAsyncWatchBatches(&ctx_, req_, cq);
      batch_reader_->StartCall(&started_);
    }
  }
  // Waits for the stream to end (gRPC must return its tags before it goes).
  ~Stream() {
    Cancel();
    WaitDone();
  }

  void Cancel() { ctx_.TryCancel(); }
  // Whether `n` events arrived (the stream may have ended since).
  bool WaitEvents(int n, std::chrono::seconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return done_ || events_ >= n; });
    return events_ >= n;
  }
  // Whether the event with `seq` (or a later one) arrived within `timeout`.
  bool WaitSeq(int64_t seq, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return done_ || last_seq_ >= seq; }) &&
           last_seq_ >= seq;
  }
  void WaitDone() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return done_; });
  }
  bool done() {
    std::lock_guard<std::mutex> lock(mu_);
    return done_;
  }
  grpc::Status status() {
    std::lock_guard<std::mutex> lock(mu_);
    return status_;
  }
  struct Arrival {
    int64_t seq;
    std::chrono::system_clock::time_point at, committed;  // received; the event's own time
  };
  // The event with `seq` (seq 0 if it did not arrive).
  Arrival ArrivalOf(int64_t seq) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Arrival& a : arrivals_) {
      if (a.seq == seq) return a;
    }
    return {0, {}, {}};
  }

 private:
  struct Step final : Queues::Tag {
    Step(Stream* s, void (Stream::*fn)(bool)) : stream(s), on(fn) {}
    void Proceed(bool ok) override { (stream->*on)(ok); }
    Stream* stream;
    void (Stream::*on)(bool);
  };
  // Each message is parsed onto the stream's arena, emptied before the next read: a move's
  // event carries the whole board, and allocating and freeing its parts one by one cost
  // the generator twice the replica's CPU per move (it shares the replica's cores).
  void Read() {
    arena_.Reset();
    if (reader_ != nullptr) {
      ev_ = google::protobuf::Arena::CreateMessage<v1::RoomEvent>(&arena_);
      reader_->Read(ev_, &read_);
    } else {
      batch_ = google::protobuf::Arena::CreateMessage<v1::RoomEventBatch>(&arena_);
      batch_reader_->Read(batch_, &read_);
    }
  }
  void Finish() {
    if (reader_ != nullptr) {
      reader_->Finish(&final_, &finished_);
    } else {
      batch_reader_->Finish(&final_, &finished_);
    }
  }
  void OnStarted(bool ok) {
    if (ok) {
      Read();
    } else {
      Finish();
    }
  }
  void OnRead(bool ok) {
    if (!ok) {
      Finish();
      return;
    }
    if (reader_ != nullptr) {
      Got(*ev_);
    } else {
      for (const v1::RoomEvent& e : batch_->events()) Got(e);
    }
    cv_.notify_all();
    Read();
  }
  void Got(const v1::RoomEvent& e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (e.seq() <= 0) return;
    ++events_;
    last_seq_ = e.seq();
    if (record_) {
      const auto committed = std::chrono::system_clock::time_point(
          std::chrono::seconds(e.time().seconds()) +
          std::chrono::duration_cast<std::chrono::system_clock::duration>(
              std::chrono::nanoseconds(e.time().nanos())));
      arrivals_.push_back({e.seq(), std::chrono::system_clock::now(), committed});
    }
  }
  void OnFinished(bool /*ok*/) {
    std::lock_guard<std::mutex> lock(mu_);
    status_ = final_;
    done_ = true;
    cv_.notify_all();
  }

  grpc::ClientContext ctx_;
  v1::WatchRequest req_;
  google::protobuf::Arena arena_{ArenaOptions()};
  v1::RoomEvent* ev_ = nullptr;                                                // on arena_
  v1::RoomEventBatch* batch_ = nullptr;                                        // on arena_
  std::unique_ptr<grpc::ClientAsyncReader<v1::RoomEvent>> reader_;             // Watch
  std::unique_ptr<grpc::ClientAsyncReader<v1::RoomEventBatch>> batch_reader_;  // or this
  Step started_{this, &Stream::OnStarted}, read_{this, &Stream::OnRead},
      finished_{this, &Stream::OnFinished};
  grpc::Status final_;  // written by gRPC before `finished_` returns
  const bool record_;
  std::mutex mu_;
  std::condition_variable cv_;
  int events_ = 0;
  int64_t last_seq_ = 0;
  bool done_ = false;
  grpc::Status status_;
  std::vector<Arrival> arrivals_;
};

struct ProcSample {
  long threads = 0, rss_kib = 0;
  double cpu_s = 0;
};

// This process's CPU time (user and system), in seconds.
double SelfCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

ProcSample SampleProc(int pid) {
  ProcSample p;
  if (pid <= 0) return p;
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) p.threads = std::stol(line.substr(8));
    if (line.rfind("VmRSS:", 0) == 0) p.rss_kib = std::stol(line.substr(6));
  }
  std::ifstream stat(absl::StrCat("/proc/", pid, "/stat"));
  std::string all((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::istringstream rest(all.substr(all.rfind(')') + 2));
  std::string field;
  long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {  // fields 14 and 15: utime, stime
    if (i == 14) utime = std::stol(field);
    if (i == 15) stime = std::stol(field);
  }
  p.cpu_s = static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  return p;
}

int64_t PgTransactions() {
  const std::string url = absl::GetFlag(FLAGS_database_url);
  if (url.empty()) return 0;
  pqxx::connection c(url);
  pqxx::nontransaction n(c);
  // This query's own transaction counts too: one per sample, the same in every window.
  return n
      .exec1(
          "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = "
          "current_database()")[0]
      .as<int64_t>();
}

// An idle window: the replica's threads, CPU and RSS, and Postgres transactions/s.
struct Window {
  ProcSample end;
  double cpu_pct = 0, pg_tps = 0;
};

Window Idle(double seconds) {
  const int pid = absl::GetFlag(FLAGS_pid);
  ProcSample a = SampleProc(pid);
  int64_t ta = PgTransactions();
  auto t0 = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  ProcSample b = SampleProc(pid);
  int64_t tb = PgTransactions();
  double dt = std::chrono::duration<double>(Clock::now() - t0).count();
  return {b, 100.0 * (b.cpu_s - a.cpu_s) / dt, static_cast<double>(tb - ta - 1) / dt};
}

struct Member {
  Guest guest;
  std::string room;
  int64_t after = 0;
};

// --streams guests in --rooms rooms: the first of each room creates it, the rest join.
std::vector<Member> MakeMembers(int n, int rooms) {
  std::vector<Member> m(n);
  ParallelFor(n, [&](int i) { m[i].guest = NewGuest(Stub(i)); });
  std::vector<v1::Room> made(rooms);
  ParallelFor(rooms, [&](int r) {
    grpc::ClientContext ctx;
    Auth(&ctx, m[r].guest);
    v1::CreateRoomRequest req;
    req.set_kind(v1::GAME_KIND_CHESS);
    grpc::Status s = Stub(r)->CreateRoom(&ctx, req, &made[r]);
    if (!s.ok()) std::fprintf(stderr, "CreateRoom: %s\n", s.error_message().c_str());
  });
  ParallelFor(n, [&](int i) {
    const v1::Room& room = made[i % rooms];
    m[i].room = room.id();
    if (i < rooms) return;
    grpc::ClientContext ctx;
    Auth(&ctx, m[i].guest);
    v1::JoinRoomRequest req;
    req.set_invite_code(room.invite_code());
    v1::JoinRoomResponse resp;
    grpc::Status s = Stub(i)->JoinRoom(&ctx, req, &resp);
    if (!s.ok()) std::fprintf(stderr, "JoinRoom: %s\n", s.error_message().c_str());
  });
  // Streams start after the joins, so they carry no backlog of who joined.
  std::vector<int64_t> seq(rooms);
  ParallelFor(rooms, [&](int r) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    v1::GetRoomRequest req;
    req.set_room_id(made[r].id());
    v1::Room got;
    if (Stub(r)->GetRoom(&ctx, req, &got).ok()) seq[r] = got.seq();
  });
  for (int i = 0; i < n; ++i) m[i].after = seq[i % rooms];
  return m;
}

// Opens a stream per member; returns when each has its own presence event or has ended.
// A stream the transport dropped before its first event (UNAVAILABLE: a connection asked to
// go away by --grpc_max_connection_age_seconds as it opened) is opened again, as a client
// resumes; those are counted apart from the streams the replica refused.
std::vector<std::unique_ptr<Stream>> Open(const std::vector<Member>& members, int* opened,
                                          int* refused, double* seconds) {
  auto t0 = Clock::now();
  std::vector<std::unique_ptr<Stream>> streams;
  streams.reserve(members.size());
  auto open = [&](size_t i) {
    return std::make_unique<Stream>(Stub(i), members[i].room, members[i].after, &members[i].guest,
                                    false, Queues::For(i));
  };
  for (size_t i = 0; i < members.size(); ++i) streams.push_back(open(i));
  *opened = *refused = 0;
  int reopened = 0;
  for (size_t i = 0; i < streams.size(); ++i) {
    for (int attempt = 0;; ++attempt) {
      if (streams[i]->WaitEvents(1, std::chrono::seconds(600))) {
        ++*opened;
        break;
      }
      const grpc::Status s = streams[i]->status();
      if (s.error_code() == grpc::StatusCode::UNAVAILABLE && attempt < 3) {
        if (++reopened <= 3) std::fprintf(stderr, "reopened: %s\n", s.error_message().c_str());
        streams[i] = open(i);
        continue;
      }
      if (++*refused <= 3) std::fprintf(stderr, "refused: %s\n", s.error_message().c_str());
      break;
    }
  }
  *seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (reopened > 0) std::printf("reopened after UNAVAILABLE: %d\n", reopened);
  return streams;
}

void CloseAll(std::vector<std::unique_ptr<Stream>>* streams) {
  for (auto& s : *streams) s->Cancel();
  for (auto& s : *streams) s->WaitDone();
  streams->clear();
}

int RunIdle() {
  const int n = absl::GetFlag(FLAGS_streams), rooms = absl::GetFlag(FLAGS_rooms);
  const double secs = absl::GetFlag(FLAGS_idle_seconds);
  std::printf("setting up %d guests in %d rooms...\n", n, rooms);
  std::fflush(stdout);
  std::vector<Member> members = MakeMembers(n, rooms);
  const auto settle = std::chrono::duration<double>(absl::GetFlag(FLAGS_settle_seconds));
  std::this_thread::sleep_for(settle);
  Window base = Idle(secs);
  std::printf("idle, no stream:   threads=%ld cpu=%.1f%% rss=%ld KiB postgres_tps=%.1f\n",
              base.end.threads, base.cpu_pct, base.end.rss_kib, base.pg_tps);
  int opened = 0, refused = 0;
  double open_s = 0;
  auto streams = Open(members, &opened, &refused, &open_s);
  std::printf("opened=%d refused=%d in %.1f s (%.0f streams/s)\n", opened, refused, open_s,
              opened / open_s);
  std::fflush(stdout);
  std::this_thread::sleep_for(settle);
  Window w = Idle(secs);
  std::printf(
      "idle, %d streams: threads=%ld cpu=%.1f%% rss=%ld KiB (%.1f KiB per stream) "
      "postgres_tps=%.1f\n",
      opened, w.end.threads, w.cpu_pct, w.end.rss_kib,
      opened > 0 ? static_cast<double>(w.end.rss_kib - base.end.rss_kib) / opened : 0.0, w.pg_tps);
  auto t0 = Clock::now();
  CloseAll(&streams);
  std::printf("closed all in %.1f s\n", std::chrono::duration<double>(Clock::now() - t0).count());
  return refused == 0 ? 0 : 1;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

int RunFanout() {
  v1::Matchmaking::Stub* mm = Stub(0);
  Guest w = NewGuest(mm), k = NewGuest(mm);
  v1::Room room;
  {
    grpc::ClientContext ctx;
    Auth(&ctx, w);
    v1::CreateRoomRequest req;
    req.set_kind(v1::GAME_KIND_CHESS);
    (*req.mutable_settings()->mutable_options())["draw_mode"] = "fide";
    if (!mm->CreateRoom(&ctx, req, &room).ok()) return 1;
  }
  {
    grpc::ClientContext ctx;
    Auth(&ctx, k);
    v1::JoinRoomRequest req;
    req.set_invite_code(room.invite_code());
    v1::JoinRoomResponse resp;
    if (!mm->JoinRoom(&ctx, req, &resp).ok()) return 1;
  }
  const int n = absl::GetFlag(FLAGS_watchers);
  std::vector<std::unique_ptr<Stream>> watchers;
  for (int i = 0; i < n; ++i) {
    watchers.push_back(
        std::make_unique<Stream>(Stub(i), room.id(), 0, nullptr, true, Queues::For(i)));
  }
  for (auto& s : watchers) {
    if (!s->WaitEvents(2, std::chrono::seconds(120))) {  // the two members' joins
      std::fprintf(stderr, "watcher: %s\n", s->status().error_message().c_str());
      return 1;
    }
  }
  // The players' own streams keep their seats connected.
  Stream ws(mm, room.id(), 0, &w, false, Queues::For(0)),
      ks(mm, room.id(), 0, &k, false, Queues::For(1));
  v1::Game game;
  {
    grpc::ClientContext ctx;
    Auth(&ctx, w);
    v1::StartGameRequest req;
    req.set_room_id(room.id());
    if (!mm->StartGame(&ctx, req, &game).ok()) return 1;
  }
  const char* white[] = {"g1f3", "f3g1"};
  const char* black[] = {"g8f6", "f6g8"};
  std::vector<int64_t> seqs;                                    // each move's last event
  std::vector<std::chrono::system_clock::time_point> answered;  // each MakeMove's answer
  int ply = 0;
  // CPU used during the moves: this generator's (it shares the machine) and the replica's.
  const double gen_before = SelfCpuSeconds();
  const double replica_before = SampleProc(absl::GetFlag(FLAGS_pid)).cpu_s;
  for (int m = 0; m < absl::GetFlag(FLAGS_moves); ++m) {
    const Guest& mover = game.seats(ply % 2).player_id() == w.id ? w : k;
    v1::MakeMoveRequest req;
    req.set_game_id(game.id());
    req.set_expected_ply(ply);
    req.set_move_text(ply % 2 == 0 ? white[(ply / 2) % 2] : black[(ply / 2) % 2]);
    grpc::ClientContext ctx;
    Auth(&ctx, mover);
    v1::MakeMoveResponse resp;
    grpc::Status s = mm->MakeMove(&ctx, req, &resp);
    if (!s.ok()) {
      std::fprintf(stderr, "MakeMove: %s\n", s.error_message().c_str());
      return 1;
    }
    ++ply;
    seqs.push_back(resp.game().seq());
    answered.push_back(std::chrono::system_clock::now());
    // The next move once this one reached every watcher (or 5 s went by): each move's
    // latency is its own fan-out, not a queue left by the moves before it.
    const auto give_up = Clock::now() + std::chrono::seconds(5);
    for (auto& s : watchers) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(give_up - Clock::now());
      if (left.count() <= 0 || !s->WaitSeq(seqs.back(), left)) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(absl::GetFlag(FLAGS_move_gap_ms)));
    if (resp.game().result().over()) {
      grpc::ClientContext rctx;
      Auth(&rctx, w);
      v1::RematchRequest rq;
      rq.set_room_id(room.id());
      if (!mm->Rematch(&rctx, rq, &game).ok()) return 1;
      ply = 0;
    }
  }
  const double gen_ms = 1000 * (SelfCpuSeconds() - gen_before);
  const double replica_ms = 1000 * (SampleProc(absl::GetFlag(FLAGS_pid)).cpu_s - replica_before);
  // Until every watcher has the last move (or 30 s).
  for (int i = 0; i < 300 && !seqs.empty(); ++i) {
    bool all = true;
    for (auto& s : watchers) all = all && s->ArrivalOf(seqs.back()).seq != 0;
    if (all) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  // From the event's own time (stamped by the replica as it commits) to its arrival at the
  // last of the watchers; both on this machine's clock.
  std::vector<double> ms;
  int missing = 0;
  for (size_t i = 0; i < seqs.size(); ++i) {
    const int64_t seq = seqs[i];
    std::chrono::system_clock::time_point committed{}, last{};
    std::vector<double> each;  // per watcher
    bool all = true;
    for (auto& s : watchers) {
      Stream::Arrival a = s->ArrivalOf(seq);
      if (a.seq == 0) all = false;
      last = std::max(last, a.at);
      committed = a.committed;
      each.push_back(std::chrono::duration<double, std::milli>(a.at - a.committed).count());
    }
    if (!all) {
      ++missing;
      continue;
    }
    ms.push_back(std::chrono::duration<double, std::milli>(last - committed).count());
    if (absl::GetFlag(FLAGS_per_move)) {
      std::printf(
          "move seq=%ld: MakeMove answered %.1f ms, first watcher %.1f ms, median %.1f ms, "
          "last %.1f ms\n",
          static_cast<long>(seq),
          std::chrono::duration<double, std::milli>(answered[i] - committed).count(),
          Percentile(each, 0), Percentile(each, 0.5), ms.back());
    }
  }
  std::printf(
      "fanout (%s): %d watchers, %zu moves: commit to last watcher p50=%.1f ms p99=%.1f ms "
      "max=%.1f ms\n",
      absl::GetFlag(FLAGS_rpc) == "watch" ? "Watch" : "WatchBatches", n, seqs.size(),
      Percentile(ms, 0.5), Percentile(ms, 0.99), Percentile(ms, 1.0));
  if (!seqs.empty()) {
    const double moves = static_cast<double>(seqs.size());
    std::printf("fanout: CPU per move: replica %.1f ms, this generator %.1f ms\n",
                replica_ms / moves, gen_ms / moves);
  }
  if (missing > 0) std::printf("fanout: %d moves not seen by every watcher\n", missing);
  std::fflush(stdout);
  for (auto& s : watchers) s->Cancel();
  ws.Cancel();
  ks.Cancel();
  for (auto& s : watchers) s->WaitDone();
  ws.WaitDone();
  ks.WaitDone();
  return missing == 0 ? 0 : 1;
}

// --calls GetRoom calls sent at once (async): the replica's peak thread count while they
// run, and how they ended.
int RunBurst() {
  const int n = absl::GetFlag(FLAGS_calls);
  Guest g = NewGuest(Stub(0));
  v1::Room room;
  {
    grpc::ClientContext ctx;
    Auth(&ctx, g);
    v1::CreateRoomRequest req;
    req.set_kind(v1::GAME_KIND_CHESS);
    if (!Stub(0)->CreateRoom(&ctx, req, &room).ok()) return 1;
  }
  const int pid = absl::GetFlag(FLAGS_pid);
  const long before = SampleProc(pid).threads;
  std::atomic<bool> running{true};
  std::atomic<long> peak{before};
  std::thread sampler([&] {
    while (running) {
      long t = SampleProc(pid).threads;
      if (t > peak) peak = t;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  struct Call {
    grpc::ClientContext ctx;
    v1::Room resp;
    grpc::Status status;
  };
  std::vector<std::unique_ptr<Call>> calls;
  std::mutex mu;
  std::condition_variable cv;
  int done = 0;
  v1::GetRoomRequest req;
  req.set_room_id(room.id());
  auto t0 = Clock::now();
  for (int i = 0; i < n; ++i) {
    calls.push_back(std::make_unique<Call>());
    Call* c = calls.back().get();
    c->ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    Stub(i)->async()->GetRoom(&c->ctx, &req, &c->resp, [&, c](grpc::Status s) {
      std::lock_guard<std::mutex> lock(mu);
      c->status = std::move(s);
      ++done;
      cv.notify_all();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return done == n; });
  }
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  running = false;
  sampler.join();
  int ok = 0, exhausted = 0, other = 0;
  for (auto& c : calls) {
    if (c->status.ok()) {
      ++ok;
    } else if (c->status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      ++exhausted;
    } else {
      ++other;
    }
  }
  std::printf(
      "burst: %d calls at once in %.2f s: ok=%d resource_exhausted=%d other=%d; replica "
      "threads %ld before, peak %ld, after %ld\n",
      n, secs, ok, exhausted, other, before, peak.load(), SampleProc(pid).threads);
  return 0;
}

int RunHold() {
  const int n = absl::GetFlag(FLAGS_streams), rooms = absl::GetFlag(FLAGS_rooms);
  std::vector<Member> members = MakeMembers(n, rooms);
  int opened = 0, refused = 0;
  double open_s = 0;
  // Held open (never read) until the process is killed.
  [[maybe_unused]] const auto streams = Open(members, &opened, &refused, &open_s);
  std::printf("holding %d streams (refused %d)\n", opened, refused);
  std::fflush(stdout);
  while (true) std::this_thread::sleep_for(std::chrono::seconds(60));
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  for (int i = 0; i < absl::GetFlag(FLAGS_channels); ++i) {
    grpc::ChannelArguments args;
    args.SetInt("tablero.watch_scale.channel", i);  // a connection of its own
    args.SetMaxReceiveMessageSize(16 << 20);
    stubs.push_back(v1::Matchmaking::NewStub(grpc::CreateCustomChannel(
        absl::GetFlag(FLAGS_target), grpc::InsecureChannelCredentials(), args)));
  }
  const std::string phase = absl::GetFlag(FLAGS_phase);
  if (phase == "idle") return RunIdle();
  if (phase == "fanout") return RunFanout();
  if (phase == "hold") return RunHold();
  if (phase == "burst") return RunBurst();
  std::fprintf(stderr, "--phase: idle, fanout, burst or hold\n");
  return 2;
}
