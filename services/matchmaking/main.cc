// The matchmaking service binary: flags/env config, Postgres schema "matchmaking" migrated at
// start-up, health, reflection, metrics, graceful shutdown (libs/service, libs/pg).
#include "absl/flags/flag.h"
#include "libs/pg/bootstrap.h"
#include "libs/service/config.h"
#include "libs/service/log.h"
#include "libs/service/server.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/store.h"

ABSL_FLAG(double, grace_seconds, 60,
          "How long a seated player may be disconnected before the CPU plays their seat");
ABSL_FLAG(int, member_limit, 100, "Most members (players and spectators) in one room");
ABSL_FLAG(double, ticket_abandon_seconds, 60,
          "A quick-match ticket not polled for this long is cancelled as abandoned");
ABSL_FLAG(int, bot_budget_ms, 300, "Thinking time asked of the bot service per CPU move");
ABSL_FLAG(int, tick_ms, 200, "Period of the background loop (timers, CPU moves, queue)");
ABSL_FLAG(double, heartbeat_seconds, 15, "Watch heartbeat after this long without events");
ABSL_FLAG(int, cpu_workers, 2, "CPU moves this replica computes at once");
ABSL_FLAG(double, turn_time_scale, 1.0,
          "Multiplies turn time limits (for tests and demos: 0.05 makes 30 s into 1.5 s)");
ABSL_FLAG(int, code_failures_per_minute, 20,
          "Unknown invite codes one player (or one client address, without a token) may try "
          "per minute");
ABSL_FLAG(int, code_failures_per_address, 100,
          "Unknown invite codes all players of one client address may try per minute");
ABSL_FLAG(int, guests_per_minute, 30,
          "CreateGuest calls one client address may make per minute (0: no limit)");

namespace tablero::pg {
const std::vector<Migration>& MatchmakingMigrations();
}

int main(int argc, char** argv) {
  namespace mm = tablero::matchmaking;
  tablero::service::ParseConfig(argc, argv, "tablero matchmaking service (see --helpfull)");
  tablero::service::Server server("matchmaking");
  mm::Metrics metrics(server.registry());
  mm::Config config;
  config.database_url = mm::WithSearchPath(absl::GetFlag(FLAGS_database_url), "matchmaking");
  config.replica = mm::NewId();
  config.rules_addr = absl::GetFlag(FLAGS_rules_addr);
  config.bot_addr = absl::GetFlag(FLAGS_bot_addr);
  config.rating_addr = absl::GetFlag(FLAGS_rating_addr);
  config.grace = absl::Seconds(absl::GetFlag(FLAGS_grace_seconds));
  config.member_limit = absl::GetFlag(FLAGS_member_limit);
  config.ticket_abandon = absl::Seconds(absl::GetFlag(FLAGS_ticket_abandon_seconds));
  config.bot_budget_ms = absl::GetFlag(FLAGS_bot_budget_ms);
  config.tick = absl::Milliseconds(absl::GetFlag(FLAGS_tick_ms));
  config.heartbeat = absl::Seconds(absl::GetFlag(FLAGS_heartbeat_seconds));
  config.cpu_workers = absl::GetFlag(FLAGS_cpu_workers);
  config.db_pool_size = absl::GetFlag(FLAGS_db_pool_size);
  config.code_failures_per_minute = absl::GetFlag(FLAGS_code_failures_per_minute);
  config.code_failures_per_address = absl::GetFlag(FLAGS_code_failures_per_address);
  config.guests_per_minute = absl::GetFlag(FLAGS_guests_per_minute);
  mm::SetTurnTimeScale(absl::GetFlag(FLAGS_turn_time_scale));
  mm::SetGraceSeconds(absl::GetFlag(FLAGS_grace_seconds));
  mm::MatchmakingService service(config, &metrics);
  server.AddService(&service, "tablero.v1.Matchmaking");
  server.OnDrain([&service] { service.Drain(); });
  if (!server.Start().ok()) return 1;
  const std::string url = absl::GetFlag(FLAGS_database_url);
  tablero::pg::Bootstrap db(url.empty() ? url : config.database_url, "matchmaking",
                            tablero::pg::MatchmakingMigrations());
  db.Start([&server, &service](bool ready) {
    if (ready) service.StartBackground();
    server.SetReady(ready);
  });
  int rc = server.Wait();
  db.Stop();
  service.Drain();
  return rc;
}
