// Shared by the matchmaking tests: the services as real processes (rules, bot, one or
// more matchmaking replicas against the test Postgres) and small client helpers.
#ifndef TABLERO_TESTS_MATCHMAKING_TEST_UTIL_H_
#define TABLERO_TESTS_MATCHMAKING_TEST_UTIL_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "tablero/v1/matchmaking.grpc.pb.h"
#include "tests/support/grpc_util.h"
#include "tests/support/process.h"

namespace tablero::testing {

namespace v1 = ::tablero::v1;
using Code = grpc::StatusCode;

struct Guest {
  std::string id, token, name;
};

// A service process on a fresh port, SERVING before the constructor returns.
struct Svc {
  std::unique_ptr<Process> proc;
  std::string addr;
  int metrics_port = 0;

  // db: the test database, or `url` when given.
  Svc(const std::string& binary, std::vector<std::string> args, bool db,
      const std::string& url = "") {
    addr = "127.0.0.1:" + std::to_string(FreePort());
    metrics_port = FreePort();
    args.push_back("--listen=" + addr);
    args.push_back("--metrics_listen=127.0.0.1:" + std::to_string(metrics_port));
    std::map<std::string, std::string> env;
    if (db) env["TABLERO_DATABASE_URL"] = url.empty() ? TestDatabaseUrl() : url;
    proc = std::make_unique<Process>(BinPath(binary), args, env);
    EXPECT_EQ(WaitHealth(addr, "SERVING", 30), "SERVING") << proc->log();
  }
};

class Stack {
 public:
  // Rules and bot always run; matchmaking replicas are added with AddReplica.
  Stack() {
    rules_ = std::make_unique<Svc>("rules", std::vector<std::string>{}, false);
    bot_ = std::make_unique<Svc>("bot", std::vector<std::string>{}, false);
  }
  // TABLERO_TEST_LOGS=1 prints every replica's log at the end (debugging).
  ~Stack() {
    if (std::getenv("TABLERO_TEST_LOGS") == nullptr) return;
    for (auto& r : replicas_)
      std::fprintf(stderr, "--- %s\n%s", r->addr.c_str(), r->proc->log().c_str());
  }
  // Returns the replica's index. `url`: another database than the test one.
  int AddReplica(std::vector<std::string> flags = {}, const std::string& url = "") {
    flags.push_back("--rules_addr=" + rules_->addr);
    flags.push_back("--bot_addr=" + bot_->addr);
    // Empty unless a test runs one: replicas of other tests (sharing the database) must
    // not try to deliver the rating outbox to a default address.
    flags.push_back("--rating_addr=" + rating_addr);
    replicas_.push_back(std::make_unique<Svc>("matchmaking", flags, true, url));
    stubs_.push_back(v1::Matchmaking::NewStub(
        grpc::CreateChannel(replicas_.back()->addr, grpc::InsecureChannelCredentials())));
    return static_cast<int>(replicas_.size()) - 1;
  }
  v1::Matchmaking::Stub* mm(int i = 0) { return stubs_[i].get(); }
  Svc& replica(int i = 0) { return *replicas_[i]; }
  Svc& rules() { return *rules_; }
  std::string rating_addr;

 private:
  std::unique_ptr<Svc> rules_, bot_;
  std::vector<std::unique_ptr<Svc>> replicas_;
  std::vector<std::unique_ptr<v1::Matchmaking::Stub>> stubs_;
};

inline void Deadline(grpc::ClientContext* ctx, int seconds = 20) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
}

inline void Auth(grpc::ClientContext* ctx, const Guest& g) {
  Deadline(ctx);
  ctx->AddMetadata("authorization", "Bearer " + g.token);
}

