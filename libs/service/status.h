// The one conversion between absl::Status (what libraries and handlers return) and
// grpc::Status (what a client receives), and what a client may see of a server-side
// failure. Codes map one to one (absl and gRPC share the canonical numbers).
//
// Error hygiene: handlers return messages as they are (a client error's message names the
// field; a server error's may name a host, a port or a driver). The call interceptor
// (boundary.h) passes client errors through and replaces a server error's message with
// PublicMessage(code, request id), logging the original with the same request id.
#ifndef TABLERO_LIBS_SERVICE_STATUS_H_
#define TABLERO_LIBS_SERVICE_STATUS_H_

#include <grpcpp/support/status.h>

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tablero::service {

grpc::Status ToGrpc(const absl::Status& s);
absl::Status FromGrpc(const grpc::Status& s);

// INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE and DEADLINE_EXCEEDED: the server's side
// failed (the client could not have avoided it). Their messages never reach clients.
bool IsServerError(grpc::StatusCode code);

// The message a client gets for a server error: what it can do, and the request id to
// quote ("database or backend unavailable, retry shortly (request id 3f2a...)").
std::string PublicMessage(grpc::StatusCode code, absl::string_view request_id);

// grpc::StatusCode -> "OK", "INVALID_ARGUMENT", ...
const char* StatusCodeName(grpc::StatusCode code);

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_STATUS_H_
