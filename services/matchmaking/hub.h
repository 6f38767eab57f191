// Fan-out of room events to the Watch streams of this replica. Every commit that appends
// events sends NOTIFY on one channel with the room id; each replica LISTENs with one
// dedicated connection and wakes the local watchers of that room, who then read the new
// rows from the events table by seq. The database stays the only source of events, so a
// lost notification delays a watcher (it also polls) but never loses or reorders events.
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
#include "absl/time/time.h"

namespace tablero::matchmaking {

inline constexpr char kChannel[] = "tablero_matchmaking_events";

class Hub {
 public:
  explicit Hub(std::string url) : url_(std::move(url)) {}
  ~Hub() { Stop(); }

  void Start();
  void Stop();

  // A watcher's handle on one room: Wait returns when the room may have new events.
  class Sub {
   public:
    ~Sub();
    // Waits until something happened in the room since the last Wait, or `timeout`.
    void Wait(absl::Duration timeout);

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
  // Wakes every watcher (after the listener reconnects, or on shutdown).
  void PokeAll();

 private:
  void Run();
  std::string url_;
  std::mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<Sub::Entry>> rooms_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

struct Hub::Sub::Entry {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t version = 0;
  int watchers = 0;
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_HUB_H_
