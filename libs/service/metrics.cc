#include "libs/service/metrics.h"

#include "absl/strings/string_view.h"
#include "libs/service/status.h"

namespace tablero::service {
namespace {

// Latency buckets in seconds: 100 us .. 30 s, enough for a move commit and a bot think.
const prometheus::Histogram::BucketBoundaries& Buckets() {
  static const auto* b = new prometheus::Histogram::BucketBoundaries{
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
      0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30};
  return *b;
}

}  // namespace

RpcMetrics::RpcMetrics(prometheus::Registry& registry)
    : started_(prometheus::BuildCounter()
                   .Name("grpc_server_started_total")
                   .Help("RPCs started on the server, by method")
                   .Register(registry)),
      handled_(prometheus::BuildCounter()
                   .Name("grpc_server_handled_total")
                   .Help("RPCs completed on the server, by method and status code")
                   .Register(registry)),
      latency_(prometheus::BuildHistogram()
                   .Name("grpc_server_handling_seconds")
                   .Help("Time from the start of an RPC to its status, by method")
                   .Register(registry)) {}

RpcMetrics::PerMethod& RpcMetrics::Get(const std::string& full_method) {
  absl::MutexLock lock(&mu_);
  auto& slot = methods_[full_method];
  if (!slot) {
    slot = std::make_unique<PerMethod>();
    absl::string_view m = full_method;
    if (!m.empty() && m[0] == '/') m.remove_prefix(1);
    size_t slash = m.find('/');
    slot->service = std::string(m.substr(0, slash));
    slot->method = slash == absl::string_view::npos ? "" : std::string(m.substr(slash + 1));
    prometheus::Labels labels{{"grpc_service", slot->service}, {"grpc_method", slot->method}};
    slot->started = &started_.Add(labels);
    slot->latency = &latency_.Add(labels, Buckets());
  }
  return *slot;
}

void RpcMetrics::Started(const std::string& full_method) { Get(full_method).started->Increment(); }

void RpcMetrics::Handled(const std::string& full_method, grpc::StatusCode code, double seconds) {
  PerMethod& pm = Get(full_method);
  pm.latency->Observe(seconds);
  prometheus::Counter* c;
  {
    absl::MutexLock lock(&mu_);
    auto& slot = pm.handled[static_cast<int>(code)];
    if (slot == nullptr) {
      slot = &handled_.Add({{"grpc_service", pm.service},
                            {"grpc_method", pm.method},
                            {"grpc_code", StatusCodeName(code)}});
    }
    c = slot;
  }
  c->Increment();
}

}  // namespace tablero::service
