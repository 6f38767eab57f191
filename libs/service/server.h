// The start-up and shutdown every service shares (the route_guide shape, plus what an
// operator needs): gRPC server with health checking (NOT_SERVING until the service says it
// is ready, and again while draining), server reflection, per-method Prometheus metrics on
// a separate HTTP port, and graceful shutdown on SIGTERM/SIGINT.
//
//   int main(int argc, char** argv) {
//     tablero::service::ParseConfig(argc, argv, "...");
//     tablero::service::Server server("rules");
//     RulesService svc(...);
//     server.AddService(&svc, "tablero.v1.Rules");
//     if (auto s = server.Start(); !s.ok()) return 1;
//     server.SetReady(true);
//     return server.Wait();
//   }
#ifndef TABLERO_LIBS_SERVICE_SERVER_H_
#define TABLERO_LIBS_SERVICE_SERVER_H_

#include <grpcpp/grpcpp.h>
#include <prometheus/collectable.h>
#include <prometheus/registry.h>

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "libs/service/boundary.h"
#include "libs/service/metrics.h"
#include "libs/service/ops.h"

namespace prometheus {
class Exposer;
}

namespace tablero::service {

// Health service name that reports SERVING as long as the process runs (for liveness
// and startup probes); "" and each API service name report readiness: NOT_SERVING until
// the service says it is ready, while its database is unreachable (services with one) and
// while draining.
inline constexpr char kLivenessService[] = "liveness";

struct ServerOptions {
  std::string listen;          // from --listen
  std::string metrics_listen;  // from --metrics_listen; empty: no exposer
  absl::Duration drain;        // from --drain_seconds
  int max_message_bytes = 0;   // from --max_message_bytes
  int threads = 0;             // from --grpc_threads; 0 = gRPC's default
  int max_threads = 0;         // from --grpc_max_threads; 0 = no bound
  // From --grpc_max_connection_age_seconds and _grace_seconds; zero: gRPC's default
  // (connections live for ever).
  absl::Duration max_connection_age, max_connection_age_grace;
};
// Options from the shared flags.
ServerOptions OptionsFromFlags();

// A tag on one of the server's completion queues (Server::AddCompletionQueues): the
// queue's thread calls Proceed with the operation's outcome.
class AsyncTag {
 public:
  virtual void Proceed(bool ok) = 0;

 protected:
  ~AsyncTag() = default;
};

class Server {
 public:
  // `name` is the service's short name for logs ("rules", "matchmaking", ...). Blocks
  // SIGTERM/SIGINT in the calling thread, so construct it before starting other threads.
  explicit Server(std::string name, ServerOptions options = OptionsFromFlags());
  ~Server();

  void AddService(grpc::Service* service, std::string full_name);
  prometheus::Registry& registry() { return *registry_; }
  const std::shared_ptr<prometheus::Registry>& registry_ptr() { return registry_; }
  // Metrics a service keeps itself (outside the registry), served beside it. Before Start.
  void AddCollectable(std::shared_ptr<prometheus::Collectable> c) {
    collectables_.push_back(std::move(c));
  }

  // Before Start: `n` completion queues for a service's async methods, each drained by a
  // thread of its own that runs every tag it returns (an AsyncTag). Long-lived async
  // streams spread over them instead of sharing gRPC's one callback queue, whose every
  // operation costs time in proportion to the operations pending on it in Debian's build
  // (services/matchmaking/watch_stream.h).
  void AddCompletionQueues(int n) { queue_count_ = n; }
  // After Start: the queues to request calls on.
  std::vector<grpc::ServerCompletionQueue*> completion_queues() const;

  // Called once SIGTERM arrives, before the server stops accepting calls: services end
  // long-lived streams here so that the drain can finish.
  void OnDrain(std::function<void()> fn) { on_drain_.push_back(std::move(fn)); }

  // Binds and starts; every service reports NOT_SERVING until SetReady(true).
  absl::Status Start();
  int port() const { return port_; }
  // Readiness (ignored once draining has begun: a draining replica stays NOT_SERVING).
  void SetReady(bool ready);
  bool ready() const;

  // Waits for SIGTERM/SIGINT, then drains: NOT_SERVING, stream hooks, Shutdown with the
  // drain deadline (in-flight calls finish; later ones are cancelled), then the completion
  // queues. Returns 0.
  int Wait();

 private:
  std::string name_;
  ServerOptions options_;
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<RpcMetrics> metrics_;
  MethodTable methods_;  // with metrics_ and health_gate_, outlives server_ (the interceptors')
  // Notified once Start has set the first readiness: health checks wait for it
  // (boundary.h), so that none sees gRPC's initial SERVING.
  absl::Notification health_gate_;
  absl::Notification drain_started_;  // Wait got its signal (boundary.h: public messages)
  OpsService ops_;
  std::vector<std::shared_ptr<prometheus::Collectable>> collectables_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::vector<std::pair<grpc::Service*, std::string>> services_;
  std::vector<std::function<void()>> on_drain_;
  std::unique_ptr<grpc::Server> server_;
  int queue_count_ = 0;
  std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues_;
  std::vector<std::thread> queue_threads_;
  // Shuts the completion queues down (after the server) and joins their threads.
  void StopQueues();
  int port_ = 0;
  mutable absl::Mutex mu_;
  bool ready_ ABSL_GUARDED_BY(mu_) = false;
  bool draining_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_SERVER_H_
