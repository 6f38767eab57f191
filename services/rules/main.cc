// The rules service binary: stateless; flags/env config, health, reflection, metrics and
// graceful shutdown come from libs/service.
#include "absl/flags/flag.h"
#include "absl/synchronization/mutex.h"
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/rules/rules_service.h"

ABSL_FLAG(int, state_cache_entries, 4096,
          "decoded game states kept per replica to skip decoding a game's next request "
          "(0: always decode); a few KiB each, states over 8 KiB are never kept");

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "tablero rules service (see --helpfull)");
  // Debian's Abseil is built with Mutex deadlock detection on: a cycle-graph update on
  // every lock gRPC takes, several percent of a call. The service holds no nested locks.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  tablero::service::Server server("rules");
  const int cache = absl::GetFlag(FLAGS_state_cache_entries);
  tablero::rules::RulesService service(server.registry(), cache > 0 ? cache : 0);
  server.AddService(&service, "tablero.v1.Rules");
  if (!server.Start().ok()) return 1;
  server.SetReady(true);
  return server.Wait();
}
