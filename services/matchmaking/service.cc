// Construction, authentication and the invite-code guessing limit.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/service/client_address.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/store.h"

namespace tablero::matchmaking {

MatchmakingService::MatchmakingService(Config config, Metrics* metrics)
    : config_(std::move(config)),
      metrics_(metrics),
      pool_(config_.database_url, config_.db_pool_size),
      feeds_(&pool_, FeedOptions{config_.feed_readers}, metrics_),
      tickets_(&feeds_, std::min(config_.heartbeat, config_.ticket_abandon / 3)),
      hub_(config_.database_url, config_.replica, &tickets_),
      watchers_(config_.watch_limits, config_.heartbeat, config_.watch_sweep, &feeds_, metrics_),
      connections_(config_.replica, kLeaseSeconds,
                   [this](const std::function<absl::Status(pqxx::work&)>& fn) { return Tx(fn); }),
      watch_work_(config_.watch_workers) {
  ConnectBackends();
}

MatchmakingService::~MatchmakingService() { Drain(); }

absl::Status MatchmakingService::Tx(const std::function<absl::Status(pqxx::work&)>& fn) {
  EventsScope scope;
  absl::Status s = pool_.Tx([&](pqxx::work& w) {
    scope.Reset();  // a retried attempt starts over
    return fn(w);
  });
  if (s.ok()) {
    for (const std::string& room : scope.rooms()) hub_.Publish(room);
  }
  return s;
}

absl::Status MatchmakingService::CommitAndPublish(const GameRow& g, int seat, const Applied& a,
                                                  bool by_cpu, v1::Game* out) {
  std::vector<v1::RoomEvent> appended;
  auto path = CommitPlay(pool_, g, seat, a, by_cpu, out, &appended);
  if (!path.ok()) return path.status();
  hub_.Publish(g.room_id, appended);
  (*path == CommitPath::kOneCall ? metrics_->commits_one_call : metrics_->commits_transaction)
      ->Increment();
  if (a.moved) metrics_->moves[g.kind]->Increment();
  return absl::OkStatus();
}

absl::StatusOr<Caller> MatchmakingService::Authenticate(grpc::ServerContextBase* ctx,
                                                        bool required) {
  const auto& md = ctx->client_metadata();
  auto it = md.find("authorization");
  return AuthenticateHeader(it == md.end() ? std::nullopt
                                           : std::optional<std::string>(
                                                 std::string(it->second.data(), it->second.size())),
                            required);
}

absl::StatusOr<Caller> MatchmakingService::AuthenticateHeader(
    const std::optional<std::string>& header, bool required) {
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
    absl::MutexLock lock(&auth_mu_);
    auto c = auth_cache_.find(hash);
    if (c != auth_cache_.end()) return c->second;
  }
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  try {
    pqxx::nontransaction n(**conn);
    pqxx::result r = n.exec_params("SELECT id FROM players WHERE token_hash = $1", Bytes(hash));
    if (r.empty()) return absl::UnauthenticatedError("unknown token");
    Caller caller{r[0][0].as<std::string>(), ""};
    absl::MutexLock lock(&auth_mu_);
    if (auth_cache_.size() > 100000) auth_cache_.clear();  // ids never change: safe to drop
    auth_cache_[hash] = caller;
    return caller;
  } catch (const std::exception& e) {
    return pg::FromException(e);
  }
}

MatchmakingService::GuessKeys MatchmakingService::GuessKeysOf(const grpc::ServerContextBase& ctx,
                                                              const Caller& caller) {
  std::string address = service::ClientAddress(ctx);
  GuessKeys k;
  k.own =
      caller.id.empty() ? absl::StrCat("anonymous ", address) : absl::StrCat("player ", caller.id);
  k.address = absl::StrCat("address ", address);
  return k;
}

bool MatchmakingService::CodeGuessAllowed(const GuessKeys& keys) {
  return code_failures_.Below(keys.own, config_.code_failures_per_minute) &&
         code_failures_.Below(keys.address, config_.code_failures_per_address);
}

void MatchmakingService::CodeGuessFailed(const GuessKeys& keys) {
  code_failures_.Add(keys.own);
  code_failures_.Add(keys.address);
}

}  // namespace tablero::matchmaking
