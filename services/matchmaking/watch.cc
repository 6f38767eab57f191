// Watch: the room's event log from a sequence number on, then live events, with the
// stream's presence (an open stream with a seated player's token keeps the seat
// connected; rows are written in batches, connections.h). The handler only checks the request and
// queues the opening work (authentication, limits, presence, backlog: database round trips) for the
// watch workers; the stream itself is a WatchStream fed by the room's feed (feeds.h).
#include <optional>

#include "absl/strings/str_cat.h"
#include "libs/pg/prepared.h"
#include "libs/service/client_address.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/seating.h"

namespace tablero::matchmaking {

struct MatchmakingService::WatchOpen {
  std::string room_id;
  int64_t after_seq = 0;
  std::optional<std::string> authorization;
  std::string address;
};

std::shared_ptr<WatchStream> MatchmakingService::NewWatchStream(WriteStarter* starter,
                                                                WatchFraming framing,
                                                                WatchStream::Accepted on_accept) {
  return WatchStream::Create(config_.watch_queue, framing, metrics_, starter, std::move(on_accept));
}

void MatchmakingService::Watch(const std::shared_ptr<WatchStream>& stream) {
  v1::WatchRequest req;
  grpc::Slice bytes;
  const bool parsed_ok = stream->request()->DumpToSingleSlice(&bytes).ok() &&
                         req.ParseFromArray(bytes.begin(), static_cast<int>(bytes.size()));
  stream->Open(req.room_id(), req.after_seq());
  absl::Status bad = parsed_ok ? CheckId("room_id", req.room_id())
                               : absl::InvalidArgumentError(
                                     "the request is not a tablero.v1.WatchRequest (malformed "
                                     "bytes, or a string that is not UTF-8)");
  if (bad.ok() && req.after_seq() < 0) bad = absl::InvalidArgumentError("after_seq: must be >= 0");
  if (bad.ok() && draining_) bad = absl::UnavailableError("server shutting down: reconnect");
  if (!bad.ok()) {
    stream->End(ToGrpc(bad), WatchEnd::kRefused);
    stream->MarkOpened(nullptr);
    return;
  }
  // What the opening work needs is copied: it runs on another thread.
  const grpc::ServerContext& ctx = *stream->context();
  WatchOpen open{req.room_id(), req.after_seq(), std::nullopt, service::ClientAddress(ctx)};
  const auto& md = ctx.client_metadata();
  if (auto it = md.find("authorization"); it != md.end()) {
    open.authorization = std::string(it->second.data(), it->second.size());
  }
  watch_work_.Post([this, stream, open = std::move(open)] { OpenWatch(stream, open); });
}

void MatchmakingService::OpenWatch(const std::shared_ptr<WatchStream>& stream,
                                   const WatchOpen& open) {
  std::string player;
  bool admitted = false;
  absl::Status s;
  auto caller = auth_.AuthenticateHeader(open.authorization, false);
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
    // The presence row is written with other streams' in one batch; the rest of the
    // opening work goes back to the watch workers.
    connections_.Acquire(open.room_id, player,
                         [this, stream, open, player, admitted](absl::Status st) {
                           watch_work_.Post([this, stream, open, player, admitted, st] {
                             JoinFeed(stream, open, player, admitted, true, st);
                           });
                         });
    return;
  }
  JoinFeed(stream, open, player, admitted, false, s);
}

void MatchmakingService::JoinFeed(const std::shared_ptr<WatchStream>& stream, const WatchOpen& open,
                                  const std::string& player, bool admitted, bool acquired,
                                  absl::Status s) {
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
  // Once gRPC is done with the stream (now, or when it ends later): out of its feed, the
  // counts and the presence rows (the batch deletes the row when it was the pair's last).
  WatchStream* raw = stream.get();
  stream->MarkOpened(
      [this, raw, room = open.room_id, address = open.address, player, admitted, acquired] {
        feeds_.Leave(room, raw);
        if (admitted) watchers_.Remove(raw, player, address);
        if (acquired) connections_.Release(room, player);
      });
}

}  // namespace tablero::matchmaking
