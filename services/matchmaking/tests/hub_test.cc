// The event fan-out between replicas (services/matchmaking/hub.h) against a real
// PostgreSQL: a commit's room is published after the transaction, to this replica's
// watchers at once and to the other replicas by NOTIFY from the notifier connection.
#include "services/matchmaking/hub.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "libs/pg/pool.h"
#include "services/matchmaking/room_store.h"
#include "tests/support/process.h"

namespace tablero::matchmaking {
namespace {

class HubTest : public ::testing::Test {
 protected:
  void SetUp() override {
    url_ = tablero::testing::TestDatabaseUrl();
    ASSERT_FALSE(url_.empty())
        << "TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh";
  }
  std::string url_;
};

// Long enough never to be reached by a working fan-out, so a false Wait is a lost wake-up.
constexpr absl::Duration kPatience = absl::Seconds(20);

// Records what the hub wakes: rooms, and resyncs (the LISTEN connection (re)established).
class Recorder : public Hub::Listener {
 public:
  void OnRoom(const std::string& room) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++woken_[room];
    cv_.notify_all();
  }
  void OnResync() override {
    std::lock_guard<std::mutex> lock(mu_);
    ++resyncs_;
    cv_.notify_all();
  }
  // Waits until the room has been woken `n` times in all; false on timeout.
  bool Wait(const std::string& room, int n, absl::Duration timeout = kPatience) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, absl::ToChronoMilliseconds(timeout),
                        [&] { return woken_[room] >= n; });
  }
  bool WaitResyncs(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, absl::ToChronoMilliseconds(kPatience), [&] { return resyncs_ >= n; });
  }
  int woken(const std::string& room) {
    std::lock_guard<std::mutex> lock(mu_);
    return woken_[room];
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, int> woken_;
  int resyncs_ = 0;
};

// The listener is up once a NOTIFY sent by someone else reaches it (the probe room's
// wake-ups are not counted by the tests).
void AwaitListening(const std::string& url, Recorder* r) {
  ASSERT_TRUE(r->WaitResyncs(1)) << "the listener never connected";
  auto conn = pg::Connect(url);
  ASSERT_TRUE(conn.ok()) << conn.status();
  for (int i = 1; i <= 200; ++i) {
    pqxx::nontransaction(**conn).exec_params("SELECT pg_notify($1, $2)", std::string(kChannel),
                                             std::string("probe"));
    if (r->Wait("probe", 1, absl::Milliseconds(50))) return;
  }
  FAIL() << "the listener never heard a notification";
}

TEST_F(HubTest, PublishWakesLocalFeedsAtOnceAndOtherReplicasByNotify) {
  Recorder ra, rb;
  Hub a(url_, "replica-a", &ra), b(url_, "replica-b", &rb);
  a.Start();
  b.Start();
  AwaitListening(url_, &rb);
  AwaitListening(url_, &ra);
  ASSERT_FALSE(HasFailure());

  a.Publish("room-1");
  EXPECT_EQ(ra.woken("room-1"), 1) << "the publishing replica's own feed, at once";
  EXPECT_TRUE(rb.Wait("room-1", 1)) << "the other replica's feed";
  // A's own notification comes back to A's listener and is ignored: no second wake-up.
  absl::SleepFor(absl::Milliseconds(300));
  EXPECT_EQ(ra.woken("room-1"), 1);
  EXPECT_EQ(rb.woken("room-2"), 0) << "only the room published is woken";
  a.Stop();
  b.Stop();
}

TEST_F(HubTest, RoomsOfOneBatchAllArrive) {
  Recorder ra, rb;
  Hub a(url_, "replica-a", &ra), b(url_, "replica-b", &rb);
  a.Start();
  b.Start();
  AwaitListening(url_, &rb);
  ASSERT_FALSE(HasFailure());
  for (int i = 0; i < 50; ++i) a.Publish("room-" + std::to_string(i));
  for (int i = 0; i < 50; ++i) EXPECT_TRUE(rb.Wait("room-" + std::to_string(i), 1)) << i;
  a.Stop();
  b.Stop();
}

TEST_F(HubTest, ABrokenListenConnectionIsReopenedAndResyncs) {
  Recorder r;
  Hub h(url_, "replica-kill", &r);
  h.Start();
  AwaitListening(url_, &r);
  ASSERT_FALSE(HasFailure());
  auto conn = pg::Connect(url_);
  ASSERT_TRUE(conn.ok()) << conn.status();
  pqxx::result killed = pqxx::nontransaction(**conn).exec_params(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
      absl::StrCat(kListenerName, ":replica-kill"));
  ASSERT_GE(killed.size(), 1u) << "the listener's connection is found by its application_name";
  EXPECT_TRUE(r.WaitResyncs(2)) << "a new LISTEN and a resync after the connection broke";
  EXPECT_GE(h.listens(), 2);
  h.Stop();
}

TEST_F(HubTest, AppendEventsNotesTheRoomForItsCallerAndNeverNotifies) {
  auto conn = pg::Connect(url_);
  ASSERT_TRUE(conn.ok()) << conn.status();
  // AppendEvents only needs the room's seq and the events table: a scratch schema.
  pqxx::nontransaction(**conn).exec(
      "CREATE SCHEMA IF NOT EXISTS hub_test; SET search_path = hub_test; "
      "DROP TABLE IF EXISTS rooms, events; "
      "CREATE TABLE rooms (id text PRIMARY KEY, seq bigint NOT NULL DEFAULT 0); "
      "CREATE TABLE events (room_id text, seq bigint, body bytea, PRIMARY KEY (room_id, seq)); "
      "INSERT INTO rooms (id) VALUES ('r1'), ('r2')");
  pqxx::nontransaction(**conn).exec("LISTEN tablero_matchmaking_events");
  {
    ToPublish to_publish;
    pqxx::work w(**conn);
    std::vector<v1::RoomEvent> ev(2);
    auto seq = AppendEvents(w, "r1", &ev, &to_publish);
    ASSERT_TRUE(seq.ok()) << seq.status();
    EXPECT_EQ(*seq, 2);
    std::vector<v1::RoomEvent> more(1);
    ASSERT_TRUE(AppendEvents(w, "r1", &more, &to_publish).ok());
    EXPECT_EQ(more[0].seq(), 3) << "numbered after the first append, in the same transaction";
    w.commit();
    EXPECT_EQ(to_publish.rooms(), std::vector<std::string>{"r1"}) << "a room is noted once";
  }
  {
    pqxx::work w(**conn);
    std::vector<v1::RoomEvent> ev(1);
    auto seq = AppendEvents(w, "r2", &ev, /*to_publish=*/nullptr);
    ASSERT_TRUE(seq.ok()) << seq.status();
    EXPECT_EQ(*seq, 1);
    w.commit();
  }
  EXPECT_EQ((*conn)->await_notification(1, 0), 0)
      << "no NOTIFY from a transaction: its owner publishes after the commit";
  pqxx::nontransaction(**conn).exec("DROP SCHEMA hub_test CASCADE");
}

}  // namespace
}  // namespace tablero::matchmaking
