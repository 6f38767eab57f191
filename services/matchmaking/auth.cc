#include "services/matchmaking/auth.h"

#include "absl/strings/match.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

absl::StatusOr<Caller> Authenticator::Authenticate(const grpc::ServerContextBase& ctx,
                                                   bool required) {
  const auto& md = ctx.client_metadata();
  auto it = md.find("authorization");
  return AuthenticateHeader(it == md.end() ? std::nullopt
                                           : std::optional<std::string>(
                                                 std::string(it->second.data(), it->second.size())),
                            required);
}

absl::StatusOr<Caller> Authenticator::AuthenticateHeader(const std::optional<std::string>& header,
                                                         bool required) {
  if (!header.has_value()) {
    if (required) {
      return absl::UnauthenticatedError(
          "missing token: send metadata authorization: Bearer <token>");
    }
    return Caller{};
  }
  absl::string_view v(*header);
  if (!absl::StartsWithIgnoreCase(v, "Bearer ") || v.size() > 200) {
    return absl::UnauthenticatedError("malformed authorization: expected Bearer <token>");
  }
  std::string hash = TokenHash(v.substr(7));
  {
    absl::MutexLock lock(&mu_);
    auto c = cache_.find(hash);
    if (c != cache_.end()) return c->second;
  }
  auto conn = pool_->Acquire();
  if (!conn.ok()) return conn.status();
  try {
    pqxx::nontransaction n(**conn);
    pqxx::result r = n.exec_params("SELECT id FROM players WHERE token_hash = $1", Bytes(hash));
    if (r.empty()) return absl::UnauthenticatedError("unknown token");
    Caller caller{r[0][0].as<std::string>(), ""};
    absl::MutexLock lock(&mu_);
    if (cache_.size() > 100000) cache_.clear();  // ids never change: safe to drop
    cache_[hash] = caller;
    return caller;
  } catch (const std::exception& e) {
    return pg::FromException(e);
  }
}

}  // namespace tablero::matchmaking
