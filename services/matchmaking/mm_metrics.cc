#include "services/matchmaking/mm_metrics.h"

#include "libs/games/kinds.h"

namespace tablero::matchmaking {

static_assert(games::kKindSlots <= 4, "Metrics' per-kind arrays need a slot for each GameKind");

Metrics::Metrics(prometheus::Registry& r) {
  auto& active = prometheus::BuildGauge()
                     .Name("tablero_matchmaking_active_games")
                     .Help("Games running, by kind (counted from the database)")
                     .Register(r);
  auto& tickets = prometheus::BuildGauge()
                      .Name("tablero_matchmaking_queue_tickets")
                      .Help("Quick-match tickets waiting, by kind (counted from the database)")
                      .Register(r);
  auto& wait = prometheus::BuildHistogram()
                   .Name("tablero_matchmaking_queue_wait_seconds")
                   .Help(
                       "Quick-match wait from JoinQueue to the match, by kind (tickets this "
                       "replica matched)")
                   .Register(r);
  auto& moves_f = prometheus::BuildCounter()
                      .Name("tablero_matchmaking_moves_total")
                      .Help("Moves committed by this replica, by kind")
                      .Register(r);
  for (const games::KindRow& row : games::kKinds) {
    const int k = row.proto;
    const std::string kind(games::KindName(row.proto));
    active_games[k] = &active.Add({{"kind", kind}});
    moves[k] = &moves_f.Add({{"kind", kind}});
    queue_tickets[k] = &tickets.Add({{"kind", kind}});
    queue_wait[k] = &wait.Add({{"kind", kind}}, prometheus::Histogram::BucketBoundaries{
                                                    1, 2.5, 5, 10, 20, 30, 60, 120, 300});
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
  outbox_oldest_seconds =
      &prometheus::BuildGauge()
           .Name("tablero_matchmaking_outbox_oldest_seconds")
           .Help(
               "Age of the oldest finished ranked game not yet acknowledged by the rating "
               "service (0: none waits)")
           .Register(r)
           .Add({});
  auto& commits =
      prometheus::BuildCounter()
          .Name("tablero_matchmaking_move_commits_total")
          .Help(
              "Moves and actions committed by this replica, by path: one database call, or a "
              "transaction (a game's end, a seat handed back, a resignation or draw)")
          .Register(r);
  commits_one_call = &commits.Add({{"path", "one_call"}});
  commits_transaction = &commits.Add({{"path", "transaction"}});

  watch_streams = &prometheus::BuildGauge()
                       .Name("tablero_matchmaking_watch_streams")
                       .Help("Watch streams open on this replica")
                       .Register(r)
                       .Add({});
  watch_rooms = &prometheus::BuildGauge()
                     .Name("tablero_matchmaking_watch_rooms")
                     .Help("Rooms with at least one Watch stream on this replica (one feed each)")
                     .Register(r)
                     .Add({});
  auto& feed_updates =
      prometheus::BuildCounter()
          .Name("tablero_matchmaking_watch_feed_updates_total")
          .Help(
              "Room feeds brought up to date: by a read of the room's new events, or from "
              "the events of this replica's own commit")
          .Register(r);
  watch_feed_reads = &feed_updates.Add({{"source", "read"}});
  watch_feed_commits = &feed_updates.Add({{"source", "commit"}});
  watch_fanout =
      &prometheus::BuildHistogram()
           .Name("tablero_matchmaking_watch_fanout_seconds")
           .Help("From an event's commit to its write to a Watch stream")
           .Register(r)
           .Add({}, prometheus::Histogram::BucketBoundaries{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                            0.1, 0.25, 0.5, 1, 2.5});
  auto& ended = prometheus::BuildCounter()
                    .Name("tablero_matchmaking_watch_ended_total")
                    .Help("Watch streams ended, by reason")
                    .Register(r);
  for (int i = 0; i < 6; ++i) {
    watch_ended[i] = &ended.Add({{"reason", WatchEndName(static_cast<WatchEnd>(i))}});
  }
  auto& refused = prometheus::BuildCounter()
                      .Name("tablero_matchmaking_watch_refused_total")
                      .Help("Watch streams refused by a limit (RESOURCE_EXHAUSTED), by limit")
                      .Register(r);
  watch_refused_player = &refused.Add({{"limit", "player"}});
  watch_refused_address = &refused.Add({{"limit", "address"}});
  watch_refused_replica = &refused.Add({{"limit", "replica"}});
}

const char* WatchEndName(WatchEnd e) {
  switch (e) {
    case WatchEnd::kClientGone:
      return "client_gone";
    case WatchEnd::kRoomClosed:
      return "room_closed";
    case WatchEnd::kSlowReader:
      return "slow_reader";
    case WatchEnd::kShutdown:
      return "shutdown";
    case WatchEnd::kUnavailable:
      return "unavailable";
    case WatchEnd::kRefused:
      return "refused";
  }
  return "other";
}

}  // namespace tablero::matchmaking
