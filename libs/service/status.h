// The one conversion between absl::Status (what libraries and handlers return) and
// grpc::Status (what a client receives), and what a client may see of a server-side
// failure. Codes map one to one (absl and gRPC share the canonical numbers).
//
// Error hygiene: handlers return messages as they are (a client error's message names the
// field; a server error's may name a host, a port or a driver). The call interceptor
// (boundary.h) passes client errors through and replaces a server error's message with
// PublicMessage(code, request id), logging the original with the same request id.
//
// Structured error details: a refusal a client can act on carries a reason (WithReason),
// kept in the absl::Status as a payload holding a google.rpc.ErrorInfo (domain "tablero").
// ToGrpc sends it as the status details (a google.rpc.Status in the trailer
// grpc-status-details-bin) and FromGrpc reads it back, so a reason the rules service gave
// reaches matchmaking's client unchanged. A server error's details never leave the server
// (the boundary replaces the whole status). proto/tablero/v1/common.proto lists the reasons.
#ifndef TABLERO_LIBS_SERVICE_STATUS_H_
#define TABLERO_LIBS_SERVICE_STATUS_H_

#include <grpcpp/support/status.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/rpc/error_details.pb.h"

namespace tablero::service {

inline constexpr char kErrorDomain[] = "tablero";
// The payload's type URL (and the Any's in the gRPC details).
inline constexpr char kErrorInfoType[] = "type.googleapis.com/google.rpc.ErrorInfo";

// The reasons of tablero.v1 (common.proto, ERROR DETAILS).
namespace reason {
inline constexpr char kIllegalMove[] = "ILLEGAL_MOVE";
inline constexpr char kGameOver[] = "GAME_OVER";
inline constexpr char kNotYourTurn[] = "NOT_YOUR_TURN";
inline constexpr char kStalePly[] = "STALE_PLY";
inline constexpr char kNotSeated[] = "NOT_SEATED";
inline constexpr char kStaleSettings[] = "STALE_SETTINGS";
inline constexpr char kInviteCodeUnknown[] = "INVITE_CODE_UNKNOWN";
inline constexpr char kAlreadyQueued[] = "ALREADY_QUEUED";
inline constexpr char kRequestIdReused[] = "REQUEST_ID_REUSED";
}  // namespace reason

// `s` with an ErrorInfo of `reason` and `metadata` attached (replacing any earlier one).
// An OK status stays OK.
absl::Status WithReason(absl::Status s, absl::string_view reason,
                        const std::vector<std::pair<std::string, std::string>>& metadata = {});
// The ErrorInfo attached to `s` (absl payload) or carried in `s`'s details (gRPC); nullopt
// when there is none.
std::optional<google::rpc::ErrorInfo> ErrorInfoOf(const absl::Status& s);
std::optional<google::rpc::ErrorInfo> ErrorInfoOf(const grpc::Status& s);

// Code and message; an ErrorInfo payload becomes the details (and back).
grpc::Status ToGrpc(const absl::Status& s);
absl::Status FromGrpc(const grpc::Status& s);

// INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE and DEADLINE_EXCEEDED: the server's side
// failed (the client could not have avoided it). Their messages never reach clients.
bool IsServerError(grpc::StatusCode code);

// The message a client gets for a server error: what it can do, and the request id to
// quote ("database or backend unavailable, retry shortly (request id 3f2a...)").
// `draining`: the server is shutting down, which is then what an UNAVAILABLE says.
std::string PublicMessage(grpc::StatusCode code, absl::string_view request_id,
                          bool draining = false);

// grpc::StatusCode -> "OK", "INVALID_ARGUMENT", ...
const char* StatusCodeName(grpc::StatusCode code);

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_STATUS_H_
