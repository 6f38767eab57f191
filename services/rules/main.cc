// The rules service binary: stateless; flags/env config, health, reflection, metrics and
// graceful shutdown come from libs/service.
#include "absl/flags/flag.h"
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/rules/callback_service.h"
#include "services/rules/rules_service.h"

// A game's next request carries the state this replica answered last: with the cache, that
// request takes the game object back instead of decoding it (services/rules/fast/state_cache.h).
// A slot holds one state and its game: measured, a game is 0.5-1.2 KiB on the heap and its
// state 0.1-0.8 KiB (states over 8 KiB are not kept), so 16384 slots are ~15-35 MiB. Size
// it to the games a replica plays at once; a game evicted or played elsewhere just decodes.
ABSL_FLAG(int, state_cache_entries, 16384,
          "decoded games kept per replica, each under the state it was answered with, so that "
          "the game's next request skips decoding (0: always decode)");

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "rules", "tablero rules service (see --helpfull)");
  tablero::service::Server server("rules");
  const int cache = absl::GetFlag(FLAGS_state_cache_entries);
  tablero::rules::RulesService service(cache > 0 ? cache : 0);
  server.AddCollectable(service.apply_metrics());
  tablero::rules::RulesCallbackService callback(&service);
  server.AddService(&callback, "tablero.v1.Rules");
  if (!server.Start().ok()) return 1;
  server.SetReady(true);
  return server.Wait();
}