inline Guest NewGuest(v1::Matchmaking::Stub* mm, const std::string& name = "") {
  grpc::ClientContext ctx;
  Deadline(&ctx);
  v1::CreateGuestRequest req;
  req.set_display_name(name);
  v1::CreateGuestResponse resp;
  grpc::Status s = mm->CreateGuest(&ctx, req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return Guest{resp.player_id(), resp.token(), resp.display_name()};
}

// Calls a unary RPC as `g` (or without a token when g is null).
template <typename Req, typename Resp, typename Fn>
grpc::Status Call(Fn fn, const Guest* g, const Req& req, Resp* resp) {
  grpc::ClientContext ctx;
  if (g != nullptr) {
    Auth(&ctx, *g);
  } else {
    Deadline(&ctx);
  }
  return fn(&ctx, req, resp);
}

#define MM_CALL(stub, Method, guest, req, resp)                                  \
  ::tablero::testing::Call([&](grpc::ClientContext* c_, const auto& q_,          \
                               auto* r_) { return (stub)->Method(c_, q_, r_); }, \
                           (guest), (req), (resp))

// A test that needs the run's Postgres (scripts/test.sh always provides one).
class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(TestDatabaseUrl().empty())
        << "TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh";
  }
};

// The first column of the first row of `sql` (with `param` as $1 when given) on the test
// database, as a number: what the tests count in the service's tables.
inline int64_t Count(const std::string& sql, const std::string& param = "") {
  pqxx::connection c(TestDatabaseUrl());
  pqxx::nontransaction n(c);
  return (param.empty() ? n.exec(sql) : n.exec_params(sql, param))[0][0].as<int64_t>();
}

// The client calls most tests make, one RPC each: NewRoom and GetGame expect success (a
// failure is reported where it happens); the others return the status for the test to check.
inline v1::Room NewRoom(v1::Matchmaking::Stub* mm, const Guest& host,
                        v1::GameKind kind = v1::GAME_KIND_CHESS,
                        const v1::RoomSettings& settings = {}) {
  v1::CreateRoomRequest req;
  req.set_kind(kind);
  *req.mutable_settings() = settings;
  v1::Room room;
  grpc::Status s = MM_CALL(mm, CreateRoom, &host, req, &room);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return room;
}

inline grpc::Status Join(v1::Matchmaking::Stub* mm, const Guest& g, const std::string& code,
                         v1::JoinRoomResponse* resp) {
  v1::JoinRoomRequest req;
  req.set_invite_code(code);
  return MM_CALL(mm, JoinRoom, &g, req, resp);
}

inline grpc::Status Start(v1::Matchmaking::Stub* mm, const Guest& g, const std::string& room,
                          v1::Game* game) {
  v1::StartGameRequest req;
  req.set_room_id(room);
  return MM_CALL(mm, StartGame, &g, req, game);
}

// MakeMove as `g` (null: without a token) at move number `ply`.
inline grpc::Status Move(v1::Matchmaking::Stub* mm, const Guest* g, const std::string& game,
                         int ply, const std::string& text, v1::MakeMoveResponse* resp = nullptr) {
  v1::MakeMoveRequest req;
  req.set_game_id(game);
  req.set_expected_ply(ply);
  req.set_move_text(text);
  v1::MakeMoveResponse local;
  return MM_CALL(mm, MakeMove, g, req, resp != nullptr ? resp : &local);
}

inline v1::Game GetGame(v1::Matchmaking::Stub* mm, const std::string& id) {
  v1::GetGameRequest req;
  req.set_game_id(id);
  v1::Game g;
  EXPECT_TRUE(MM_CALL(mm, GetGame, nullptr, req, &g).ok());
  return g;
}

// A server stream read on a thread: the messages `keep` accepts are kept in order (the
// others only counted), then the stream's status.
template <typename Msg>
class StreamReader {
 public:
  // Starts the call on the reader's context.
  using Open = std::function<std::unique_ptr<grpc::ClientReader<Msg>>(grpc::ClientContext*)>;
  explicit StreamReader(
      const Open& open, std::function<bool(const Msg&)> keep = [](const Msg&) { return true; }) {
    reader_ = open(&ctx_);
    thread_ = std::thread([this, keep = std::move(keep)] {
      Msg m;
      while (reader_->Read(&m)) {
        std::lock_guard<std::mutex> lock(mu_);
        if (keep(m)) {
          got_.push_back(m);
        } else {
          ++skipped_;
        }
        cv_.notify_all();
      }
      grpc::Status s = reader_->Finish();
      std::lock_guard<std::mutex> lock(mu_);
      status_ = s;
      done_ = true;
      cv_.notify_all();
    });
  }
  ~StreamReader() { Cancel(); }
  void Cancel() {
    ctx_.TryCancel();
    if (thread_.joinable()) thread_.join();
  }
  std::vector<Msg> got() {
    std::lock_guard<std::mutex> lock(mu_);
    return got_;
  }
  // Waits until pred(kept messages) holds; false on timeout.
  bool WaitFor(const std::function<bool(const std::vector<Msg>&)>& pred, double seconds = 20) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return pred(got_) || done_; });
    return pred(got_);
  }
  bool WaitDone(double seconds = 20) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return done_; });
  }
  grpc::Status status() {
    std::lock_guard<std::mutex> lock(mu_);
    return status_;
  }
  // Messages `keep` turned away.
  int skipped() {
    std::lock_guard<std::mutex> lock(mu_);
    return skipped_;
  }

 private:
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReader<Msg>> reader_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Msg> got_;
  int skipped_ = 0;
  grpc::Status status_;
  bool done_ = false;
};

