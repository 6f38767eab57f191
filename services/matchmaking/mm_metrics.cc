#include "services/matchmaking/mm_metrics.h"

namespace tablero::matchmaking {

Metrics::Metrics(prometheus::Registry& r) {
  auto& active = prometheus::BuildGauge()
                     .Name("tablero_matchmaking_active_games")
                     .Help("Games running, by kind (counted from the database)")
                     .Register(r);
  auto& moves_f = prometheus::BuildCounter()
                      .Name("tablero_matchmaking_moves_total")
                      .Help("Moves committed by this replica, by kind")
                      .Register(r);
  const char* kinds[] = {"", "chess", "shogi4", "checkers"};
  for (int k = 1; k < 4; ++k) {
    active_games[k] = &active.Add({{"kind", kinds[k]}});
    moves[k] = &moves_f.Add({{"kind", kinds[k]}});
  }
  connected_players = &prometheus::BuildGauge()
                           .Name("tablero_matchmaking_connected_players")
                           .Help("Players with at least one open Watch stream on this replica")
                           .Register(r)
                           .Add({});
  auto& take = prometheus::BuildCounter()
                   .Name("tablero_matchmaking_cpu_takeovers_total")
                   .Help("Human seats handed to the CPU, by reason")
                   .Register(r);
  takeover_absent = &take.Add({{"reason", "absent"}});
  takeover_timeout = &take.Add({{"reason", "timeout"}});
  takeover_left = &take.Add({{"reason", "left"}});
  outbox_pending = &prometheus::BuildGauge()
                        .Name("tablero_matchmaking_outbox_pending")
                        .Help("Finished ranked games not yet acknowledged by the rating service")
                        .Register(r)
                        .Add({});
  auto& commits = prometheus::BuildCounter()
                      .Name("tablero_matchmaking_move_commits_total")
                      .Help(
                          "Moves committed by this replica, by path: one database call, or a "
                          "transaction (a game's end, a seat handed back)")
                      .Register(r);
  commits_one_call = &commits.Add({{"path", "one_call"}});
  commits_transaction = &commits.Add({{"path", "transaction"}});
}

}  // namespace tablero::matchmaking
