// The bot service binary: stateless; flags/env config, health, reflection, metrics and
// graceful shutdown come from libs/service.
#include "absl/flags/flag.h"
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/bot/bot_service.h"

ABSL_FLAG(int, max_budget_ms, 10000,
          "Longest thinking time per move in milliseconds, whatever a request asks");

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "bot", "tablero bot service (see --helpfull)");
  tablero::service::Server server("bot");
  tablero::bot::BotService service(server.registry(), absl::GetFlag(FLAGS_max_budget_ms));
  server.AddService(&service, "tablero.v1.Bot");
  if (!server.Start().ok()) return 1;
  server.SetReady(true);
  return server.Wait();
}
