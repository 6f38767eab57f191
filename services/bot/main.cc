// The bot service binary: stateless; flags/env config, health, reflection, metrics and
// graceful shutdown come from libs/service.
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/bot/bot_service.h"

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "tablero bot service (see --helpfull)");
  tablero::service::Server server("bot");
  tablero::bot::BotService service;
  server.AddService(&service, "tablero.v1.Bot");
  if (!server.Start().ok()) return 1;
  server.SetReady(true);
  return server.Wait();
}
