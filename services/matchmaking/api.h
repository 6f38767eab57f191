// tablero.v1.Matchmaking over gRPC's callback API: the thin adapter between gRPC and the
// handlers (matchmaking_service.h). A unary call takes no thread of its own while it waits:
// it queues for one of `threads` workers (the handlers block on Postgres and the rules
// service), so a burst of calls waits in line instead of starting a thread each or being
// refused. Measured (watch_scale --phase=burst, 3,000 GetRoom calls at once): the sync
// server started 1,297 threads for them; bounded by a thread quota (256) it refused 2,167
// of them with RESOURCE_EXHAUSTED; this queue answers all of them with `threads` workers
// (benchmarks/matchmaking/README.md). Watch streams hold no thread at all.
#ifndef TABLERO_SERVICES_MATCHMAKING_API_H_
#define TABLERO_SERVICES_MATCHMAKING_API_H_

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>
#include <vector>

#include "libs/service/work_queue.h"
#include "services/matchmaking/matchmaking_service.h"
#include "tablero/v1/matchmaking.grpc.pb.h"

namespace tablero::matchmaking {

// Every unary method: name, request and response types.
#define TABLERO_MATCHMAKING_UNARY(X)                                  \
  X(CreateGuest, CreateGuestRequest, CreateGuestResponse)             \
  X(UpdateGuest, UpdateGuestRequest, Player)                          \
  X(GetMe, GetMeRequest, GetMeResponse)                               \
  X(GetPlayers, GetPlayersRequest, GetPlayersResponse)                \
  X(CreateRoom, CreateRoomRequest, Room)                              \
  X(GetRoom, GetRoomRequest, Room)                                    \
  X(JoinRoom, JoinRoomRequest, JoinRoomResponse)                      \
  X(LeaveRoom, LeaveRoomRequest, LeaveRoomResponse)                   \
  X(UpdateRoomSettings, UpdateRoomSettingsRequest, Room)              \
  X(StartGame, StartGameRequest, Game)                                \
  X(Rematch, RematchRequest, Game)                                    \
  X(GetGame, GetGameRequest, Game)                                    \
  X(MakeMove, MakeMoveRequest, MakeMoveResponse)                      \
  X(ListLegalMoves, ListLegalMovesRequest, ListLegalMovesResponse)    \
  X(Resign, ResignRequest, GameActionResponse)                        \
  X(OfferDraw, OfferDrawRequest, GameActionResponse)                  \
  X(RespondDraw, RespondDrawRequest, GameActionResponse)              \
  X(ClaimDraw, ClaimDrawRequest, GameActionResponse)                  \
  X(ListPlayerGames, ListPlayerGamesRequest, ListPlayerGamesResponse) \
  X(GetGameMoves, GetGameMovesRequest, GetGameMovesResponse)          \
  X(ExportPgn, ExportPgnRequest, ExportPgnResponse)                   \
  X(JoinQueue, JoinQueueRequest, Ticket)                              \
  X(GetTicket, GetTicketRequest, Ticket)                              \
  X(CancelQueue, CancelQueueRequest, Ticket)

// Every method on the callback API but Watch and WatchBatches, which are raw on the async
// API (watch_stream.h says why).
#define TABLERO_MATCHMAKING_CALLBACK_OPEN(Method, Req, Resp) \
  v1::Matchmaking::WithCallbackMethod_##Method <
#define TABLERO_MATCHMAKING_CALLBACK_CLOSE(Method, Req, Resp) >
using MatchmakingApiBase = TABLERO_MATCHMAKING_UNARY(TABLERO_MATCHMAKING_CALLBACK_OPEN)
    v1::Matchmaking::WithCallbackMethod_WatchTicket<
        v1::Matchmaking::WithRawMethod_Watch<v1::Matchmaking::WithRawMethod_WatchBatches<
            v1::Matchmaking::
                Service>>> TABLERO_MATCHMAKING_UNARY(TABLERO_MATCHMAKING_CALLBACK_CLOSE);
#undef TABLERO_MATCHMAKING_CALLBACK_OPEN
#undef TABLERO_MATCHMAKING_CALLBACK_CLOSE

class MatchmakingApi final : public MatchmakingApiBase {
 public:
  // `threads`: unary calls handled at once (--unary_workers).
  MatchmakingApi(MatchmakingService* service, int threads) : service_(service), work_(threads) {}

#define TABLERO_MATCHMAKING_ADAPT(Method, Req, Resp)                                        \
  grpc::ServerUnaryReactor* Method(grpc::CallbackServerContext* ctx, const v1::Req* req,    \
                                   v1::Resp* resp) override {                               \
    return Queue(ctx, [this, ctx, req, resp] { return service_->Method(ctx, req, resp); }); \
  }
  TABLERO_MATCHMAKING_UNARY(TABLERO_MATCHMAKING_ADAPT)
#undef TABLERO_MATCHMAKING_ADAPT

  // Serves Watch and WatchBatches on `queues` (the server's completion queues, after
  // Start): each keeps `per_queue` calls of each method requested, and requests another
  // as each one arrives.
  void ServeWatch(const std::vector<grpc::ServerCompletionQueue*>& queues, int per_queue);

  grpc::ServerWriteReactor<v1::Ticket>* WatchTicket(grpc::CallbackServerContext* ctx,
                                                    const v1::WatchTicketRequest* req) override {
    return service_->WatchTicket(ctx, req);
  }

  // Calls waiting for a worker.
  size_t queued() const { return work_.queued(); }

 private:
  // Runs `handler` on a worker and finishes the call with its status. A call whose client
  // gave up (cancelled, or past its deadline) while it waited is not run.
  grpc::ServerUnaryReactor* Queue(grpc::CallbackServerContext* ctx,
                                  std::function<grpc::Status()> handler);
  void RequestWatchOn(grpc::ServerCompletionQueue* cq, WriteStarter* starter, WatchFraming framing);

  MatchmakingService* service_;
  service::WorkQueue work_;
  std::vector<std::unique_ptr<WriteStarter>> starters_;  // one per Watch queue
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_API_H_
