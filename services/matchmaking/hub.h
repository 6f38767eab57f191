// The wake-ups between replicas. After a commit that appended events to a room, the
// replica wakes its own feed of the room at once (Listener::OnRoom) and NOTIFYs the other
// replicas on one channel (payload "<replica>:<room>") from a dedicated connection; each
// replica LISTENs on another dedicated connection and wakes its feed of that room. A
// notification carries no event: the events table stays the only source, so a lost
// notification can delay an event but never lose or reorder one. When the LISTEN
// connection breaks, notifications sent meanwhile are lost: once listening again the hub
// calls Listener::OnResync, and the feeds catch every subscribed room up in one query.
//
// Why the NOTIFY is not in the committing transaction: Postgres serialises the commits of
// notifying transactions on one database-wide lock held through the commit's WAL flush, so
// every move waited for the previous move's fsync (pgbench -N with a pg_notify added: 950
// against 2,450 transactions/s here). The notifier's connection runs with
// synchronous_commit off and sends every room published since its last round trip in one
// statement: a notification is only a wake-up, and losing one to a crash costs the other
// replicas' watchers one safety sweep.
#ifndef TABLERO_SERVICES_MATCHMAKING_HUB_H_
#define TABLERO_SERVICES_MATCHMAKING_HUB_H_

#include <atomic>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "tablero/v1/matchmaking.pb.h"

namespace tablero::matchmaking {

namespace v1 = ::tablero::v1;

inline constexpr char kChannel[] = "tablero_matchmaking_events";
// The application_name of the LISTEN connection is this, ":" and the replica's id
// (operators and tests find it by that).
inline constexpr char kListenerName[] = "tablero-matchmaking-listen";

class Hub {
 public:
  // What the hub wakes. Called from the hub's threads; must not block.
  class Listener {
   public:
    virtual ~Listener() = default;
    // The room may have new events.
    virtual void OnRoom(const std::string& room) = 0;
    // This replica just committed `events` to the room (numbered, in seq order, each the
    // message whose serialization was stored). By default the same as OnRoom.
    virtual void OnCommitted(const std::string& room, absl::Span<const v1::RoomEvent> /*events*/) {
      OnRoom(room);
    }
    // Notifications may have been lost (the LISTEN connection was down): any room may
    // have new events.
    virtual void OnResync() = 0;
  };

  // `replica`: this process's id; notifications it sent itself are not acted on twice.
  Hub(std::string url, std::string replica, Listener* listener)
      : url_(std::move(url)), replica_(std::move(replica)), listener_(listener) {}
  ~Hub() { Stop(); }

  void Start();
  void Stop();

  // After a commit that appended events to the room: wakes this replica's feed of it now
  // and queues the room for the notifier (other replicas).
  void Publish(const std::string& room);
  // The same, for a commit whose appended events are at hand (Listener::OnCommitted).
  void Publish(const std::string& room, absl::Span<const v1::RoomEvent> events);
  // A notification's payload: wakes the room unless this replica sent it.
  void OnNotify(const std::string& payload);
  // Times the LISTEN connection was (re)established.
  int64_t listens() const { return listens_; }

 private:
  void Run();
  void RunNotifier();
  // Queues the room for the notifier.
  void Notify(const std::string& room);
  std::string url_, replica_;
  Listener* listener_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> listens_{0};
  std::thread thread_, notifier_;

  absl::Mutex pub_mu_;
  absl::CondVar pub_cv_;
  absl::flat_hash_set<std::string> published_ ABSL_GUARDED_BY(pub_mu_);  // for the notifier
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_HUB_H_
