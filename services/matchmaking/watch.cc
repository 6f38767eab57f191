// Watch: the room's event log from a sequence number on, then live events, with the
// stream's presence (an open stream with a seated player's token keeps the seat
// connected). The handler only checks the request and queues the opening work
// (authentication, limits, presence, backlog: database round trips) for the watch
// workers; the stream itself is a WatchStream fed by the room's feed (feeds.h).
#include <optional>

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

namespace {

// The client's address without the port, for the per-address stream limit.
std::string WatchAddress(const grpc::CallbackServerContext& ctx) {
  std::string peer = ctx.peer();  // "ipv4:127.0.0.1:5555" / "ipv6:[::1]:5555"
  const size_t colon = peer.rfind(':');
  return colon == std::string::npos ? peer : peer.substr(0, colon);
}

}  // namespace

struct MatchmakingService::WatchOpen {
  std::string room_id;
  int64_t after_seq = 0;
  std::optional<std::string> authorization;
  std::string address;
};

grpc::ServerWriteReactor<v1::RoomEvent>* MatchmakingService::Watch(grpc::CallbackServerContext* ctx,
                                                                   const v1::WatchRequest* req) {
  std::shared_ptr<WatchStream> stream =
      WatchStream::Create(req->room_id(), req->after_seq(), config_.watch_queue, metrics_);
  absl::Status bad = CheckId("room_id", req->room_id());
  if (bad.ok() && req->after_seq() < 0) bad = absl::InvalidArgumentError("after_seq: must be >= 0");
  if (bad.ok() && draining_) bad = absl::UnavailableError("server shutting down: reconnect");
  if (!bad.ok()) {
    stream->End(ToGrpc(bad), WatchEnd::kRefused);
    stream->MarkOpened(nullptr);
    return stream.get();
  }
  // What the opening work needs is copied: it runs on another thread.
  WatchOpen open{req->room_id(), req->after_seq(), std::nullopt, WatchAddress(*ctx)};
  const auto& md = ctx->client_metadata();
  if (auto it = md.find("authorization"); it != md.end()) {
    open.authorization = std::string(it->second.data(), it->second.size());
  }
  watch_work_.Post([this, stream, open = std::move(open)] { OpenWatch(stream, open); });
  return stream.get();
}

void MatchmakingService::OpenWatch(const std::shared_ptr<WatchStream>& stream,
                                   const WatchOpen& open) {
  std::string player, conn_id;
  bool admitted = false;
  absl::Status s;
  auto caller = AuthenticateHeader(open.authorization, false);
  if (!caller.ok()) {
    s = caller.status();
  } else {
    player = caller->id;
    s = watchers_.Admit(stream, player, open.address);
    admitted = s.ok();
  }
  if (s.ok() && !stream->ended()) {
    s = pool_.Read([&](pqxx::transaction_base& t) -> absl::Status {
      pqxx::result r = pg::ExecPrepared(
          t, "watch_room", "SELECT seq FROM rooms WHERE id = $1 AND NOT closed", open.room_id);
      if (r.empty()) return absl::NotFoundError("room not found");
      const int64_t seq = r[0][0].as<int64_t>();
      if (open.after_seq > seq) {
        return absl::OutOfRangeError(
            absl::StrCat("after_seq is beyond the room's latest event (", seq, ")"));
      }
      return absl::OkStatus();
    });
  }
  if (s.ok() && !stream->ended() && !player.empty()) {
    conn_id = NewId();
    s = OpenConnection(open.room_id, player, conn_id);
    if (!s.ok()) conn_id.clear();
  }
  if (s.ok() && !stream->ended()) s = feeds_.Join(open.room_id, stream, open.after_seq);
  if (!s.ok()) {
    const bool db = s.code() == absl::StatusCode::kUnavailable ||
                    s.code() == absl::StatusCode::kDeadlineExceeded;
    stream->End(
        ToGrpc(db ? absl::UnavailableError("database unavailable: retry Watch shortly") : s),
        db ? WatchEnd::kUnavailable : WatchEnd::kRefused);
  } else if (draining_) {
    stream->End(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server shutting down: reconnect"),
                WatchEnd::kShutdown);
  }
  // Once gRPC is done with the stream (now, or when it ends later): out of its feed and
  // the counts, and its presence row deleted off gRPC's threads.
  WatchStream* raw = stream.get();
  stream->MarkOpened(
      [this, raw, room = open.room_id, address = open.address, player, conn_id, admitted] {
        feeds_.Leave(room, raw);
        if (admitted) watchers_.Remove(raw, player, address);
        if (!conn_id.empty()) {
          // Best effort: if this fails (database down), the lease expires and any replica
          // sweeps the connection.
          watch_work_.Post(
              [this, room, player, conn_id] { (void)CloseConnection(room, player, conn_id); });
        }
      });
}

}  // namespace tablero::matchmaking
