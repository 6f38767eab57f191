// The service's own metrics (names are fixed: dashboards use them).
#ifndef TABLERO_SERVICES_MATCHMAKING_MM_METRICS_H_
#define TABLERO_SERVICES_MATCHMAKING_MM_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <string>

namespace tablero::matchmaking {

struct Metrics {
  explicit Metrics(prometheus::Registry& r);
  // By game kind name ("chess", "shogi4", "checkers"); index = Kind number.
  prometheus::Gauge* active_games[4] = {};
  prometheus::Counter* moves[4] = {};
  prometheus::Gauge* connected_players = nullptr;
  prometheus::Counter* takeover_absent = nullptr;   // {reason="absent"}
  prometheus::Counter* takeover_timeout = nullptr;  // {reason="timeout"}
  prometheus::Counter* takeover_left = nullptr;     // {reason="left"}
  prometheus::Gauge* outbox_pending = nullptr;
  // Moves committed in one call (commit_move) or in a transaction (game ends, reclaims).
  prometheus::Counter* commits_one_call = nullptr;     // {path="one_call"}
  prometheus::Counter* commits_transaction = nullptr;  // {path="transaction"}
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_MM_METRICS_H_
