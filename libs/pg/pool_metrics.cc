#include "libs/pg/pool_metrics.h"

#include <prometheus/metric_family.h>

#include <string>
#include <vector>

namespace tablero::pg {
namespace {

prometheus::MetricFamily Family(std::string name, std::string help, prometheus::MetricType type) {
  prometheus::MetricFamily f;
  f.name = std::move(name);
  f.help = std::move(help);
  f.type = type;
  return f;
}

void Add(prometheus::MetricFamily* f, double value,
         std::vector<prometheus::ClientMetric::Label> labels = {}) {
  prometheus::ClientMetric m;
  m.label = std::move(labels);
  if (f->type == prometheus::MetricType::Counter) {
    m.counter.value = value;
  } else {
    m.gauge.value = value;
  }
  f->metric.push_back(std::move(m));
}

class Collector : public prometheus::Collectable {
 public:
  explicit Collector(const Pool* pool) : pool_(pool) {}
  std::vector<prometheus::MetricFamily> Collect() const override {
    const Pool::Stats s = pool_->stats();
    using T = prometheus::MetricType;
    auto conns = Family("tablero_db_pool_connections", "Database connections, by state", T::Gauge);
    Add(&conns, s.in_use, {{"state", "in_use"}});
    Add(&conns, s.open - s.in_use, {{"state", "idle"}});
    auto size =
        Family("tablero_db_pool_size", "Most database connections the pool opens", T::Gauge);
    Add(&size, s.size);
    auto waits = Family("tablero_db_pool_waits_total",
                        "Connection acquisitions that found every connection busy", T::Counter);
    Add(&waits, static_cast<double>(s.waits));
    auto wait_s = Family("tablero_db_pool_wait_seconds_total",
                         "Time acquisitions spent waiting for a free connection", T::Counter);
    Add(&wait_s, s.wait_seconds);
    auto timeouts = Family("tablero_db_pool_timeouts_total",
                           "Waits for a free connection that gave up", T::Counter);
    Add(&timeouts, static_cast<double>(s.timeouts));
    return {conns, size, waits, wait_s, timeouts};
  }

 private:
  const Pool* pool_;
};

}  // namespace

std::shared_ptr<prometheus::Collectable> PoolMetrics(const Pool* pool) {
  return std::make_shared<Collector>(pool);
}

}  // namespace tablero::pg
