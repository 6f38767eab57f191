#include "services/matchmaking/connections.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/pg/prepared.h"
#include "libs/service/log.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/seating.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {
namespace {

using PairSet = absl::flat_hash_set<std::pair<std::string, std::string>>;

// Runs a prepared query over the pairs (rooms[i], players[i]), bound as $1 and $2, that
// returns (room_id, player_id) rows.
PairSet Pairs(pqxx::work& w, const std::string& name, const std::string& sql,
              const std::vector<std::string>& rooms, const std::vector<std::string>& players) {
  PairSet out;
  if (rooms.empty()) return out;
  for (const auto& row : pg::ExecPrepared(w, name, sql, TextArray(rooms), TextArray(players))) {
    out.emplace(row[0].as<std::string>(), row[1].as<std::string>());
  }
  return out;
}

// The pairs with a row on a live replica (migration 0006).
constexpr char kLive[] =
    "SELECT DISTINCT p.room_id, p.player_id FROM unnest($1::text[], $2::text[]) AS "
    "p(room_id, player_id) WHERE player_connected(p.room_id, p.player_id)";

// The pairs whose presence the room shows (members, or seated in the room's game):
// only these get a presence event, so spectators cost no statement each.
constexpr char kShown[] =
    "SELECT p.room_id, p.player_id FROM unnest($1::text[], $2::text[]) AS p(room_id, "
    "player_id) WHERE EXISTS (SELECT 1 FROM members m WHERE m.room_id = p.room_id AND "
    "m.player_id = p.player_id) OR EXISTS (SELECT 1 FROM rooms r JOIN seats s ON "
    "s.game_id = r.current_game_id WHERE r.id = p.room_id AND s.player_id = p.player_id)";

}  // namespace

Connections::Connections(std::string replica, int lease_seconds, TxFn tx, size_t max_batch)
    : replica_(std::move(replica)),
      lease_seconds_(lease_seconds),
      tx_(std::move(tx)),
      max_batch_(max_batch) {}

Connections::~Connections() { Stop(); }

void Connections::Start() {
  thread_ = std::thread([this] { Run(); });
}

void Connections::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  cv_.SignalAll();
  if (thread_.joinable()) thread_.join();
}

std::string Connections::RowId(const std::string& replica, const std::string& room,
                               const std::string& player) {
  return absl::StrCat(replica, "/", room, "/", player);
}

void Connections::RenewLease(pqxx::transaction_base& t, const std::string& replica,
                             int lease_seconds) {
  pg::ExecPrepared(t, "lease_renew",
                   "INSERT INTO replicas (id, expires_at) VALUES ($1, now() + make_interval(secs "
                   "=> $2)) ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at",
                   replica, lease_seconds);
}

size_t Connections::pairs() const {
  absl::MutexLock lock(&mu_);
  return entries_.size();
}

void Connections::Enqueue(const Key& key, Entry* e) {
  if (e->queued) return;
  e->queued = true;
  dirty_.push_back(key);
  cv_.Signal();
}

void Connections::Acquire(const std::string& room, const std::string& player, Done done) {
  absl::Status now;  // answered at once (outside the lock), or queued for the writer
  {
    absl::MutexLock lock(&mu_);
    if (stop_) {
      now = absl::UnavailableError("server shutting down: reconnect");
    } else {
      Key key(room, player);
      Entry& e = entries_[key];
      ++e.streams;
      if (!e.written || e.queued) {
        e.waiters.push_back(std::move(done));
        Enqueue(key, &e);
        return;
      }
    }
  }
  done(now);
}

void Connections::Release(const std::string& room, const std::string& player) {
  absl::MutexLock lock(&mu_);
  Key key(room, player);
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  if (--it->second.streams == 0) Enqueue(key, &it->second);
}

std::vector<Connections::Op> Connections::TakeBatch(
    std::vector<std::pair<Done, absl::Status>>* complete) {
  std::vector<Op> ops;
  while (!dirty_.empty() && ops.size() < max_batch_) {
    Key key = std::move(dirty_.front());
    dirty_.pop_front();
    auto it = entries_.find(key);
    Entry& e = it->second;
    e.queued = false;
    const bool want = e.streams > 0;
    if (want != e.written) {
      ops.push_back({std::move(key), want, absl::OkStatus()});
      continue;
    }
    for (Done& d : e.waiters) {
      complete->emplace_back(std::move(d),
                             want ? absl::OkStatus() : absl::CancelledError("the stream closed"));
    }
    e.waiters.clear();
    if (!want) entries_.erase(it);
  }
  return ops;
}

