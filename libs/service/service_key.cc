#include "libs/service/service_key.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "absl/flags/flag.h"
#include "absl/strings/string_view.h"

ABSL_FLAG(std::string, service_key, "",
          "shared secret of the tablero services: internal methods (Rating.ReportGame) "
          "require callers to send it; matchmaking sends it. Empty: internal methods refuse "
          "every call");

namespace tablero::service {
namespace {

void Digest(absl::string_view s, unsigned char out[SHA256_DIGEST_LENGTH]) {
  SHA256(reinterpret_cast<const unsigned char*>(s.data()), s.size(), out);
}

}  // namespace

absl::Status CheckServiceKey(const grpc::ServerContextBase& ctx) {
  const std::string key = absl::GetFlag(FLAGS_service_key);
  auto it = ctx.client_metadata().find(kServiceKeyHeader);
  if (key.empty() || it == ctx.client_metadata().end()) {
    return absl::UnauthenticatedError("internal method: service credentials required");
  }
  unsigned char want[SHA256_DIGEST_LENGTH], got[SHA256_DIGEST_LENGTH];
  Digest(key, want);
  Digest(absl::string_view(it->second.data(), it->second.size()), got);
  if (CRYPTO_memcmp(want, got, sizeof want) != 0) {
    return absl::UnauthenticatedError("internal method: wrong service credentials");
  }
  return absl::OkStatus();
}

void AddServiceKey(grpc::ClientContext* ctx) {
  std::string key = absl::GetFlag(FLAGS_service_key);
  if (!key.empty()) ctx->AddMetadata(kServiceKeyHeader, key);
}

}  // namespace tablero::service
