// The service's own metrics (names are fixed: dashboards use them).
#ifndef TABLERO_SERVICES_MATCHMAKING_MM_METRICS_H_
#define TABLERO_SERVICES_MATCHMAKING_MM_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
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
  // Age of the oldest finished game still waiting in the outbox (0 when it is empty).
  prometheus::Gauge* outbox_oldest_seconds = nullptr;
  // Quick match, by game kind: tickets waiting (database-wide, like active_games) and the
  // wait from JoinQueue to the match of the tickets this replica matched.
  prometheus::Gauge* queue_tickets[4] = {};
  prometheus::Histogram* queue_wait[4] = {};
  // Moves and actions committed in one call (commit_move) or in a transaction (game ends,
  // reclaims, resignations and draws).
  prometheus::Counter* commits_one_call = nullptr;     // {path="one_call"}
  prometheus::Counter* commits_transaction = nullptr;  // {path="transaction"}

  // Watch streams (feeds.h, watch_stream.h).
  prometheus::Gauge* watch_streams = nullptr;  // open on this replica
  prometheus::Gauge* watch_rooms = nullptr;    // rooms with a feed on this replica
  // Room feeds brought up to date: by a read of the events table, or from the events of
  // this replica's own commit ({source="read"|"commit"}).
  prometheus::Counter* watch_feed_reads = nullptr;
  prometheus::Counter* watch_feed_commits = nullptr;
  // From an event's commit (its time) to its write to a stream.
  prometheus::Histogram* watch_fanout = nullptr;
  // Streams ended, by reason; see WatchEnd.
  prometheus::Counter* watch_ended[6] = {};
  // Streams refused by a limit: {limit="player"|"address"|"replica"}.
  prometheus::Counter* watch_refused_player = nullptr;
  prometheus::Counter* watch_refused_address = nullptr;
  prometheus::Counter* watch_refused_replica = nullptr;
};

// Why a Watch stream ended (the label of tablero_matchmaking_watch_ended_total).
enum class WatchEnd {
  kClientGone = 0,   // cancelled, or the connection broke
  kRoomClosed = 1,   // every event was written and the room closed
  kSlowReader = 2,   // its queue filled up: RESOURCE_EXHAUSTED
  kShutdown = 3,     // the replica is draining: UNAVAILABLE
  kUnavailable = 4,  // the database could not be reached while opening it
  kRefused = 5,      // bad request, unknown room or token, or a limit: never opened
};
const char* WatchEndName(WatchEnd e);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_MM_METRICS_H_
