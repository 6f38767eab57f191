// Counts events per key in fixed windows (e.g. unknown invite codes per player per minute,
// guests created per client address per minute). A key's count starts with its first
// event and is forgotten once its window has passed. Memory is bounded: at `max_keys`
// keys every count is forgotten at once (filling the table resets everyone's counts; it
// never refuses anyone).
#ifndef TABLERO_LIBS_SERVICE_RATE_LIMIT_H_
#define TABLERO_LIBS_SERVICE_RATE_LIMIT_H_

#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace tablero::service {

class WindowCounter {
 public:
  explicit WindowCounter(absl::Duration window = absl::Minutes(1), size_t max_keys = 100000)
      : window_(window), max_keys_(max_keys) {}

  // True while `key` has counted fewer than `limit` events in its window (limit <= 0:
  // no limit).
  bool Below(absl::string_view key, int limit, absl::Time now = absl::Now());
  // Counts one event for `key`.
  void Add(absl::string_view key, absl::Time now = absl::Now());
  // Below, then Add when it was: one event taken if the limit allows it.
  bool Take(absl::string_view key, int limit, absl::Time now = absl::Now());

 private:
  struct Window {
    absl::Time start;
    int count = 0;
  };
  bool BelowLocked(absl::string_view key, int limit, absl::Time now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void AddLocked(absl::string_view key, absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const absl::Duration window_;
  const size_t max_keys_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Window> windows_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_RATE_LIMIT_H_
