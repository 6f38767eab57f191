#include "services/matchmaking/background.h"

#include "absl/strings/str_cat.h"
#include "libs/games/kinds.h"
#include "libs/pg/prepared.h"
#include "libs/service/log.h"
#include "services/matchmaking/connections.h"
#include "services/matchmaking/request_ids.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/seating.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

Background::Background(BackgroundConfig config, Commits* commits, Backends* backends,
                       Metrics* metrics, StartGame start_game)
    : config_(std::move(config)),
      commits_(commits),
      backends_(backends),
      metrics_(metrics),
      start_game_(std::move(start_game)) {}

void Background::Start() {
  threads_.emplace_back([this] { SchedulerLoop(); });
  for (int i = 0; i < config_.cpu_workers; ++i) threads_.emplace_back([this] { CpuLoop(); });
}

void Background::Stop() {
  stop_ = true;
  {
    absl::MutexLock lock(&cpu_mu_);
    cpu_cv_.SignalAll();
  }
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

void Background::RenewAndSweepConnections() {
  // Our own streams stay alive: one row, whatever their number (and the lease of a dead
  // replica goes once the sweep below has taken its rows)...
  (void)commits_->Tx([&](pqxx::work& w) {
    Connections::RenewLease(w, config_.replica, config_.lease_seconds);
    pg::ExecPrepared(w, "lease_drop_dead",
                     "DELETE FROM replicas r WHERE r.expires_at < now() AND NOT EXISTS (SELECT "
                     "1 FROM connections c WHERE c.replica = r.id)");
    return absl::OkStatus();
  });
  // ...and those of replicas that died expire: one transaction per stream, so the seat's
  // grace clock starts exactly once whichever replica sweeps it.
  for (int i = 0; i < 100 && !stop_; ++i) {
    bool found = false;
    absl::Status s = commits_->Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
      found = false;
      pqxx::result r = w.exec(
          "SELECT c.id, c.room_id, c.player_id FROM connections c JOIN replicas r ON "
          "r.id = c.replica WHERE r.expires_at < now() LIMIT 1 FOR UPDATE OF c SKIP LOCKED");
      if (r.empty()) return absl::OkStatus();
      found = true;
      std::string id = r[0][0].as<std::string>(), room = r[0][1].as<std::string>(),
                  player = r[0][2].as<std::string>();
      w.exec_params("SELECT 1 FROM rooms WHERE id = $1 FOR UPDATE", room);
      w.exec_params("DELETE FROM connections WHERE id = $1", id);
      if (Connected(w, room, player)) return absl::OkStatus();
      std::vector<v1::RoomEvent> ev;
      if (auto st = Presence(w, room, player, false, &ev); !st.ok()) return st;
      return AppendEvents(w, room, &ev, &pub).status();
    });
    if (!s.ok() || !found) break;
  }
}

void Background::CountActiveGames() {
  (void)commits_->Tx([&](pqxx::work& w) {
    int64_t n[4] = {0, 0, 0, 0};
    for (const auto& r : w.exec("SELECT kind, count(*) FROM games WHERE NOT over GROUP BY kind")) {
      int k = r[0].as<int>();
      if (games::ProtoKind(k)) n[k] = r[1].as<int64_t>();
    }
    for (const auto& row : games::kKinds)
      metrics_->active_games[row.proto]->Set(double(n[row.proto]));
    int64_t q[4] = {0, 0, 0, 0};
    for (const auto& r :
         w.exec_params("SELECT kind, count(*) FROM tickets WHERE status = $1 GROUP BY kind",
                       kTicketWaiting)) {
      int k = r[0].as<int>();
      if (games::ProtoKind(k)) q[k] = r[1].as<int64_t>();
    }
    for (const auto& row : games::kKinds)
      metrics_->queue_tickets[row.proto]->Set(double(q[row.proto]));
    return absl::OkStatus();
  });
}

const std::string& Background::ProbeSql() {
  // One statement (one round trip, one transaction): each part is an index look-up
  // (games_cpu_due, tickets_waiting, seats_away; the outbox is small). The ticket status
  // is written into the text, not bound, so that the partial index applies to the
  // prepared statement's generic plan too. The due games and the away seats are read in the
  // order of their index: the plan cannot know how few of them are due (its statistics are
  // of a while ago, when the due times of today's games were still to come), and without
  // the order it may read the whole games table on every tick.
  static const std::string kProbe = absl::StrCat(
      "SELECT (SELECT count(*) FROM (SELECT 1 FROM games WHERE cpu_due <= now() AND NOT over "
      "AND (cpu_lease_until IS NULL OR cpu_lease_until < now()) ORDER BY cpu_due LIMIT $1) "
      "c)::int, EXISTS (SELECT 1 FROM tickets WHERE status = ",
      kTicketWaiting,
      "), EXISTS (SELECT 1 FROM outbox WHERE next_at <= now()), "
      "(SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id "
      "WHERE s.away_since IS NOT NULL AND NOT s.cpu_now AND NOT g.over "
      "AND s.away_since <= now() - make_interval(secs => g.grace_seconds) "
      "ORDER BY s.away_since LIMIT 1) IS NOT NULL");
  return kProbe;
}

absl::StatusOr<Background::DueWork> Background::Probe() {
  DueWork due;
  absl::Status s = commits_->pool().Read([&](pqxx::transaction_base& t) {
    pqxx::row r = pg::ExecPrepared(t, "probe_work", ProbeSql(), config_.cpu_workers)[0];
    due.cpu_moves = r[0].as<int>();
    due.tickets = r[1].as<bool>();
    due.outbox = r[2].as<bool>();
    due.takeovers = r[3].as<bool>();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return due;
}

void Background::SchedulerLoop() {
  absl::Time next_renew = absl::InfinitePast();
  while (!stop_) {
    absl::Time now = absl::Now();
    if (now >= next_renew) {
      RenewAndSweepConnections();
      CountActiveGames();
      CountOutbox();
      (void)commits_->Tx([](pqxx::work& w) {
        SweepExpired(w);  // retried calls' answers past their time
        return absl::OkStatus();
      });
      next_renew = now + absl::Seconds(config_.lease_seconds) / 6;
    }
    // One probe per tick says which work is due; only that runs. (The database down:
    // nothing runs until it answers again.)
    if (absl::StatusOr<DueWork> due = Probe(); due.ok()) {
      if (due->cpu_moves > 0) WakeCpuWorkers(due->cpu_moves);
      if (due->takeovers) TakeoverSweep();
      if (due->tickets) MatchQueue();
      if (due->outbox) DeliverOutbox();
    }
    absl::Time until = absl::Now() + config_.tick;
    while (!stop_ && absl::Now() < until) absl::SleepFor(absl::Milliseconds(20));
  }
}

}  // namespace tablero::matchmaking
