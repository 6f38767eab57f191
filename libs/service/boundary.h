// What every call crosses on its way in and out of a service, in one server interceptor
// so that no handler has to remember it:
// - metrics (metrics.h), labelled by method only for methods this server registered;
//   any other path counts as grpc_service="other", grpc_method="other", so made-up
//   method names cannot create series;
// - the request id (request_id.h): `x-request-id` when fit, else a new one, stored back
//   into the call's metadata for the handler;
// - malformed requests: bytes that do not parse as the method's request message (or
//   carry invalid UTF-8 in a string field) answer INVALID_ARGUMENT naming the message,
//   whatever the handler kind (sync, callback unary or streaming: gRPC itself answers
//   INTERNAL or UNIMPLEMENTED there);
// - error hygiene: a server error's message (status.h IsServerError) is replaced by
//   PublicMessage with the request id (and its details dropped), and the original goes
//   to the log; a client error passes as the handler answered, details (ErrorInfo) too;
// - one logfmt line per failed call: method, code, request id, duration, client address
//   (client_address.h; server errors at warn/error, client errors at debug);
// - health checks held until the server has set its readiness: gRPC's default health
//   service answers SERVING for the whole server ("") from the moment the port is bound,
//   before Server::Start can set NOT_SERVING, so a probe in that gap would send traffic to
//   a replica whose database is not migrated yet.
#ifndef TABLERO_LIBS_SERVICE_BOUNDARY_H_
#define TABLERO_LIBS_SERVICE_BOUNDARY_H_

#include <grpcpp/support/server_interceptor.h>

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/notification.h"
#include "libs/service/metrics.h"

namespace tablero::service {

// The methods a server registered: full path ("/pkg.Service/Method") -> full name of its
// request message ("" when unknown to the generated descriptor pool).
class MethodTable {
 public:
  // Every method of the named services, from the generated descriptor pool, plus gRPC's
  // health and reflection services.
  static MethodTable ForServices(const std::vector<std::string>& full_service_names);

  bool Known(const std::string& path) const { return input_.contains(path); }
  const std::string& InputType(const std::string& path) const;

 private:
  absl::flat_hash_map<std::string, std::string> input_;
};

inline constexpr char kOtherMethod[] = "/other/other";

// Creates one boundary interceptor per call. `methods`, `metrics`, `health_gate` and
// `draining` outlive the server. A call to grpc.health.v1.Health waits, before its handler
// runs, until `health_gate` is notified (once the server has set its first readiness).
// Once `draining` is notified (the server shuts down), a server error's public message
// says so (PublicMessage).
class BoundaryInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  BoundaryInterceptorFactory(const MethodTable* methods, RpcMetrics* metrics,
                             const absl::Notification* health_gate,
                             const absl::Notification* draining)
      : methods_(methods), metrics_(metrics), health_gate_(health_gate), draining_(draining) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  const MethodTable* methods_;
  RpcMetrics* metrics_;
  const absl::Notification* health_gate_;
  const absl::Notification* draining_;
};

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_BOUNDARY_H_