absl::Status Connections::Write(std::vector<Op>* ops) {
  return tx_([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
    std::vector<std::string> rooms;
    for (Op& op : *ops) {
      op.result = absl::OkStatus();  // a retried attempt starts over
      rooms.push_back(op.key.first);
    }
    std::sort(rooms.begin(), rooms.end());
    rooms.erase(std::unique(rooms.begin(), rooms.end()), rooms.end());
    // The rooms' rows are locked in one order, so two replicas' batches never deadlock,
    // and each room's presence events are numbered under its lock as everywhere else.
    absl::flat_hash_set<std::string> open;
    for (const auto& row :
         pg::ExecPrepared(w, "conn_lock",
                          "SELECT id, closed FROM rooms WHERE id = ANY($1::text[]) ORDER BY id "
                          "FOR UPDATE",
                          TextArray(rooms))) {
      if (!row[1].as<bool>()) open.insert(row[0].as<std::string>());
    }
    std::vector<std::string> c_ids, c_rooms, c_players, d_ids, d_rooms, d_players;
    for (Op& op : *ops) {
      const auto& [room, player] = op.key;
      if (!op.connect) {
        d_ids.push_back(RowId(replica_, room, player));
        d_rooms.push_back(room);
        d_players.push_back(player);
      } else if (!open.contains(room)) {
        op.result = absl::NotFoundError("room not found");
      } else {
        c_ids.push_back(RowId(replica_, room, player));
        c_rooms.push_back(room);
        c_players.push_back(player);
      }
    }
    const PairSet before = Pairs(w, "conn_live", kLive, c_rooms, c_players);
    if (!c_ids.empty()) {
      // The rows count from now: the lease is written with them (a replica's first rows
      // may come before the scheduler's first renewal).
      RenewLease(w, replica_, lease_seconds_);
      pg::ExecPrepared(w, "conn_insert",
                       "INSERT INTO connections (id, room_id, player_id, replica) SELECT p.id, "
                       "p.room_id, p.player_id, $4 FROM unnest($1::text[], $2::text[], "
                       "$3::text[]) AS p(id, room_id, player_id) ON CONFLICT (id) DO NOTHING",
                       TextArray(c_ids), TextArray(c_rooms), TextArray(c_players), replica_);
    }
    if (!d_ids.empty()) {
      pg::ExecPrepared(w, "conn_delete", "DELETE FROM connections WHERE id = ANY($1::text[])",
                       TextArray(d_ids));
    }
    const PairSet after = Pairs(w, "conn_live", kLive, d_rooms, d_players);
    // The pairs whose state changed: first row in, last row out.
    std::vector<std::string> ch_rooms, ch_players;
    std::vector<bool> ch_connected;
    for (size_t i = 0; i < c_rooms.size(); ++i) {
      if (before.contains(std::make_pair(c_rooms[i], c_players[i]))) continue;
      ch_rooms.push_back(c_rooms[i]);
      ch_players.push_back(c_players[i]);
      ch_connected.push_back(true);
    }
    for (size_t i = 0; i < d_rooms.size(); ++i) {
      if (after.contains(std::make_pair(d_rooms[i], d_players[i]))) continue;
      ch_rooms.push_back(d_rooms[i]);
      ch_players.push_back(d_players[i]);
      ch_connected.push_back(false);
    }
    const PairSet shown = Pairs(w, "conn_shown", kShown, ch_rooms, ch_players);
    absl::flat_hash_map<std::string, std::vector<v1::RoomEvent>> events;
    for (size_t i = 0; i < ch_rooms.size(); ++i) {
      if (!shown.contains(std::make_pair(ch_rooms[i], ch_players[i]))) continue;
      if (absl::Status s =
              Presence(w, ch_rooms[i], ch_players[i], ch_connected[i], &events[ch_rooms[i]]);
          !s.ok()) {
        return s;
      }
    }
    for (auto& [room, ev] : events) {
      if (ev.empty()) continue;
      if (auto seq = AppendEvents(w, room, &ev, &pub); !seq.ok()) return seq.status();
    }
    return absl::OkStatus();
  });
}

void Connections::Settle(std::vector<Op>* ops, const absl::Status& batch,
                         std::vector<std::pair<Done, absl::Status>>* complete) {
  for (Op& op : *ops) {
    auto it = entries_.find(op.key);
    Entry& e = it->second;
    if (batch.ok()) e.written = op.connect && op.result.ok();
    const absl::Status failed = batch.ok() ? op.result : batch;
    for (Done& d : e.waiters) {
      complete->emplace_back(std::move(d), e.written ? absl::OkStatus()
                                           : !failed.ok()
                                               ? failed
                                               : absl::CancelledError("the stream closed"));
    }
    e.waiters.clear();
    // A row that could not be deleted is tried again (else its renewals would keep a
    // gone player connected); a failed first row is not: its streams end and release.
    if (!batch.ok() && e.streams == 0 && e.written) Enqueue(op.key, &e);
    if (e.streams == 0 && !e.written && !e.queued) entries_.erase(it);
  }
}

void Connections::Run() {
  // The lock is held except around the callbacks and the batch's transaction.
  mu_.Lock();
  while (true) {
    while (!stop_ && dirty_.empty()) cv_.Wait(&mu_);
    if (dirty_.empty()) break;  // stopping, nothing left to write
    std::vector<std::pair<Done, absl::Status>> complete;
    std::vector<Op> ops = TakeBatch(&complete);
    mu_.Unlock();
    for (auto& [done, s] : complete) done(s);
    complete.clear();
    const absl::Status batch = ops.empty() ? absl::OkStatus() : Write(&ops);
    mu_.Lock();
    Settle(&ops, batch, &complete);
    mu_.Unlock();
    for (auto& [done, s] : complete) done(s);
    mu_.Lock();
    if (!batch.ok()) {
      service::LogWarn(
          "presence rows not written; retrying",
          {{"error", std::string(batch.message())}, {"pairs", absl::StrCat(ops.size())}});
      // A stopping replica leaves its rows to expire; otherwise wait a little and retry.
      const absl::Time deadline = absl::Now() + absl::Seconds(1);
      while (!stop_ && !cv_.WaitWithDeadline(&mu_, deadline)) {
      }
      if (stop_) break;
    }
  }
  // Opens still waiting are refused: the replica is going away.
  std::vector<Done> left;
  for (auto& [key, e] : entries_) {
    for (Done& d : e.waiters) left.push_back(std::move(d));
    e.waiters.clear();
  }
  mu_.Unlock();
  for (Done& d : left) d(absl::UnavailableError("server shutting down: reconnect"));
}

}  // namespace tablero::matchmaking
