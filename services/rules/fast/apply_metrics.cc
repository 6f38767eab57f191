#include "services/rules/fast/apply_metrics.h"

#include <limits>
#include <string>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "libs/games/games.h"

namespace tablero::rules::fast {
namespace {

std::atomic<uint64_t> next_id{1};

// The calling thread's shard of the ApplyMetrics it used last.
struct Cached {
  uint64_t owner = 0;
  void* shard = nullptr;
};
thread_local Cached cached;

}  // namespace

ApplyMetrics::ApplyMetrics() : id_(next_id.fetch_add(1)) {}

ApplyMetrics::~ApplyMetrics() = default;

ApplyMetrics::Shard& ApplyMetrics::Mine() {
  if (ABSL_PREDICT_TRUE(cached.owner == id_)) return *static_cast<Shard*>(cached.shard);
  return Register();
}

ABSL_ATTRIBUTE_NOINLINE ApplyMetrics::Shard& ApplyMetrics::Register() {
  absl::MutexLock lock(&mu_);
  std::unique_ptr<Shard>& s = shards_[std::this_thread::get_id()];
  if (s == nullptr) s = std::make_unique<Shard>();
  cached = {id_, s.get()};
  return *s;
}

void ApplyMetrics::Observe(game::Kind kind, double seconds) {
  PerKind& k = Mine().kind[Index(kind)];
  size_t b = 0;
  while (b < kBounds.size() && seconds > kBounds[b]) ++b;  // `le`: a bound holds its value
  Add(&k.buckets[b], uint64_t{1});
  Add(&k.sum, seconds);
}

std::vector<prometheus::MetricFamily> ApplyMetrics::Collect() const {
  using prometheus::ClientMetric;
  using prometheus::MetricFamily;
  using prometheus::MetricType;
  std::vector<MetricFamily> out(3);
  out[0] = {"tablero_rules_moves_total",
            "Moves applied by the rules service, by game kind",
            MetricType::Counter,
            {}};
  out[1] = {"tablero_rules_illegal_moves_total",
            "Moves refused as malformed or illegal (or after the end), by kind",
            MetricType::Counter,
            {}};
  out[2] = {"tablero_rules_apply_seconds",
            "ApplyMove handling time (decode, play, encode, view), by kind",
            MetricType::Histogram,
            {}};
  absl::MutexLock lock(&mu_);
  for (const game::GameInfo* info : games::AllGames()) {
    const size_t i = Index(info->kind);
    uint64_t moves = 0, illegal = 0;
    std::array<uint64_t, kBounds.size() + 1> buckets{};
    double sum = 0;
    for (const auto& [thread, shard] : shards_) {
      const PerKind& k = shard->kind[i];
      moves += k.moves.load(std::memory_order_relaxed);
      illegal += k.illegal.load(std::memory_order_relaxed);
      for (size_t b = 0; b < buckets.size(); ++b) {
        buckets[b] += k.buckets[b].load(std::memory_order_relaxed);
      }
      sum += k.sum.load(std::memory_order_relaxed);
    }
    const std::vector<ClientMetric::Label> labels = {
        {"kind", std::string(game::KindName(info->kind))}};
    ClientMetric m;
    m.label = labels;
    m.counter.value = static_cast<double>(moves);
    out[0].metric.push_back(m);
    m.counter.value = static_cast<double>(illegal);
    out[1].metric.push_back(m);
    ClientMetric h;
    h.label = labels;
    uint64_t running = 0;
    for (size_t b = 0; b < buckets.size(); ++b) {
      running += buckets[b];
      const double bound =
          b < kBounds.size() ? kBounds[b] : std::numeric_limits<double>::infinity();
      h.histogram.bucket.push_back({running, bound});
    }
    h.histogram.sample_count = running;
    h.histogram.sample_sum = sum;
    out[2].metric.push_back(std::move(h));
  }
  uint64_t hits = 0, misses = 0;
  for (const auto& [thread, shard] : shards_) {
    hits += shard->cache_hits.load(std::memory_order_relaxed);
    misses += shard->cache_misses.load(std::memory_order_relaxed);
  }
  MetricFamily cache{"tablero_rules_state_cache_total",
                     "State lookups in the decoded-state cache (a miss decodes)",
                     MetricType::Counter,
                     {}};
  for (const auto& [result, n] : {std::pair{"hit", hits}, std::pair{"miss", misses}}) {
    ClientMetric m;
    m.label = {{"result", result}};
    m.counter.value = static_cast<double>(n);
    cache.metric.push_back(std::move(m));
  }
  out.push_back(std::move(cache));
  return out;
}

}  // namespace tablero::rules::fast
