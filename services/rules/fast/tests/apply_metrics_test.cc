#include "services/rules/fast/apply_metrics.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

namespace tablero::rules::fast {
namespace {

using game::Kind;

const prometheus::ClientMetric& Of(const std::vector<prometheus::MetricFamily>& fams,
                                   const std::string& name, const std::string& kind) {
  for (const auto& f : fams) {
    if (f.name != name) continue;
    for (const auto& m : f.metric) {
      if (m.label.size() == 1 && m.label[0].name == "kind" && m.label[0].value == kind) return m;
    }
  }
  ADD_FAILURE() << name << "{kind=" << kind << "} missing";
  static const prometheus::ClientMetric none;
  return none;
}

TEST(ApplyMetrics, AddsTheShardsOfEveryThreadByKind) {
  ApplyMetrics m;
  auto work = [&m](int n) {
    for (int i = 0; i < n; ++i) m.Moved(Kind::kChess);
    m.Refused(Kind::kCheckers);
  };
  std::thread a(work, 1000), b(work, 500);
  a.join();
  b.join();
  m.Moved(Kind::kShogi4);
  const auto fams = m.Collect();
  EXPECT_EQ(Of(fams, "tablero_rules_moves_total", "chess").counter.value, 1500);
  EXPECT_EQ(Of(fams, "tablero_rules_moves_total", "shogi4").counter.value, 1);
  EXPECT_EQ(Of(fams, "tablero_rules_moves_total", "checkers").counter.value, 0);
  EXPECT_EQ(Of(fams, "tablero_rules_illegal_moves_total", "checkers").counter.value, 2);
  EXPECT_EQ(Of(fams, "tablero_rules_illegal_moves_total", "chess").counter.value, 0);
}

TEST(ApplyMetrics, HistogramBucketsAreCumulativeWithBoundsInclusive) {
  ApplyMetrics m;
  m.Observe(Kind::kChess, 0.00001);  // on the first bound: counted there ("le")
  m.Observe(Kind::kChess, 0.00002);
  m.Observe(Kind::kChess, 0.003);
  m.Observe(Kind::kChess, 5.0);  // past the last bound: +Inf only
  const auto fams = m.Collect();
  const auto& h = Of(fams, "tablero_rules_apply_seconds", "chess").histogram;
  ASSERT_EQ(h.bucket.size(), ApplyMetrics::kBounds.size() + 1);
  EXPECT_EQ(h.bucket[0].upper_bound, 0.00001);
  EXPECT_EQ(h.bucket[0].cumulative_count, 1u);
  EXPECT_EQ(h.bucket[1].cumulative_count, 2u);  // 25 us
  EXPECT_EQ(h.bucket[7].upper_bound, 0.0025);
  EXPECT_EQ(h.bucket[7].cumulative_count, 2u);
  EXPECT_EQ(h.bucket[8].cumulative_count, 3u);   // 5 ms
  EXPECT_EQ(h.bucket[13].cumulative_count, 3u);  // 1 s
  EXPECT_TRUE(std::isinf(h.bucket[14].upper_bound));
  EXPECT_EQ(h.bucket[14].cumulative_count, 4u);
  EXPECT_EQ(h.sample_count, 4u);
  EXPECT_DOUBLE_EQ(h.sample_sum, 0.00001 + 0.00002 + 0.003 + 5.0);
  // Prometheus' own text format takes it as a histogram.
  const std::string text = prometheus::TextSerializer().Serialize(m.Collect());
  EXPECT_NE(text.find("# TYPE tablero_rules_apply_seconds histogram"), std::string::npos);
  EXPECT_NE(text.find("tablero_rules_apply_seconds_count{kind=\"chess\"} 4"), std::string::npos);
}

TEST(ApplyMetrics, CountsCacheHitsAndMissesOfEveryThread) {
  ApplyMetrics m;
  auto work = [&m](int hits) {
    for (int i = 0; i < hits; ++i) m.CacheHit();
    m.CacheMiss();
  };
  std::thread a(work, 300), b(work, 200);
  a.join();
  b.join();
  double hit = -1, miss = -1;
  for (const auto& f : m.Collect()) {
    if (f.name != "tablero_rules_state_cache_total") continue;
    EXPECT_EQ(f.type, prometheus::MetricType::Counter);
    for (const auto& c : f.metric) {
      ASSERT_EQ(c.label.size(), 1u);
      (c.label[0].value == "hit" ? hit : miss) = c.counter.value;
    }
  }
  EXPECT_EQ(hit, 500);
  EXPECT_EQ(miss, 2);
}

TEST(ApplyMetrics, TwoInstancesOnOneThreadKeepTheirOwnCounts) {
  ApplyMetrics a, b;
  a.Moved(Kind::kChess);
  b.Moved(Kind::kChess);
  b.Moved(Kind::kChess);
  a.Moved(Kind::kChess);
  a.Moved(Kind::kChess);
  EXPECT_EQ(Of(a.Collect(), "tablero_rules_moves_total", "chess").counter.value, 3);
  EXPECT_EQ(Of(b.Collect(), "tablero_rules_moves_total", "chess").counter.value, 2);
  {
    ApplyMetrics gone;
    gone.Moved(Kind::kChess);
  }
  ApplyMetrics next;  // maybe at the same address: starts from zero all the same
  next.Moved(Kind::kShogi4);
  EXPECT_EQ(Of(next.Collect(), "tablero_rules_moves_total", "chess").counter.value, 0);
}

}  // namespace
}  // namespace tablero::rules::fast
