// Fan-out of room events to the Watch streams of this replica. After a commit that
// appended events, the replica wakes its own watchers of the room at once and NOTIFYs the
// others on one channel (payload "<replica>:<room>") from a dedicated connection; each
// replica LISTENs with another dedicated connection and wakes the local watchers of that
// room, who then read the new rows from the events table by seq. The database stays the
// only source of events, so a lost notification delays a watcher (it also polls) but never
// loses or reorders events.
//
// Why the NOTIFY is not in the committing transaction: Postgres serialises the commits of
// notifying transactions on one database-wide lock held through the commit's WAL flush, so
// every move waited for the previous move's fsync (pgbench -N with a pg_notify added: 950
// against 2,450 transactions/s here). The notifier's connection runs with
// synchronous_commit off and sends every room published since its last round trip in one
// statement: a notification is only a wake-up, and losing one to a crash costs a watcher
// one poll interval.
#ifndef TABLERO_SERVICES_MATCHMAKING_HUB_H_
#define TABLERO_SERVICES_MATCHMAKING_HUB_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"

namespace tablero::matchmaking {

inline constexpr char kChannel[] = "tablero_matchmaking_events";

class Hub {
 public:
  // `replica`: this process's id; notifications it sent itself are not acted on twice.
  Hub(std::string url, std::string replica) : url_(std::move(url)), replica_(std::move(replica)) {}
  ~Hub() { Stop(); }

  void Start();
  void Stop();

  // A watcher's handle on one room: Wait returns when the room may have new events.
  class Sub {
   public:
    ~Sub();
    // Waits until something happened in the room since the last Wait, or `timeout`;
    // false if it timed out.
    bool Wait(absl::Duration timeout);

   private:
    friend class Hub;
    struct Entry;
    Hub* hub_ = nullptr;
    std::shared_ptr<Entry> entry_;
    std::string room_;
    uint64_t seen_ = 0;
  };
  std::unique_ptr<Sub> Subscribe(const std::string& room);

  // Wakes the room's local watchers (notifications, or this replica's own commits).
  void Poke(const std::string& room);
  // After a commit that appended events to the room: wakes the local watchers now and
  // queues the room for the notifier (other replicas).
  void Publish(const std::string& room);
  // A notification's payload: wakes the room unless this replica sent it.
  void OnNotify(const std::string& payload);
  // Wakes every watcher (after the listener reconnects, or on shutdown).
  void PokeAll();

 private:
  void Run();
  void RunNotifier();
  std::string url_, replica_;
  std::mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<Sub::Entry>> rooms_;
  std::atomic<bool> stop_{false};
  std::thread thread_, notifier_;

  std::mutex pub_mu_;
  std::condition_variable pub_cv_;
  absl::flat_hash_set<std::string> published_;  // rooms waiting for the notifier
};

struct Hub::Sub::Entry {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t version = 0;
  int watchers = 0;
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_HUB_H_