// The request of a Watch or WatchBatches call on `room` after `after`, as `g` (or anonymous).
inline v1::WatchRequest WatchCall(grpc::ClientContext* ctx, const std::string& room, int64_t after,
                                  const Guest* g) {
  if (g != nullptr) ctx->AddMetadata("authorization", "Bearer " + g->token);
  v1::WatchRequest req;
  req.set_room_id(room);
  req.set_after_seq(after);
  return req;
}

// A Watch stream read on a thread; its events are kept in order (heartbeats only counted).
class Watcher : public StreamReader<v1::RoomEvent> {
 public:
  Watcher(v1::Matchmaking::Stub* mm, const std::string& room, int64_t after, const Guest* g)
      : StreamReader(
            [&](grpc::ClientContext* ctx) {
              return mm->Watch(ctx, WatchCall(ctx, room, after, g));
            },
            [](const v1::RoomEvent& e) { return e.seq() != 0; }) {}
  std::vector<v1::RoomEvent> events() { return got(); }
  int heartbeats() { return skipped(); }
  int64_t last_seq() {
    std::vector<v1::RoomEvent> ev = got();
    return ev.empty() ? 0 : ev.back().seq();
  }
};

// A WatchBatches stream read on a thread: its batches in order (heartbeats only counted),
// and their events flattened.
class BatchWatcher : public StreamReader<v1::RoomEventBatch> {
 public:
  BatchWatcher(v1::Matchmaking::Stub* mm, const std::string& room, int64_t after, const Guest* g)
      : StreamReader(
            [&](grpc::ClientContext* ctx) {
              return mm->WatchBatches(ctx, WatchCall(ctx, room, after, g));
            },
            [](const v1::RoomEventBatch& b) {
              return !(b.events_size() == 1 && b.events(0).seq() == 0);
            }) {}
  std::vector<v1::RoomEventBatch> batches() { return got(); }
  std::vector<v1::RoomEvent> events() {
    std::vector<v1::RoomEvent> ev;
    for (const v1::RoomEventBatch& b : got())
      ev.insert(ev.end(), b.events().begin(), b.events().end());
    return ev;
  }
  int heartbeats() { return skipped(); }
  // Waits until an event with seq >= `seq` arrived.
  bool ReachesSeq(int64_t seq, double seconds = 20) {
    return WaitFor(
        [seq](const std::vector<v1::RoomEventBatch>& b) {
          return !b.empty() && b.back().events_size() > 0 &&
                 b.back().events(b.back().events_size() - 1).seq() >= seq;
        },
        seconds);
  }
};

// The value of one sample line ("name{labels}") of a /metrics page; -1 if absent.
inline double MetricValue(const std::string& page, const std::string& sample) {
  size_t at = page.find("\n" + sample + " ");
  if (at == std::string::npos) return -1;
  return std::stod(page.substr(at + sample.size() + 2));
}

// Seqs are 1..n with no gap and no repeat, starting after `after`.
inline bool Contiguous(const std::vector<v1::RoomEvent>& ev, int64_t after = 0) {
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev[i].seq() != after + 1 + static_cast<int64_t>(i)) return false;
  }
  return true;
}

}  // namespace tablero::testing

#endif  // TABLERO_TESTS_MATCHMAKING_TEST_UTIL_H_
