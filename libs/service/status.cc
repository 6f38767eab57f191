#include "libs/service/status.h"

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "google/rpc/status.pb.h"

namespace tablero::service {

absl::Status WithReason(absl::Status s, absl::string_view reason,
                        const std::vector<std::pair<std::string, std::string>>& metadata) {
  if (s.ok()) return s;
  google::rpc::ErrorInfo info;
  info.set_reason(std::string(reason));
  info.set_domain(kErrorDomain);
  for (const auto& [k, v] : metadata) (*info.mutable_metadata())[k] = v;
  s.SetPayload(kErrorInfoType, absl::Cord(info.SerializeAsString()));
  return s;
}

std::optional<google::rpc::ErrorInfo> ErrorInfoOf(const absl::Status& s) {
  auto payload = s.GetPayload(kErrorInfoType);
  google::rpc::ErrorInfo info;
  if (!payload.has_value() || !info.ParseFromString(std::string(*payload))) return std::nullopt;
  return info;
}

std::optional<google::rpc::ErrorInfo> ErrorInfoOf(const grpc::Status& s) {
  if (s.error_details().empty()) return std::nullopt;
  google::rpc::Status details;
  if (!details.ParseFromString(s.error_details())) return std::nullopt;
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    if (any.type_url() == kErrorInfoType && info.ParseFromString(any.value())) return info;
  }
  return std::nullopt;
}

grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status();
  const auto code = static_cast<grpc::StatusCode>(s.code());
  auto info = s.GetPayload(kErrorInfoType);
  if (!info.has_value()) return grpc::Status(code, std::string(s.message()));
  google::rpc::Status details;
  details.set_code(static_cast<int>(s.code()));
  details.set_message(std::string(s.message()));
  auto* any = details.add_details();
  any->set_type_url(kErrorInfoType);
  any->set_value(std::string(*info));
  return grpc::Status(code, std::string(s.message()), details.SerializeAsString());
}

absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  absl::Status out(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
  if (auto info = ErrorInfoOf(s)) {
    out.SetPayload(kErrorInfoType, absl::Cord(info->SerializeAsString()));
  }
  return out;
}

bool IsServerError(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::INTERNAL:
    case grpc::StatusCode::UNKNOWN:
    case grpc::StatusCode::DATA_LOSS:
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return true;
    default:
      return false;
  }
}

std::string PublicMessage(grpc::StatusCode code, absl::string_view request_id, bool draining) {
  absl::string_view what;
  switch (code) {
    case grpc::StatusCode::UNAVAILABLE:
      what = draining ? "server shutting down: reconnect (another replica will answer)"
                      : "service temporarily unavailable (database or a backend service); retry "
                        "shortly";
      break;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      what = "the server ran out of time; retry";
      break;
    default:
      what = "internal server error; retrying may help, or report the request id";
  }
  return absl::StrCat(what, " (request id ", request_id, ")");
}

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

}  // namespace tablero::service
