// The rules service's hot-path metrics (moves applied, moves refused and ApplyMove latency
// by kind; decoded-state cache hits and misses), counted per thread and summed when
// Prometheus scrapes them.
//
// Why not prometheus-cpp's Counter and Histogram: on the hot path each apply paid a
// compare-and-swap loop per counter and a mutex per histogram observation, ~18 code lines
// and ~15 data lines that miss in a server's cold caches (fast_path.h).
// Here a call adds to its own thread's shard with plain stores; Collect() adds the shards.
#ifndef TABLERO_SERVICES_RULES_FAST_APPLY_METRICS_H_
#define TABLERO_SERVICES_RULES_FAST_APPLY_METRICS_H_

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "libs/game/game.h"

namespace tablero::rules::fast {

class ApplyMetrics final : public prometheus::Collectable {
 public:
  // Upper bounds in seconds, microseconds to a second: an apply is tens of microseconds;
  // a slow one is a bug.
  static constexpr std::array<double, 14> kBounds = {0.00001, 0.000025, 0.00005, 0.0001, 0.00025,
                                                     0.0005,  0.001,    0.0025,  0.005,  0.01,
                                                     0.025,   0.05,     0.1,     1};

  ApplyMetrics();
  ~ApplyMetrics() override;
  ApplyMetrics(const ApplyMetrics&) = delete;
  ApplyMetrics& operator=(const ApplyMetrics&) = delete;

  // Kinds out of range are ignored.
  void Moved(game::Kind kind) { Add(&Mine().kind[Index(kind)].moves, uint64_t{1}); }
  void Refused(game::Kind kind) { Add(&Mine().kind[Index(kind)].illegal, uint64_t{1}); }
  void Observe(game::Kind kind, double seconds);
  void CacheHit() { Add(&Mine().cache_hits, uint64_t{1}); }
  void CacheMiss() { Add(&Mine().cache_misses, uint64_t{1}); }

  // tablero_rules_moves_total, tablero_rules_illegal_moves_total (counters) and
  // tablero_rules_apply_seconds (histogram), each by `kind`, for every game kind; and
  // tablero_rules_state_cache_total by `result` (hit, miss).
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  static constexpr size_t kKinds = 4;  // indexed by game::Kind; 0 takes what is out of range
  struct PerKind {
    std::atomic<uint64_t> moves{0}, illegal{0};
    std::array<std::atomic<uint64_t>, kBounds.size() + 1> buckets{};  // the last is +Inf
    std::atomic<double> sum{0};
  };
  // Written by one thread only, read by Collect().
  struct alignas(64) Shard {
    std::array<PerKind, kKinds> kind;
    std::atomic<uint64_t> cache_hits{0}, cache_misses{0};
  };
  static size_t Index(game::Kind kind) {
    const auto i = static_cast<size_t>(kind);
    return i < kKinds ? i : 0;
  }
  // One writer: a load and a store, no read-modify-write.
  template <typename T>
  static void Add(std::atomic<T>* a, T v) {
    a->store(a->load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
  }
  Shard& Mine();
  Shard& Register();

  const uint64_t id_;  // never reused, unlike an address
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::thread::id, std::unique_ptr<Shard>> shards_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tablero::rules::fast

#endif  // TABLERO_SERVICES_RULES_FAST_APPLY_METRICS_H_
