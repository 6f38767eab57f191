// Per-method RPC metrics, recorded by a server interceptor so that no handler has to
// remember to do it. Names follow the common grpc-prometheus conventions so that stock
// dashboards work:
//   grpc_server_started_total{grpc_service, grpc_method}
//   grpc_server_handled_total{grpc_service, grpc_method, grpc_code}
//   grpc_server_handling_seconds{grpc_service, grpc_method}   (histogram)
#ifndef TABLERO_LIBS_SERVICE_METRICS_H_
#define TABLERO_LIBS_SERVICE_METRICS_H_

#include <grpcpp/support/server_interceptor.h>
#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"

namespace tablero::service {

class RpcMetrics {
 public:
  explicit RpcMetrics(prometheus::Registry& registry);

  // Called by the interceptor. `full_method` is "/pkg.Service/Method".
  void Started(const std::string& full_method);
  void Handled(const std::string& full_method, grpc::StatusCode code, double seconds);

 private:
  struct PerMethod {
    prometheus::Counter* started;
    prometheus::Histogram* latency;
    std::string service, method;
    absl::flat_hash_map<int, prometheus::Counter*> handled;  // by status code
  };
  PerMethod& Get(const std::string& full_method);

  prometheus::Family<prometheus::Counter>& started_;
  prometheus::Family<prometheus::Counter>& handled_;
  prometheus::Family<prometheus::Histogram>& latency_;
  std::mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<PerMethod>> methods_;
};

// Creates one metrics interceptor per call.
class MetricsInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit MetricsInterceptorFactory(RpcMetrics* metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  RpcMetrics* metrics_;
};

// grpc::StatusCode -> "OK", "INVALID_ARGUMENT", ...
const char* StatusCodeName(grpc::StatusCode code);

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_METRICS_H_
