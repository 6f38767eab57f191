// tablero.v1.Matchmaking over Postgres. The handlers are spread over one file per area
// (players.cc, rooms.cc, games.cc, actions.cc, watch.cc, history.cc, queue.cc); the
// background work (CPU moves, take-overs, timers, quick-match pairing, the rating outbox)
// is in scheduler.cc, queue.cc and outbox.cc, driven from the database so that any number
// of replicas can run it and exactly one acts on each row.
#ifndef TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
#define TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "libs/pg/pool.h"
#include "libs/service/rate_limit.h"
#include "libs/service/work_queue.h"
#include "services/matchmaking/connections.h"
#include "services/matchmaking/feeds.h"
#include "services/matchmaking/hub.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/play.h"
#include "services/matchmaking/ticket_watch.h"
#include "services/matchmaking/watchers.h"
#include "tablero/v1/bot.grpc.pb.h"
#include "tablero/v1/matchmaking.grpc.pb.h"
#include "tablero/v1/rating.grpc.pb.h"
#include "tablero/v1/rules.grpc.pb.h"

namespace tablero::matchmaking {

namespace v1 = ::tablero::v1;

struct Config {
  std::string database_url;  // already carrying the search_path
  std::string replica;       // this process's id (connection leases)
  std::string rules_addr, bot_addr, rating_addr;
  int member_limit = 100;
  absl::Duration ticket_abandon = absl::Seconds(60);
  int bot_budget_ms = 300;
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

// A Watch stream's row in `connections` lives this long unless its replica renews it.
inline constexpr int kLeaseSeconds = 30;

// The caller, when authenticated.
struct Caller {
  std::string id;
  std::string name;
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
  // A stream waiting for a Watch call (watch_stream.h), and the call once it arrived, with
  // the request as sent (a raw method: events are written as serialized once per replica).
  std::shared_ptr<WatchStream> NewWatchStream(WatchStream::Accepted on_accept);
  void Watch(const std::shared_ptr<WatchStream>& stream);
  const pg::Pool& pool() const { return pool_; }
  // Whether the replica drains (unary calls still queued are refused).
  bool draining() const { return draining_; }

 private:
  // pool_.Tx, then the rooms whose events it appended are published to the watchers
  // (this replica's at once, the others' by NOTIFY): every transaction here goes through it.
  absl::Status Tx(const std::function<absl::Status(pqxx::work&)>& fn);
  // Reads the bearer token. required: missing -> UNAUTHENTICATED; optional: missing ->
  // an empty Caller. A present but unknown token is UNAUTHENTICATED either way.
  absl::StatusOr<Caller> Authenticate(grpc::ServerContextBase* ctx, bool required);
  // The same from the authorization header's value (nullopt: none was sent).
  absl::StatusOr<Caller> AuthenticateHeader(const std::optional<std::string>& header,
                                            bool required);
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

  // Dependencies (backends.cc). `request_id`: of the call being served (service::RequestId);
  // empty for background work, which gets a new one per call.
  void ConnectBackends();
  absl::StatusOr<v1::NewGameResponse> RulesNewGame(const v1::NewGameRequest& req,
                                                   const std::string& request_id = "");
  absl::StatusOr<Applied> RulesMove(const GameRow& g, const std::string& text,
                                    const v1::Move* structured, const std::string& request_id = "");
  absl::StatusOr<Applied> RulesAction(const GameRow& g, int seat, v1::Action action,
                                      const std::string& move_text,
                                      const std::string& request_id = "");
  absl::StatusOr<v1::LegalMovesResponse> RulesLegal(const GameRow& g, const std::string& from,
                                                    const std::string& request_id = "");
  // The CPU's move for the seat to move: the bot service's, or a random legal one.
  absl::StatusOr<v1::Move> BotMove(const GameRow& g);

  // The one door for a move or action the rules service applied (play.h CommitPlay), then
  // the room's events published and the commit counted (service.cc).
  absl::Status CommitAndPublish(const GameRow& g, int seat, const Applied& a, bool by_cpu,
                                v1::Game* out);

  // Resign / draws (actions.cc).
  grpc::Status Act(grpc::ServerContextBase* ctx, const std::string& game_id, v1::Action action,
                   const std::string& move_text, const google::protobuf::Int32Value* expected_ply,
                   v1::GameActionResponse* resp);

  // Creates and starts a game in a locked room (games.cc).
  absl::Status StartIn(pqxx::transaction_base& w, const v1::Room& room,
                       const std::vector<std::string>& seats, int first_seat, v1::Game* out);

  // Background loops (scheduler.cc).
  void SchedulerLoop();
  void RenewAndSweepConnections();
  void CountActiveGames();
  // Which background work is due, in one statement per tick (scheduler.cc).
  struct DueWork {
    int cpu_moves = 0;       // CPU turns due and unclaimed (at most cpu_workers)
    bool tickets = false;    // quick-match tickets waiting
    bool outbox = false;     // rating reports due
    bool takeovers = false;  // seats whose player is away past the grace period
  };
  absl::StatusOr<DueWork> ProbeWork();
  // cpu.cc: grace expiry, and one CPU move if any is due (false when none was).
  void TakeoverSweep();
  bool PlayOneCpuMove();
  // A CPU worker: asleep until woken, then plays CPU moves until none is due.
  void CpuLoop();
  // Wakes up to n CPU workers.
  void WakeCpuWorkers(int n);
  // Wakes a CPU worker at once when a commit here gave the turn to a CPU seat (otherwise
  // the scheduler's next probe finds the move due).
  void WakeCpu(const v1::Game& game);
  // queue.cc: pairs waiting tickets; outbox.cc: reports finished ranked games.
  void MatchQueue();
  // WatchTicket's reads (TicketWatch::Reader): the tickets, WAITING ones renewed.
  std::vector<v1::Ticket> ReadWatchedTickets(const std::vector<std::string>& ids);
  double RatingOf(const std::string& player, v1::RatingPool pool);
  void DeliverOutbox();
  void CountOutbox();

  Config config_;
  Metrics* metrics_;
  pg::Pool pool_;
  Feeds feeds_;  // this replica's room feeds: every Watch stream reads through them
  // WatchTicket streams; the hub's listener, passing rooms' wake-ups on to feeds_.
  TicketWatch tickets_;
  Hub hub_;  // wakes the feeds: own commits, other replicas' NOTIFYs
  Watchers watchers_;
  Connections connections_;  // presence rows of this replica's streams, written in batches
  std::unique_ptr<v1::Rules::Stub> rules_;
  std::unique_ptr<v1::Bot::Stub> bot_;
  std::unique_ptr<v1::Rating::Stub> rating_;
  std::atomic<int64_t> bot_failures_{0};
  absl::Mutex rng_mu_;
  std::mt19937_64 rng_ ABSL_GUARDED_BY(rng_mu_){std::random_device{}()};

  absl::Mutex auth_mu_;
  // token hash -> player
  absl::flat_hash_map<std::string, Caller> auth_cache_ ABSL_GUARDED_BY(auth_mu_);

  service::WindowCounter code_failures_;  // by GuessKeys
  service::WindowCounter guests_;         // CreateGuest calls by client address

  absl::Mutex cpu_mu_;
  absl::CondVar cpu_cv_;
  int cpu_wakeups_ ABSL_GUARDED_BY(cpu_mu_) = 0;

  std::atomic<bool> draining_{false};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  service::WorkQueue watch_work_;  // last: its threads stop first
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
