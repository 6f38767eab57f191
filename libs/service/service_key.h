// Service credentials for internal methods (those only other tablero services call, e.g.
// Rating.ReportGame): a shared secret from the environment (--service_key,
// TABLERO_SERVICE_KEY), sent by the caller as metadata `x-tablero-service-key` and
// compared in constant time (of SHA-256 digests, so neither content nor length leaks).
// A server without a key refuses every internal call: a forgotten setting fails closed.
#ifndef TABLERO_LIBS_SERVICE_SERVICE_KEY_H_
#define TABLERO_LIBS_SERVICE_SERVICE_KEY_H_

#include <grpcpp/client_context.h>
#include <grpcpp/server_context.h>

#include <string>

#include "absl/flags/declare.h"
#include "absl/status/status.h"

ABSL_DECLARE_FLAG(std::string, service_key);

namespace tablero::service {

inline constexpr char kServiceKeyHeader[] = "x-tablero-service-key";

// OK when the call carries this process's --service_key; UNAUTHENTICATED otherwise.
absl::Status CheckServiceKey(const grpc::ServerContextBase& ctx);
// Adds --service_key (when set) to an outgoing call.
void AddServiceKey(grpc::ClientContext* ctx);

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_SERVICE_KEY_H_
