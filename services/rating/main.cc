// The rating service binary: flags/env config, Postgres schema "rating" migrated at start-up,
// health, reflection, metrics, graceful shutdown (libs/service, libs/pg).
#include "absl/flags/flag.h"
#include "libs/pg/bootstrap.h"
#include "libs/pg/pool.h"
#include "libs/pg/pool_metrics.h"
#include "libs/service/config.h"
#include "libs/service/log.h"
#include "libs/service/server.h"
#include "services/rating/flags.h"
#include "services/rating/rating_service.h"
#include "services/rating/store.h"

namespace tablero::pg {
const std::vector<Migration>& RatingMigrations();
}

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "rating", "tablero rating service (see --helpfull)");
  tablero::service::SetLogService("rating");
  absl::StatusOr<tablero::glicko2::Config> config = tablero::rating::ConfigFromFlags();
  if (!config.ok()) {
    tablero::service::LogError("refusing to start",
                               {{"error", std::string(config.status().message())}});
    return 2;
  }
  tablero::service::Server server("rating");
  tablero::pg::Pool pool(absl::GetFlag(FLAGS_database_url), absl::GetFlag(FLAGS_db_pool_size));
  tablero::rating::Store store(&pool, *config);
  tablero::rating::RatingService service(&store, server.registry());
  server.AddService(&service, "tablero.v1.Rating");
  server.AddCollectable(tablero::pg::PoolMetrics(&pool));
  if (!server.Start().ok()) return 1;
  tablero::pg::Bootstrap db(absl::GetFlag(FLAGS_database_url), "rating",
                            tablero::pg::RatingMigrations());
  db.Start([&server](bool ready) { server.SetReady(ready); },
           absl::Seconds(absl::GetFlag(FLAGS_db_check_seconds)));
  int rc = server.Wait();
  db.Stop();
  return rc;
}
