// tablero.v1.Matchmaking over Postgres: the handlers, one file per area (players.cc,
// rooms.cc, games.cc, actions.cc, watch.cc, history.cc, queue.cc), a thin layer over
// focused parts: who calls (auth.h), the services called (backends.h), every write and
// its publication (commits.h), the background work (background.h), the quick-match
// pairing (pairing.h), and the live fan-out (feeds.h, hub.h, watchers.h, connections.h,
// ticket_watch.h).
#ifndef TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
#define TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/pg/pool.h"
#include "libs/service/rate_limit.h"
#include "libs/service/status.h"
#include "libs/service/work_queue.h"
#include "services/matchmaking/auth.h"
#include "services/matchmaking/backends.h"
#include "services/matchmaking/background.h"
#include "services/matchmaking/commits.h"
#include "services/matchmaking/connections.h"
#include "services/matchmaking/feeds.h"
#include "services/matchmaking/hub.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/play.h"
#include "services/matchmaking/ticket_watch.h"
#include "services/matchmaking/watchers.h"
#include "tablero/v1/matchmaking.grpc.pb.h"

namespace tablero::matchmaking {

namespace v1 = ::tablero::v1;

// absl::Status -> grpc::Status: the one conversion every service uses.
using ::tablero::service::ToGrpc;

struct Config {
  std::string database_url;  // already carrying the search_path
  std::string replica;       // this process's id (connection leases)
  BackendsConfig backends;   // --rules_addr, --bot_addr, --rating_addr, --bot_budget_ms
  PlayConfig play;           // --turn_time_scale, --grace_seconds
  int member_limit = 100;
  int presence_lease_seconds = 30;  // a replica's presence rows outlive it this long
  absl::Duration ticket_abandon = absl::Seconds(60);
  absl::Duration tick = absl::Milliseconds(200);  // background loop period
  int code_failures_per_minute = 20;              // unknown codes per player (or anonymous address)
  int code_failures_per_address = 100;            // unknown codes per client address, per minute
  int guests_per_minute = 30;                     // CreateGuest per client address (0: no limit)
  absl::Duration heartbeat = absl::Seconds(15);   // Watch keep-alive
  WatchLimits watch_limits;                       // --watch_max_streams...
  int watch_queue = 256;                          // events a slow Watch reader may lag
  absl::Duration watch_sweep = absl::Seconds(10);  // feeds checked against the database
  int watch_workers = 4;                           // threads opening and closing streams
  int feed_readers = 2;                            // threads reading rooms' new events
  int cpu_workers = 2;                             // CPU moves computed at once
  int db_pool_size = 16;                           // PostgreSQL connections (--db_pool_size)
  // Answers of creations kept for their retries (AIP-155, --request_id_minutes).
  absl::Duration request_id_ttl = absl::Minutes(10);
};

// The handlers of tablero.v1.Matchmaking; api.h serves them over gRPC's callback API
// (unary handlers on a bounded set of threads, Watch streams on none).
class MatchmakingService final {
 public:
  MatchmakingService(Config config, Metrics* metrics);
  ~MatchmakingService();

  // Background work and the LISTEN connection; call once the schema is migrated.
  void StartBackground();
  // Ends every Watch stream (UNAVAILABLE) and stops background work: on SIGTERM.
  void Drain();

