// tablero.v1.Matchmaking over Postgres. The handlers are spread over one file per area
// (players.cc, rooms.cc, games.cc, actions.cc, watch.cc, history.cc, queue.cc); the
// background work (CPU moves, take-overs, timers, quick-match pairing, the rating outbox)
// is in scheduler.cc, queue.cc and outbox.cc, driven from the database so that any number
// of replicas can run it and exactly one acts on each row.
#ifndef TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
#define TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/pg/pool.h"
#include "libs/service/work_queue.h"
#include "services/matchmaking/feeds.h"
#include "services/matchmaking/hub.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/play.h"
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
  absl::Duration tick = absl::Milliseconds(200);   // background loop period
  int code_failures_per_minute = 20;               // invite-code guesses per peer
  absl::Duration heartbeat = absl::Seconds(15);    // Watch keep-alive
  WatchLimits watch_limits;                        // --watch_max_streams...
  int watch_queue = 256;                           // events a slow Watch reader may lag
  absl::Duration watch_sweep = absl::Seconds(10);  // feeds checked against the database
  int watch_workers = 4;                           // threads opening and closing streams
  int feed_readers = 2;                            // threads reading rooms' new events
  int cpu_workers = 2;                             // CPU moves computed at once
  int db_pool_size = 16;                           // PostgreSQL connections (--db_pool_size)
};

// A Watch stream's row in `connections` lives this long unless its replica renews it.
inline constexpr int kLeaseSeconds = 30;

// The caller, when authenticated.
struct Caller {
  std::string id;
  std::string name;
};

