// Who calls: a player's bearer token (metadata `authorization: Bearer <token>`) checked
// against the stored SHA-256 of the guest tokens, with a cache (a token's player never
// changes). Matchmaking serves no internal methods: the service credentials of calls it
// makes are added by libs/service (service_key.h).
#ifndef TABLERO_SERVICES_MATCHMAKING_AUTH_H_
#define TABLERO_SERVICES_MATCHMAKING_AUTH_H_

#include <grpcpp/grpcpp.h>

#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "libs/pg/pool.h"

namespace tablero::matchmaking {

// The caller, when authenticated.
struct Caller {
  std::string id;
  std::string name;
};

class Authenticator {
 public:
  explicit Authenticator(pg::Pool* pool) : pool_(pool) {}

  // Reads the bearer token. required: missing -> UNAUTHENTICATED; optional: missing ->
  // an empty Caller. A present but unknown or malformed token is UNAUTHENTICATED either
  // way.
  absl::StatusOr<Caller> Authenticate(const grpc::ServerContextBase& ctx, bool required);
  // The same from the authorization header's value (nullopt: none was sent), for work
  // done off the call's thread.
  absl::StatusOr<Caller> AuthenticateHeader(const std::optional<std::string>& header,
                                            bool required);

 private:
  pg::Pool* pool_;
  absl::Mutex mu_;
  // token hash -> player
  absl::flat_hash_map<std::string, Caller> cache_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_AUTH_H_