  // Players.
  grpc::Status CreateGuest(grpc::ServerContextBase*, const v1::CreateGuestRequest*,
                           v1::CreateGuestResponse*);
  grpc::Status UpdateGuest(grpc::ServerContextBase*, const v1::UpdateGuestRequest*, v1::Player*);
  grpc::Status GetMe(grpc::ServerContextBase*, const v1::GetMeRequest*, v1::GetMeResponse*);
  grpc::Status GetPlayers(grpc::ServerContextBase*, const v1::GetPlayersRequest*,
                          v1::GetPlayersResponse*);
  // Rooms.
  grpc::Status CreateRoom(grpc::ServerContextBase*, const v1::CreateRoomRequest*, v1::Room*);
  grpc::Status GetRoom(grpc::ServerContextBase*, const v1::GetRoomRequest*, v1::Room*);
  grpc::Status JoinRoom(grpc::ServerContextBase*, const v1::JoinRoomRequest*,
                        v1::JoinRoomResponse*);
  grpc::Status LeaveRoom(grpc::ServerContextBase*, const v1::LeaveRoomRequest*,
                         v1::LeaveRoomResponse*);
  grpc::Status UpdateRoomSettings(grpc::ServerContextBase*, const v1::UpdateRoomSettingsRequest*,
                                  v1::Room*);
  // Games.
  grpc::Status StartGame(grpc::ServerContextBase*, const v1::StartGameRequest*, v1::Game*);
  grpc::Status Rematch(grpc::ServerContextBase*, const v1::RematchRequest*, v1::Game*);
  grpc::Status GetGame(grpc::ServerContextBase*, const v1::GetGameRequest*, v1::Game*);
  grpc::Status MakeMove(grpc::ServerContextBase*, const v1::MakeMoveRequest*,
                        v1::MakeMoveResponse*);
  grpc::Status ListLegalMoves(grpc::ServerContextBase*, const v1::ListLegalMovesRequest*,
                              v1::ListLegalMovesResponse*);
  grpc::Status Resign(grpc::ServerContextBase*, const v1::ResignRequest*, v1::GameActionResponse*);
  grpc::Status OfferDraw(grpc::ServerContextBase*, const v1::OfferDrawRequest*,
                         v1::GameActionResponse*);
  grpc::Status RespondDraw(grpc::ServerContextBase*, const v1::RespondDrawRequest*,
                           v1::GameActionResponse*);
  grpc::Status ClaimDraw(grpc::ServerContextBase*, const v1::ClaimDrawRequest*,
                         v1::GameActionResponse*);
  // History.
  grpc::Status ListPlayerGames(grpc::ServerContextBase*, const v1::ListPlayerGamesRequest*,
                               v1::ListPlayerGamesResponse*);
  grpc::Status GetGameMoves(grpc::ServerContextBase*, const v1::GetGameMovesRequest*,
                            v1::GetGameMovesResponse*);
  grpc::Status ExportPgn(grpc::ServerContextBase*, const v1::ExportPgnRequest*,
                         v1::ExportPgnResponse*);
  // Quick match.
  grpc::Status JoinQueue(grpc::ServerContextBase*, const v1::JoinQueueRequest*, v1::Ticket*);
  grpc::Status GetTicket(grpc::ServerContextBase*, const v1::GetTicketRequest*, v1::Ticket*);
  grpc::Status CancelQueue(grpc::ServerContextBase*, const v1::CancelQueueRequest*, v1::Ticket*);
  // The caller's ticket as it changes (ticket_watch.h); the opening work runs off gRPC's
  // threads.
  grpc::ServerWriteReactor<v1::Ticket>* WatchTicket(grpc::CallbackServerContext* ctx,
                                                    const v1::WatchTicketRequest* req);
  // Watching.
  // A stream waiting for a Watch or WatchBatches call (watch_stream.h), and the call once
  // it arrived, with the request as sent (raw methods: events are written as serialized
  // once per replica).
  std::shared_ptr<WatchStream> NewWatchStream(WriteStarter* starter, WatchFraming framing,
                                              WatchStream::Accepted on_accept);
  void Watch(const std::shared_ptr<WatchStream>& stream);
  const pg::Pool& pool() const { return pool_; }
  // Whether the replica drains (unary calls still queued are refused).
  bool draining() const { return draining_; }

 private:
  // Invite-code guessing limit (service.cc): a lookup counts against its own key (the
  // player, or the client address when anonymous) and the client address's, with a higher
  // limit. One player's wrong codes never refuse another player's.
  struct GuessKeys {
    std::string own, address;
  };
  static GuessKeys GuessKeysOf(const grpc::ServerContextBase& ctx, const Caller& caller);
  bool CodeGuessAllowed(const GuessKeys& keys);
  void CodeGuessFailed(const GuessKeys& keys);

  // Watch (watch.cc): the opening work of a stream, off gRPC's threads.
  struct WatchOpen;
  void OpenWatch(const std::shared_ptr<WatchStream>& stream, const WatchOpen& open);
  // The rest, once the stream's presence row is written (or was not needed): the feed.
  void JoinFeed(const std::shared_ptr<WatchStream>& stream, const WatchOpen& open,
                const std::string& player, bool admitted, bool acquired, absl::Status s);

  // Resign / draws (actions.cc).
  grpc::Status Act(grpc::ServerContextBase* ctx, const std::string& game_id, v1::Action action,
                   const std::string& move_text, const google::protobuf::Int32Value* expected_ply,
                   v1::GameActionResponse* resp);

  // Creates and starts a game in a locked room (games.cc).
  absl::Status StartIn(pqxx::transaction_base& w, ToPublish& pub, const v1::Room& room,
                       const std::vector<std::string>& seats, int first_seat, v1::Game* out);

  // WatchTicket's reads (TicketWatch::Reader): the tickets, WAITING ones renewed.
  std::vector<v1::Ticket> ReadWatchedTickets(const std::vector<std::string>& ids);
  // TicketWatch::Away: the ticket, if WAITING, is no longer present (TicketPresence).
  void MarkTicketAway(const std::string& id);

  Config config_;
  Metrics* metrics_;
  pg::Pool pool_;
  Feeds feeds_;  // this replica's room feeds: every Watch stream reads through them
  // WatchTicket streams; the hub's listener, passing rooms' wake-ups on to feeds_.
  TicketWatch tickets_;
  Hub hub_;  // wakes the feeds: own commits, other replicas' NOTIFYs
  Watchers watchers_;
  Connections connections_;  // presence rows of this replica's streams, written in batches
  Authenticator auth_;
  Backends backends_;
  Commits commits_;  // every write, then its rooms published
  Background background_;

  service::WindowCounter code_failures_;  // by GuessKeys
  service::WindowCounter guests_;         // CreateGuest calls by client address

  std::atomic<bool> draining_{false};
  service::WorkQueue watch_work_;  // last: its threads stop first
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
