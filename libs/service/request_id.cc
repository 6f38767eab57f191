#include "libs/service/request_id.h"

#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "libs/service/service_key.h"

namespace tablero::service {

std::string RequestId(const grpc::ServerContextBase& ctx) {
  auto it = ctx.client_metadata().find(kRequestIdHeader);
  if (it == ctx.client_metadata().end()) return "";
  return std::string(it->second.data(), it->second.size());
}

std::string NewRequestId() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t v[2] = {rng(), rng()};
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(v), sizeof v));
}

bool ValidRequestId(absl::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (char c : id) {
    if (!absl::ascii_isalnum(c) && c != '.' && c != '_' && c != ':' && c != '-') return false;
  }
  return true;
}

void Outgoing(grpc::ClientContext* ctx, absl::string_view request_id) {
  ctx->AddMetadata(kRequestIdHeader, request_id.empty() ? NewRequestId() : std::string(request_id));
  AddServiceKey(ctx);
}

}  // namespace tablero::service
