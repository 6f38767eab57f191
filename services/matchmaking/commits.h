// Every write of the service goes through here, so that no event is ever left unpublished:
// a transaction (Tx), after which the rooms whose events it appended are published to the
// watchers (this replica's at once, the others' by NOTIFY: hub.h), and the one door for a
// move or action the rules service applied (Play: play.h CommitPlay, then the room's
// events published and the commit counted).
#ifndef TABLERO_SERVICES_MATCHMAKING_COMMITS_H_
#define TABLERO_SERVICES_MATCHMAKING_COMMITS_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "libs/pg/pool.h"
#include "services/matchmaking/hub.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/play.h"
#include "services/matchmaking/room_store.h"

namespace tablero::matchmaking {

class Commits {
 public:
  Commits(pg::Pool* pool, Hub* hub, Metrics* metrics, PlayConfig play)
      : pool_(pool), hub_(hub), metrics_(metrics), play_(play) {}

  // pool.Tx, then the rooms fn noted in its ToPublish (AppendEvents) are published.
  absl::Status Tx(const std::function<absl::Status(pqxx::work&, ToPublish&)>& fn);
  // pool.Tx for a transaction that appends no event (it has no ToPublish to append with).
  absl::Status Tx(const std::function<absl::Status(pqxx::work&)>& fn) { return pool_->Tx(fn); }
  // CommitPlay (same contract), then g.room_id's events published and the commit counted.
  absl::Status Play(const GameRow& g, int seat, const Applied& a, bool by_cpu, v1::Game* out);
  // Wakes the watchers of `name` on every replica (a room, or TicketWatch::WakeName).
  void Publish(const std::string& name) { hub_->Publish(name); }

  pg::Pool& pool() { return *pool_; }
  const PlayConfig& play() const { return play_; }

 private:
  pg::Pool* pool_;
  Hub* hub_;
  Metrics* metrics_;
  const PlayConfig play_;
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_COMMITS_H_