// The unary methods run on the sync server's (bounded) threads; Watch runs on the callback
// API, so an open stream holds no thread (watch_stream.h).
class MatchmakingService final
    : public v1::Matchmaking::WithCallbackMethod_Watch<v1::Matchmaking::Service> {
 public:
  MatchmakingService(Config config, Metrics* metrics);
  ~MatchmakingService() override;

  // Background work and the LISTEN connection; call once the schema is migrated.
  void StartBackground();
  // Ends every Watch stream (UNAVAILABLE) and stops background work: on SIGTERM.
  void Drain();

  // Players.
  grpc::Status CreateGuest(grpc::ServerContext*, const v1::CreateGuestRequest*,
                           v1::CreateGuestResponse*) override;
  grpc::Status UpdateGuest(grpc::ServerContext*, const v1::UpdateGuestRequest*,
                           v1::Player*) override;
  grpc::Status GetMe(grpc::ServerContext*, const v1::GetMeRequest*, v1::GetMeResponse*) override;
  grpc::Status GetPlayers(grpc::ServerContext*, const v1::GetPlayersRequest*,
                          v1::GetPlayersResponse*) override;
  // Rooms.
  grpc::Status CreateRoom(grpc::ServerContext*, const v1::CreateRoomRequest*, v1::Room*) override;
  grpc::Status GetRoom(grpc::ServerContext*, const v1::GetRoomRequest*, v1::Room*) override;
  grpc::Status JoinRoom(grpc::ServerContext*, const v1::JoinRoomRequest*,
                        v1::JoinRoomResponse*) override;
  grpc::Status LeaveRoom(grpc::ServerContext*, const v1::LeaveRoomRequest*,
                         v1::LeaveRoomResponse*) override;
  grpc::Status UpdateRoomSettings(grpc::ServerContext*, const v1::UpdateRoomSettingsRequest*,
                                  v1::Room*) override;
  // Games.
  grpc::Status StartGame(grpc::ServerContext*, const v1::StartGameRequest*, v1::Game*) override;
  grpc::Status Rematch(grpc::ServerContext*, const v1::RematchRequest*, v1::Game*) override;
  grpc::Status GetGame(grpc::ServerContext*, const v1::GetGameRequest*, v1::Game*) override;
  grpc::Status MakeMove(grpc::ServerContext*, const v1::MakeMoveRequest*,
                        v1::MakeMoveResponse*) override;
  grpc::Status ListLegalMoves(grpc::ServerContext*, const v1::ListLegalMovesRequest*,
                              v1::ListLegalMovesResponse*) override;
  grpc::Status Resign(grpc::ServerContext*, const v1::ResignRequest*,
                      v1::GameActionResponse*) override;
  grpc::Status OfferDraw(grpc::ServerContext*, const v1::OfferDrawRequest*,
                         v1::GameActionResponse*) override;
  grpc::Status RespondDraw(grpc::ServerContext*, const v1::RespondDrawRequest*,
                           v1::GameActionResponse*) override;
  grpc::Status ClaimDraw(grpc::ServerContext*, const v1::ClaimDrawRequest*,
                         v1::GameActionResponse*) override;
  // History.
  grpc::Status ListGames(grpc::ServerContext*, const v1::ListPlayerGamesRequest*,
                         v1::ListPlayerGamesResponse*) override;
  grpc::Status GetGameMoves(grpc::ServerContext*, const v1::GetGameMovesRequest*,
                            v1::GetGameMovesResponse*) override;
  grpc::Status ExportPgn(grpc::ServerContext*, const v1::ExportPgnRequest*,
                         v1::ExportPgnResponse*) override;
  // Quick match.
  grpc::Status JoinQueue(grpc::ServerContext*, const v1::JoinQueueRequest*, v1::Ticket*) override;
  grpc::Status GetTicket(grpc::ServerContext*, const v1::GetTicketRequest*, v1::Ticket*) override;
  grpc::Status CancelQueue(grpc::ServerContext*, const v1::CancelQueueRequest*,
                           v1::Ticket*) override;
  // Watching.
  grpc::ServerWriteReactor<v1::RoomEvent>* Watch(grpc::CallbackServerContext* ctx,
                                                 const v1::WatchRequest* req) override;

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
  // Invite-code guessing limit per peer address.
  bool CodeGuessAllowed(const std::string& peer);
  void CodeGuessFailed(const std::string& peer);

  // Watch (watch.cc): the opening work of a stream, off gRPC's threads.
  struct WatchOpen;
  void OpenWatch(const std::shared_ptr<WatchStream>& stream, const WatchOpen& open);
  // Watch presence: a row in `connections` per open stream with a token.
  absl::Status OpenConnection(const std::string& room_id, const std::string& player_id,
                              const std::string& conn_id);
  absl::Status CloseConnection(const std::string& room_id, const std::string& player_id,
                               const std::string& conn_id);

  // Dependencies (backends.cc).
  void ConnectBackends();
  absl::StatusOr<v1::NewGameResponse> RulesNewGame(const v1::NewGameRequest& req);
  absl::StatusOr<Applied> RulesMove(const GameRow& g, const std::string& text,
                                    const v1::Move* structured);
  absl::StatusOr<Applied> RulesAction(const GameRow& g, int seat, v1::Action action,
                                      const std::string& move_text);
  absl::StatusOr<v1::LegalMovesResponse> RulesLegal(const GameRow& g, const std::string& from);
  // The CPU's move for the seat to move: the bot service's, or a random legal one.
  absl::StatusOr<v1::Move> BotMove(const GameRow& g);

  // Resign / draws (actions.cc).
  grpc::Status Act(grpc::ServerContext* ctx, const std::string& game_id, v1::Action action,
                   const std::string& move_text, const google::protobuf::Int32Value* expected_ply,
                   v1::GameActionResponse* resp);

  // Creates and starts a game in a locked room (games.cc).
  absl::Status StartIn(pqxx::transaction_base& w, const v1::Room& room,
                       const std::vector<std::string>& seats, int first_seat, v1::Game* out);

  // Background loops (scheduler.cc).
  void SchedulerLoop();
  void RenewAndSweepConnections();
  void CountActiveGames();
  // cpu.cc: grace expiry, and one CPU move if any is due (false when none was).
  void TakeoverSweep();
  bool PlayOneCpuMove();
  void CpuLoop();
  // Wakes an idle CPU worker at once when a commit here gave the turn to a CPU seat
  // (otherwise the workers look every tick).
  void WakeCpu(const v1::Game& game);
  // queue.cc: pairs waiting tickets; outbox.cc: reports finished ranked games.
  void MatchQueue();
  double RatingOf(const std::string& player, v1::RatingPool pool);
  void DeliverOutbox();
  void CountOutbox();

  Config config_;
  Metrics* metrics_;
  pg::Pool pool_;
  Feeds feeds_;  // this replica's room feeds: every Watch stream reads through them
  Hub hub_;      // wakes the feeds: own commits, other replicas' NOTIFYs
  Watchers watchers_;
  std::unique_ptr<v1::Rules::Stub> rules_;
  std::unique_ptr<v1::Bot::Stub> bot_;
  std::unique_ptr<v1::Rating::Stub> rating_;
  std::atomic<int64_t> bot_failures_{0};
  std::mutex rng_mu_;
  std::mt19937_64 rng_{std::random_device{}()};

  std::mutex auth_mu_;
  absl::flat_hash_map<std::string, Caller> auth_cache_;  // token hash -> player

  std::mutex guess_mu_;
  struct Guesses {
    absl::Time window_start;
    int failures = 0;
  };
  absl::flat_hash_map<std::string, Guesses> guesses_;

  std::mutex cpu_mu_;
  std::condition_variable cpu_cv_;
  int cpu_wakeups_ = 0;

  std::atomic<bool> draining_{false};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  service::WorkQueue watch_work_;  // last: its threads stop first
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
