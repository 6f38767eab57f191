// The matchmaking service binary: flags/env config, Postgres schema "matchmaking" migrated at
// start-up, health, reflection, metrics, graceful shutdown (libs/service, libs/pg).
#include "absl/flags/flag.h"
#include "libs/pg/bootstrap.h"
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/matchmaking/matchmaking_service.h"

namespace tablero::pg {
const std::vector<Migration>& MatchmakingMigrations();
}

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "tablero matchmaking service (see --helpfull)");
  tablero::service::Server server("matchmaking");
  tablero::matchmaking::MatchmakingService service;
  server.AddService(&service, "tablero.v1.Matchmaking");
  if (!server.Start().ok()) return 1;
  tablero::pg::Bootstrap db(absl::GetFlag(FLAGS_database_url), "matchmaking",
                            tablero::pg::MatchmakingMigrations());
  db.Start([&server](bool ready) { server.SetReady(ready); });
  int rc = server.Wait();
  db.Stop();
  return rc;
}
