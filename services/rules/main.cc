// The rules service binary: stateless; flags/env config, health, reflection, metrics and
// graceful shutdown come from libs/service.
#include "absl/flags/flag.h"
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/rules/callback_service.h"
#include "services/rules/rules_service.h"

// Off by default: since the engines decode without replaying (chess state v2), a cache hit
// (hash, compare, clone) plus the insert of the answer costs more than a decode (handler
// CPU per call, benchmarks/rules_load: chess 20.8 us with the cache, 10.0 us without).
ABSL_FLAG(int, state_cache_entries, 0,
          "decoded game states kept per replica to skip decoding a game's next request "
          "(0: always decode); a few KiB each, states over 8 KiB are never kept");

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "tablero rules service (see --helpfull)");
  tablero::service::Server server("rules");
  const int cache = absl::GetFlag(FLAGS_state_cache_entries);
  tablero::rules::RulesService service(server.registry(), cache > 0 ? cache : 0);
  server.AddCollectable(service.apply_metrics());
  tablero::rules::RulesCallbackService callback(&service);
  server.AddService(&callback, "tablero.v1.Rules");
  if (!server.Start().ok()) return 1;
  server.SetReady(true);
  return server.Wait();
}
