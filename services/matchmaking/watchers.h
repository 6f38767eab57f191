// The Watch streams of this replica: their limits (per player, per client address and
// in all), the heartbeat timer, the safety sweep and the end of every stream on drain.
// One timer thread does the periodic work for all streams: a heartbeat is written to each
// stream idle for the heartbeat interval, and every `sweep` the room feeds are checked
// against the database in one query (Feeds::CatchUp).
#ifndef TABLERO_SERVICES_MATCHMAKING_WATCHERS_H_
#define TABLERO_SERVICES_MATCHMAKING_WATCHERS_H_

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/matchmaking/feeds.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/watch_stream.h"

namespace tablero::matchmaking {

struct WatchLimits {
  int replica = 50000;     // streams open on this replica
  int per_player = 16;     // streams of one player (token) on this replica
  int per_address = 4096;  // streams from one client address on this replica
};

class Watchers {
 public:
  Watchers(WatchLimits limits, absl::Duration heartbeat, absl::Duration sweep, Feeds* feeds,
           Metrics* metrics);
  ~Watchers();

  void Start();
  void Stop();

  // Counts the stream in (RESOURCE_EXHAUSTED naming the limit it would pass). `player` is
  // empty for a stream without a token.
  absl::Status Admit(const std::shared_ptr<WatchStream>& s, const std::string& player,
                     const std::string& address);
  // Counts it out again (once, after an Admit that succeeded).
  void Remove(const WatchStream* s, const std::string& player, const std::string& address);
  // Ends every stream with `status` (the replica drains).
  void EndAll(const grpc::Status& status, WatchEnd reason);

  size_t size() const;
  // Players with at least one stream here.
  size_t players() const;

 private:
  void Run();
  const WatchLimits limits_;
  const absl::Duration heartbeat_, sweep_;
  Feeds* feeds_;
  Metrics* metrics_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<const WatchStream*, std::shared_ptr<WatchStream>> streams_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int> per_player_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int> per_address_ ABSL_GUARDED_BY(mu_);
  absl::Mutex stop_mu_;
  absl::CondVar stop_cv_;
  bool stop_ ABSL_GUARDED_BY(stop_mu_) = false;
  std::thread thread_;
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_WATCHERS_H_
