// Per-method RPC metrics, recorded by the boundary interceptor (boundary.h) so that no
// handler has to remember to do it. Names follow the common grpc-prometheus conventions so that
// stock dashboards work:
//   grpc_server_started_total{grpc_service, grpc_method}
//   grpc_server_handled_total{grpc_service, grpc_method, grpc_code}
//   grpc_server_handling_seconds{grpc_service, grpc_method}   (histogram)
#ifndef TABLERO_LIBS_SERVICE_METRICS_H_
#define TABLERO_LIBS_SERVICE_METRICS_H_

#include <grpcpp/support/status.h>
#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"

namespace tablero::service {

class RpcMetrics {
 public:
  explicit RpcMetrics(prometheus::Registry& registry);

  // Called by the interceptor. `full_method` is "/pkg.Service/Method" (kOtherMethod for a
  // path the server did not register).
  void Started(const std::string& full_method);
  void Handled(const std::string& full_method, grpc::StatusCode code, double seconds);

 private:
  struct PerMethod {
    prometheus::Counter* started;
    prometheus::Histogram* latency;
    std::string service, method;
    // By status code; guarded by RpcMetrics::mu_ (the other fields are set once, under it,
    // before the entry is handed out).
    absl::flat_hash_map<int, prometheus::Counter*> handled;
  };
  PerMethod& Get(const std::string& full_method);

  prometheus::Family<prometheus::Counter>& started_;
  prometheus::Family<prometheus::Counter>& handled_;
  prometheus::Family<prometheus::Histogram>& latency_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<PerMethod>> methods_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_METRICS_H_
