// Construction, start and drain, and the invite-code guessing limit.
#include "absl/strings/str_cat.h"
#include "libs/service/client_address.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/room_store.h"

namespace tablero::matchmaking {

MatchmakingService::MatchmakingService(Config config, Metrics* metrics)
    : config_(std::move(config)),
      metrics_(metrics),
      pool_(config_.database_url, config_.db_pool_size),
      feeds_(&pool_, FeedOptions{config_.feed_readers}, metrics_),
      tickets_(&feeds_, std::min(config_.heartbeat, config_.ticket_abandon / 3)),
      hub_(config_.database_url, config_.replica, &tickets_),
      watchers_(config_.watch_limits, config_.heartbeat, config_.watch_sweep, &feeds_, metrics_),
      connections_(config_.replica, config_.presence_lease_seconds,
                   [this](const std::function<absl::Status(pqxx::work&, ToPublish&)>& fn) {
                     return commits_.Tx(fn);
                   }),
      auth_(&pool_),
      backends_(config_.backends),
      commits_(&pool_, &hub_, metrics_, config_.play),
      background_(BackgroundConfig{config_.replica, config_.presence_lease_seconds, config_.tick,
                                   config_.cpu_workers, config_.ticket_abandon},
                  &commits_, &backends_, metrics_,
                  [this](pqxx::transaction_base& w, ToPublish& pub, const v1::Room& room,
                         const std::vector<std::string>& seats, int first_seat,
                         v1::Game* out) { return StartIn(w, pub, room, seats, first_seat, out); }),
      watch_work_(config_.watch_workers) {}

MatchmakingService::~MatchmakingService() { Drain(); }

void MatchmakingService::StartBackground() {
  hub_.Start();
  watchers_.Start();
  connections_.Start();
  tickets_.Start([this](const std::vector<std::string>& ids) { return ReadWatchedTickets(ids); },
                 [this](const std::string& id) { MarkTicketAway(id); });
  background_.Start();
}

void MatchmakingService::Drain() {
  draining_ = true;
  watchers_.EndAll(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server shutting down: reconnect"),
                   WatchEnd::kShutdown);
  background_.Stop();
  watchers_.Stop();
  connections_.Stop();
  tickets_.Stop(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server shutting down: reconnect"));
  hub_.Stop();
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
