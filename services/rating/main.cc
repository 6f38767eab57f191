// The rating service binary: flags/env config, Postgres schema "rating" migrated at start-up,
// health, reflection, metrics, graceful shutdown (libs/service, libs/pg).
#include "absl/flags/flag.h"
#include "libs/pg/bootstrap.h"
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/rating/rating_service.h"

namespace tablero::pg {
const std::vector<Migration>& RatingMigrations();
}

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "tablero rating service (see --helpfull)");
  tablero::service::Server server("rating");
  tablero::rating::RatingService service;
  server.AddService(&service, "tablero.v1.Rating");
  if (!server.Start().ok()) return 1;
  tablero::pg::Bootstrap db(absl::GetFlag(FLAGS_database_url), "rating",
                            tablero::pg::RatingMigrations());
  db.Start([&server](bool ready) { server.SetReady(ready); });
  int rc = server.Wait();
  db.Stop();
  return rc;
}
