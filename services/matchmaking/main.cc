// The matchmaking service binary: flags/env config, Postgres schema "matchmaking" migrated at
// start-up, health, reflection, metrics, graceful shutdown (libs/service, libs/pg).
#include <algorithm>
#include <mutex>

#include "absl/flags/flag.h"
#include "libs/pg/bootstrap.h"
#include "libs/pg/pool_metrics.h"
#include "libs/service/config.h"
#include "libs/service/log.h"
#include "libs/service/server.h"
#include "services/matchmaking/api.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/sql_values.h"

ABSL_FLAG(double, grace_seconds, 60,
          "How long a seated player may be disconnected before the CPU plays their seat");
ABSL_FLAG(int, presence_lease_seconds, 30,
          "Players of a replica that stopped without closing its streams (killed, cut off "
          "from the database) show as connected this long after its last renewal; the "
          "replica renews its lease every sixth of it");
ABSL_FLAG(int, member_limit, 100, "Most members (players and spectators) in one room");
ABSL_FLAG(double, ticket_abandon_seconds, 60,
          "A quick-match ticket not polled or watched for this long is cancelled as "
          "abandoned; one not polled or watched for half of it is not paired");
ABSL_FLAG(int, bot_budget_ms, 300, "Thinking time asked of the bot service per CPU move");
ABSL_FLAG(int, tick_ms, 200, "Period of the background loop (timers, CPU moves, queue)");
ABSL_FLAG(double, heartbeat_seconds, 15, "Watch heartbeat after this long without events");
ABSL_FLAG(int, cpu_workers, 2, "CPU moves this replica computes at once");
ABSL_FLAG(double, turn_time_scale, 1.0,
          "Multiplies turn time limits (for tests and demos: 0.05 makes 30 s into 1.5 s)");
ABSL_FLAG(int, watch_max_streams, 50000, "Most Watch streams this replica holds open at once");
ABSL_FLAG(int, watch_max_per_player, 16,
          "Most Watch streams one player (token) opens on a replica");
ABSL_FLAG(int, watch_max_per_address, 4096,
          "Most Watch streams one client address opens on a replica");
ABSL_FLAG(int, watch_queue_events, 256,
          "Events a Watch stream may fall behind before it is ended (RESOURCE_EXHAUSTED)");
ABSL_FLAG(double, watch_sweep_seconds, 10,
          "Period of the check of every watched room against the database (lost notifications)");
ABSL_FLAG(int, watch_workers, 4, "Threads opening and closing Watch streams (database work)");
ABSL_FLAG(int, watch_queues, 8,
          "Completion queues (one thread each) the Watch streams spread over (watch_stream.h); "
          "each operation searches its queue's pending ones, so more queues cost threads and "
          "save CPU (20,000 idle streams: 4 queues 8.9% of a core, 8 queues 6.3%)");
ABSL_FLAG(int, unary_workers, 16,
          "Unary calls handled at once (the rest wait in line; they hold no thread)");
ABSL_FLAG(int, feed_readers, 2, "Threads reading watched rooms' new events");
ABSL_FLAG(int, code_failures_per_minute, 20,
          "Unknown invite codes one player (or one client address, without a token) may try "
          "per minute");
ABSL_FLAG(int, code_failures_per_address, 100,
          "Unknown invite codes all players of one client address may try per minute");
ABSL_FLAG(double, request_id_minutes, 10,
          "How long the answer of a CreateGuest, CreateRoom or JoinQueue call with a "
          "request_id is kept for its retries");
ABSL_FLAG(int, guests_per_minute, 30,
          "CreateGuest calls one client address may make per minute (0: no limit)");

namespace tablero::pg {
const std::vector<Migration>& MatchmakingMigrations();
}

