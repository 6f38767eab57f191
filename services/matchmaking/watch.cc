// Watch: the room's event log from a sequence number on, then live events, with the
// stream's presence (an open stream with a seated player's token keeps the seat
// connected).
#include "absl/strings/str_cat.h"
#include "libs/pg/prepared.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/seating.h"
#include "services/matchmaking/store.h"

namespace tablero::matchmaking {

absl::Status MatchmakingService::OpenConnection(const std::string& room_id,
                                                const std::string& player_id,
                                                const std::string& conn_id) {
  return Tx([&](pqxx::work& w) -> absl::Status {
    pqxx::result r =
        w.exec_params("SELECT 1 FROM rooms WHERE id = $1 AND NOT closed FOR UPDATE", room_id);
    if (r.empty()) return absl::NotFoundError("room not found");
    bool first = !Connected(w, room_id, player_id);
    w.exec_params(
        "INSERT INTO connections (id, room_id, player_id, replica, expires_at) VALUES ($1, $2, "
        "$3, $4, now() + make_interval(secs => $5))",
        conn_id, room_id, player_id, config_.replica, kLeaseSeconds);
    if (!first) return absl::OkStatus();
    std::vector<v1::RoomEvent> ev;
    if (auto s = Presence(w, room_id, player_id, true, &ev); !s.ok()) return s;
    return AppendEvents(w, room_id, &ev).status();
  });
}

absl::Status MatchmakingService::CloseConnection(const std::string& room_id,
                                                 const std::string& player_id,
                                                 const std::string& conn_id) {
  return Tx([&](pqxx::work& w) -> absl::Status {
    w.exec_params("SELECT 1 FROM rooms WHERE id = $1 FOR UPDATE", room_id);
    pqxx::result d = w.exec_params("DELETE FROM connections WHERE id = $1 RETURNING 1", conn_id);
    if (d.empty() || Connected(w, room_id, player_id)) return absl::OkStatus();
    std::vector<v1::RoomEvent> ev;
    if (auto s = Presence(w, room_id, player_id, false, &ev); !s.ok()) return s;
    return AppendEvents(w, room_id, &ev).status();
  });
}

void MatchmakingService::CountConnected(const std::string& player_id, int delta) {
  std::lock_guard<std::mutex> lock(conn_mu_);
  int& n = local_streams_[player_id];
  n += delta;
  if (n <= 0) local_streams_.erase(player_id);
  metrics_->connected_players->Set(static_cast<double>(local_streams_.size()));
}

grpc::Status MatchmakingService::Watch(grpc::ServerContext* ctx, const v1::WatchRequest* req,
                                       grpc::ServerWriter<v1::RoomEvent>* writer) {
  auto caller = Authenticate(ctx, false);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("room_id", req->room_id()); !s.ok()) return ToGrpc(s);
  if (req->after_seq() < 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "after_seq: must be >= 0");
  }
  const std::string& room_id = req->room_id();
  // Subscribe before the first read, so that nothing committed in between is missed.
  auto sub = hub_.Subscribe(room_id);
  absl::Status s = Tx([&](pqxx::work& w) -> absl::Status {
    pqxx::result r = w.exec_params("SELECT seq FROM rooms WHERE id = $1 AND NOT closed", room_id);
    if (r.empty()) return absl::NotFoundError("room not found");
    if (req->after_seq() > r[0][0].as<int64_t>()) {
      return absl::OutOfRangeError(absl::StrCat("after_seq is beyond the room's latest event (",
                                                r[0][0].as<int64_t>(), ")"));
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return ToGrpc(s);

  std::string conn_id;
  if (!caller->id.empty()) {
    conn_id = NewId();
    if (auto st = OpenConnection(room_id, caller->id, conn_id); !st.ok()) return ToGrpc(st);
    CountConnected(caller->id, +1);
  }

  int64_t last = req->after_seq();
  absl::Time last_write = absl::Now();
  grpc::Status result = grpc::Status::OK;
  while (true) {
    if (ctx->IsCancelled()) break;
    if (draining_) {
      result = grpc::Status(grpc::StatusCode::UNAVAILABLE, "server shutting down: reconnect");
      break;
    }
    std::vector<v1::RoomEvent> batch;
    bool closed = false;
    // One autocommit statement: the next events and whether the room has closed.
    absl::Status rs = pool_.Read([&](pqxx::transaction_base& w) {
      batch.clear();
      pqxx::result r = pg::ExecPrepared(
          w, "watch_read",
          "SELECT r.closed, e.body FROM rooms r LEFT JOIN LATERAL (SELECT body, seq FROM events "
          "WHERE room_id = r.id AND seq > $2 ORDER BY seq LIMIT 256) e ON true WHERE r.id = $1 "
          "ORDER BY e.seq",
          room_id, last);
      closed = r.empty() || r[0][0].as<bool>();
      for (const auto& row : r) {
        if (!row[1].is_null()) batch.push_back(Parse<v1::RoomEvent>(row[1]));
      }
      if (!batch.empty()) closed = false;  // deliver what there is first
      return absl::OkStatus();
    });
    if (!rs.ok()) {
      result = grpc::Status(grpc::StatusCode::UNAVAILABLE,
                            absl::StrCat("database: ", rs.message(), "; reconnect"));
      break;
    }
    bool gone = false;
    for (const v1::RoomEvent& e : batch) {
      // Rows are read by seq > last in order, so a stream never skips or repeats.
      if (e.seq() != last + 1) break;  // cannot happen: seqs are gap-free
      if (!writer->Write(e)) {
        gone = true;
        break;
      }
      last = e.seq();
      last_write = absl::Now();
    }
    if (gone) break;
    if (batch.size() == 256) continue;
    if (closed) break;  // the room closed: the stream ends with OK
    if (absl::Now() - last_write >= config_.heartbeat) {
      v1::RoomEvent hb;
      *hb.mutable_time() = ToTimestamp(NowUs());
      hb.mutable_heartbeat();
      if (!writer->Write(hb)) break;
      last_write = absl::Now();
    }
    // Woken by NOTIFY (any replica) or by this replica's own commits; the timeout also
    // notices cancellation and a lost notification.
    sub->Wait(absl::Milliseconds(500));
  }
  if (!conn_id.empty()) {
    CountConnected(caller->id, -1);
    // Best effort: if this fails (database down), the lease expires and any replica
    // sweeps the connection.
    (void)CloseConnection(room_id, caller->id, conn_id);
  }
  return result;
}

}  // namespace tablero::matchmaking
