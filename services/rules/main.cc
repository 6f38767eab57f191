// The rules service binary: stateless; flags/env config, health, reflection, metrics and
// graceful shutdown come from libs/service.
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "services/rules/rules_service.h"

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "tablero rules service (see --helpfull)");
  tablero::service::Server server("rules");
  tablero::rules::RulesService service(server.registry());
  server.AddService(&service, "tablero.v1.Rules");
  if (!server.Start().ok()) return 1;
  server.SetReady(true);
  return server.Wait();
}
