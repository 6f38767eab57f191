// The event fan-out between replicas (services/matchmaking/hub.h) against a real
// PostgreSQL: a commit's room is published after the transaction, to this replica's
// watchers at once and to the other replicas by NOTIFY from the notifier connection.
#include "services/matchmaking/hub.h"

#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "libs/pg/pool.h"
#include "services/matchmaking/room_store.h"
#include "tests/support/process.h"

namespace tablero::matchmaking {
namespace {

class HubTest : public ::testing::Test {
 protected:
  void SetUp() override {
    url_ = tablero::testing::TestDatabaseUrl();
    if (url_.empty()) GTEST_SKIP() << "TABLERO_TEST_DATABASE_URL is not set";
  }
  std::string url_;
};

// Long enough never to be reached by a working fan-out, so a false Wait is a lost wake-up.
constexpr absl::Duration kPatience = absl::Seconds(20);

// The listener is up once a NOTIFY sent by someone else reaches the subscriber.
void AwaitListening(const std::string& url, Hub::Sub* sub, const std::string& room) {
  auto conn = pg::Connect(url);
  ASSERT_TRUE(conn.ok()) << conn.status();
  for (int i = 0; i < 200; ++i) {
    pqxx::nontransaction(**conn).exec_params("SELECT pg_notify($1, $2)", std::string(kChannel),
                                             room);
    if (sub->Wait(absl::Milliseconds(50))) return;
  }
  FAIL() << "the listener never heard a notification";
}

// Lets the probe notifications still in flight arrive, so later Waits see only the test's.
void Settle(std::initializer_list<Hub::Sub*> subs) {
  for (Hub::Sub* s : subs) {
    while (s->Wait(absl::Milliseconds(300))) {
    }
  }
}

TEST_F(HubTest, PublishWakesLocalWatchersAtOnceAndOtherReplicasByNotify) {
  Hub a(url_, "replica-a"), b(url_, "replica-b");
  a.Start();
  b.Start();
  auto on_a = a.Subscribe("room-1");
  auto on_b = b.Subscribe("room-1");
  auto other_room = b.Subscribe("room-2");
  AwaitListening(url_, on_b.get(), "room-1");
  AwaitListening(url_, on_a.get(), "room-1");
  ASSERT_FALSE(HasFailure());
  Settle({on_a.get(), on_b.get(),
          other_room.get()});  // incl. the wake-up of every room when a listener connects

  a.Publish("room-1");
  EXPECT_TRUE(on_a->Wait(kPatience)) << "the publishing replica's own watcher";
  EXPECT_TRUE(on_b->Wait(kPatience)) << "the other replica's watcher";
  // Only the room published is woken.
  EXPECT_FALSE(other_room->Wait(absl::Milliseconds(300)));
  // A's own notification comes back to A's listener and is ignored: no second wake-up.
  EXPECT_FALSE(on_a->Wait(absl::Milliseconds(300)));
  a.Stop();
  b.Stop();
}

TEST_F(HubTest, RoomsOfOneBatchAllArrive) {
  Hub a(url_, "replica-a"), b(url_, "replica-b");
  a.Start();
  b.Start();
  std::vector<std::unique_ptr<Hub::Sub>> subs;
  for (int i = 0; i < 50; ++i) subs.push_back(b.Subscribe("room-" + std::to_string(i)));
  AwaitListening(url_, subs[0].get(), "room-0");
  ASSERT_FALSE(HasFailure());
  Settle({subs[0].get()});
  for (int i = 0; i < 50; ++i) a.Publish("room-" + std::to_string(i));
  for (int i = 0; i < 50; ++i) EXPECT_TRUE(subs[i]->Wait(kPatience)) << "room-" << i;
  a.Stop();
  b.Stop();
}

TEST_F(HubTest, AppendEventsNotesTheRoomInsideAScopeAndNotifiesItselfOutside) {
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
    EventsScope scope;
    pqxx::work w(**conn);
    std::vector<v1::RoomEvent> ev(2);
    auto seq = AppendEvents(w, "r1", &ev);
    ASSERT_TRUE(seq.ok()) << seq.status();
    EXPECT_EQ(*seq, 2);
    w.commit();
    EXPECT_EQ(scope.rooms(), std::vector<std::string>{"r1"});
  }
  EXPECT_EQ((*conn)->get_notifs(), 0) << "no NOTIFY inside a scope's transaction";
  {
    pqxx::work w(**conn);
    std::vector<v1::RoomEvent> ev(1);
    auto seq = AppendEvents(w, "r2", &ev);
    ASSERT_TRUE(seq.ok()) << seq.status();
    EXPECT_EQ(*seq, 1);
    w.commit();
  }
  EXPECT_EQ((*conn)->await_notification(5, 0), 1) << "without a scope the transaction NOTIFYs";
  pqxx::nontransaction(**conn).exec("DROP SCHEMA hub_test CASCADE");
}

}  // namespace
}  // namespace tablero::matchmaking
