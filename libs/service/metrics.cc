#include "libs/service/metrics.h"

#include <chrono>

#include "absl/strings/string_view.h"

namespace tablero::service {
namespace {

using grpc::experimental::InterceptionHookPoints;

// Latency buckets in seconds: 100 us .. 30 s, enough for a move commit and a bot think.
const prometheus::Histogram::BucketBoundaries& Buckets() {
  static const auto* b = new prometheus::Histogram::BucketBoundaries{
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
      0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30};
  return *b;
}

class MetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(RpcMetrics* metrics, std::string method)
      : metrics_(metrics), method_(std::move(method)), start_(std::chrono::steady_clock::now()) {
    metrics_->Started(method_);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      grpc::Status s = methods->GetSendStatus();
      double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      metrics_->Handled(method_, s.error_code(), secs);
    }
    methods->Proceed();
  }

 private:
  RpcMetrics* metrics_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

const char* StatusCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN";
  }
}

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
  std::lock_guard<std::mutex> lock(mu_);
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
    std::lock_guard<std::mutex> lock(mu_);
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

grpc::experimental::Interceptor* MetricsInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  return new MetricsInterceptor(metrics_, info->method());
}

}  // namespace tablero::service