int main(int argc, char** argv) {
  namespace mm = tablero::matchmaking;
  tablero::service::ParseConfig(argc, argv, "matchmaking",
                                "tablero matchmaking service (see --helpfull)");
  tablero::service::Server server("matchmaking");
  mm::Metrics metrics(server.registry());
  mm::Config config;
  config.database_url = mm::WithSearchPath(absl::GetFlag(FLAGS_database_url), "matchmaking");
  config.replica = mm::NewId();
  config.backends.rules_addr = absl::GetFlag(FLAGS_rules_addr);
  config.backends.bot_addr = absl::GetFlag(FLAGS_bot_addr);
  config.backends.rating_addr = absl::GetFlag(FLAGS_rating_addr);
  config.backends.bot_budget_ms = absl::GetFlag(FLAGS_bot_budget_ms);
  config.member_limit = absl::GetFlag(FLAGS_member_limit);
  config.presence_lease_seconds = std::max(1, absl::GetFlag(FLAGS_presence_lease_seconds));
  config.ticket_abandon = absl::Seconds(absl::GetFlag(FLAGS_ticket_abandon_seconds));
  config.tick = absl::Milliseconds(absl::GetFlag(FLAGS_tick_ms));
  config.heartbeat = absl::Seconds(absl::GetFlag(FLAGS_heartbeat_seconds));
  config.cpu_workers = absl::GetFlag(FLAGS_cpu_workers);
  config.db_pool_size = absl::GetFlag(FLAGS_db_pool_size);
  config.code_failures_per_minute = absl::GetFlag(FLAGS_code_failures_per_minute);
  config.watch_limits.replica = absl::GetFlag(FLAGS_watch_max_streams);
  config.watch_limits.per_player = absl::GetFlag(FLAGS_watch_max_per_player);
  config.watch_limits.per_address = absl::GetFlag(FLAGS_watch_max_per_address);
  config.watch_queue = absl::GetFlag(FLAGS_watch_queue_events);
  config.watch_sweep = absl::Seconds(absl::GetFlag(FLAGS_watch_sweep_seconds));
  config.watch_workers = absl::GetFlag(FLAGS_watch_workers);
  config.feed_readers = absl::GetFlag(FLAGS_feed_readers);
  config.code_failures_per_address = absl::GetFlag(FLAGS_code_failures_per_address);
  config.guests_per_minute = absl::GetFlag(FLAGS_guests_per_minute);
  config.request_id_ttl = absl::Minutes(absl::GetFlag(FLAGS_request_id_minutes));
  // A scale <= 0 or a negative grace period keeps the default.
  if (double scale = absl::GetFlag(FLAGS_turn_time_scale); scale > 0) {
    config.play.turn_time_scale = scale;
  }
  if (double grace = absl::GetFlag(FLAGS_grace_seconds); grace >= 0) {
    config.play.grace_seconds = grace;
  }
  mm::MatchmakingService service(config, &metrics);
  mm::MatchmakingApi api(&service, absl::GetFlag(FLAGS_unary_workers));
  server.AddService(&api, "tablero.v1.Matchmaking");
  server.AddCollectable(tablero::pg::PoolMetrics(&service.pool()));
  server.OnDrain([&service] { service.Drain(); });
  server.AddCompletionQueues(std::max(1, absl::GetFlag(FLAGS_watch_queues)));
  if (!server.Start().ok()) return 1;
  api.ServeWatch(server.completion_queues(), 8);
  const std::string url = absl::GetFlag(FLAGS_database_url);
  tablero::pg::Bootstrap db(url.empty() ? url : config.database_url, "matchmaking",
                            tablero::pg::MatchmakingMigrations());
  std::once_flag background;  // ready(true) comes again each time the database returns
  db.Start(
      [&server, &service, &background](bool ready) {
        if (ready) std::call_once(background, [&service] { service.StartBackground(); });
        server.SetReady(ready);
      },
      absl::Seconds(absl::GetFlag(FLAGS_db_check_seconds)));
  int rc = server.Wait();
  db.Stop();
  service.Drain();
  return rc;
}
