// The CPU at work: seats the CPU plays (CPU seats, absent or departed players) and turns
// that ran out. Work is found in the database (games.cpu_due) and claimed with a short
// lease, so exactly one replica computes each CPU move; the move itself is committed with
// the same version check as a human's, so a player who moves (or returns) first wins.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/service/log.h"
#include "services/matchmaking/background.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/seating.h"

namespace tablero::matchmaking {

void Background::TakeoverSweep() {
  // Seats whose player has been away longer than the grace period.
  std::vector<std::pair<std::string, int>> due;
  absl::Status s = commits_->Tx([&](pqxx::work& w) {
    due.clear();
    for (const auto& r :
         w.exec("SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.away_since IS NOT NULL AND NOT s.cpu_now AND NOT g.over "
                "AND s.away_since <= now() - make_interval(secs => g.grace_seconds) LIMIT 50")) {
      due.emplace_back(r[0].as<std::string>(), r[1].as<int>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return;
  for (const auto& due_seat : due) {
    // (Named, not a structured binding: the lambda below captures them, which
    // clang 14, the thread-safety check's compiler, does not allow for bindings.)
    const std::string& game_id = due_seat.first;
    const int seat = due_seat.second;
    bool took = false;
    (void)commits_->Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
      took = false;
      pqxx::result g = w.exec_params("SELECT room_id FROM games WHERE id = $1", game_id);
      if (g.empty()) return absl::OkStatus();
      std::string room = g[0][0].as<std::string>();
      w.exec_params("SELECT 1 FROM rooms WHERE id = $1 FOR UPDATE", room);
      // Re-checked under the room lock: another replica may have acted, or the player
      // may be back.
      pqxx::result r = w.exec_params(
          "SELECT s.player_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.game_id = $1 "
          "AND s.seat = $2 AND s.away_since <= now() - make_interval(secs => g.grace_seconds) "
          "AND NOT s.cpu_now AND NOT g.over FOR UPDATE OF s",
          game_id, seat);
      if (r.empty()) return absl::OkStatus();
      std::string player = r[0][0].as<std::string>();
      if (Connected(w, room, player)) return absl::OkStatus();
      w.exec_params(
          "UPDATE seats SET cpu_now = true, cpu_reason = 'absent' WHERE game_id = $1 "
          "AND seat = $2",
          game_id, seat);
      RefreshCpuDue(w, game_id);
      std::vector<v1::RoomEvent> ev(1);
      ev[0].set_game_id(game_id);
      auto* p = ev[0].mutable_presence_changed();
      p->set_player_id(player);
      p->set_seat(seat);
      p->set_connected(false);
      p->set_cpu_controlled(true);
      took = true;
      return AppendEvents(w, room, &ev, &pub).status();
    });
    if (took) metrics_->takeover_absent->Increment();
  }
}

bool Background::PlayOneCpuMove() {
  std::string id;
  absl::Status s = commits_->Tx([&](pqxx::work& w) {
    pqxx::result r = w.exec(
        "UPDATE games SET cpu_lease_until = now() + interval '10 seconds' WHERE id = ("
        "SELECT id FROM games WHERE cpu_due <= now() AND NOT over AND (cpu_lease_until IS NULL "
        "OR cpu_lease_until < now()) ORDER BY cpu_due LIMIT 1 FOR UPDATE SKIP LOCKED) "
        "RETURNING id");
    id = r.empty() ? "" : r[0][0].as<std::string>();
    return absl::OkStatus();
  });
  if (!s.ok() || id.empty()) return false;
  auto r = ReadGame(commits_->pool(), id);
  if (!r.ok()) return true;
  GameRow g = std::move(*r);
  auto release = [&](const char* delay) {
    (void)commits_->Tx([&](pqxx::work& w) {
      w.exec_params(absl::StrCat("UPDATE games SET cpu_lease_until = NULL, cpu_due = ", delay,
                                 " WHERE id = $1 AND version = $2"),
                    id, g.version);
      if (std::string(delay) == "NULL") RefreshCpuDue(w, id);
      return absl::OkStatus();
    });
  };
  if (g.over || g.to_move < 0 || g.to_move >= static_cast<int>(g.seats.size())) {
    release("NULL");
    return true;
  }
  const SeatRow& seat = g.seats[g.to_move];
  bool timeout = false;
  if (!seat.player_id.empty() && !seat.cpu_now) {
    if (!g.deadline_passed) {  // the player is back and the turn has time left
      release("NULL");
      return true;
    }
    timeout = true;
  }
  auto move = backends_->BotMove(g);
  absl::StatusOr<Applied> applied = move.ok() ? backends_->Move(g, move->notation(), nullptr)
                                              : absl::StatusOr<Applied>(move.status());
  if (!applied.ok()) {
    service::LogWarn("CPU move failed; retrying shortly",
                     {{"game", id}, {"error", std::string(applied.status().message())}});
    release("now() + interval '1 second'");
    return true;
  }
  v1::Game after;
  s = commits_->Play(g, g.to_move, *applied, true, &after);
  if (s.ok()) {
    if (timeout) metrics_->takeover_timeout->Increment();
  } else if (s.code() != absl::StatusCode::kAborted) {
    release("now() + interval '1 second'");
  }
  return true;
}

void Background::CpuLoop() {
  // Asleep until there is CPU work (WakeCpuWorkers: the scheduler's probe found some, or
  // a commit here gave the turn to a CPU seat); then moves until none is due.
  while (!stop_) {
    {
      absl::MutexLock lock(&cpu_mu_);
      while (cpu_wakeups_ <= 0 && !stop_) cpu_cv_.Wait(&cpu_mu_);
      if (stop_) return;
      --cpu_wakeups_;
    }
    while (!stop_ && PlayOneCpuMove()) {
    }
  }
}

void Background::WakeCpuWorkers(int n) {
  absl::MutexLock lock(&cpu_mu_);
  cpu_wakeups_ = std::min(cpu_wakeups_ + n, config_.cpu_workers);
  for (int i = 0; i < n; ++i) cpu_cv_.Signal();
}

void Background::WakeCpu(const v1::Game& game) {
  if (game.result().over() || game.to_move() < 0 || game.to_move() >= game.seats_size()) return;
  const v1::Seat& s = game.seats(game.to_move());
  if (!s.is_cpu() && !s.controlled_by_cpu_now()) return;
  WakeCpuWorkers(1);
}

}  // namespace tablero::matchmaking
