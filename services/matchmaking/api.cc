#include "services/matchmaking/api.h"

namespace tablero::matchmaking {

grpc::ServerUnaryReactor* MatchmakingApi::Queue(grpc::CallbackServerContext* ctx,
                                                std::function<grpc::Status()> handler) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  // ctx, the request and the response live until the reactor is finished.
  work_.Post([ctx, reactor, handler = std::move(handler)] {
    if (ctx->IsCancelled()) {
      reactor->Finish(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled while queued"));
      return;
    }
    reactor->Finish(handler());
  });
  return reactor;
}

}  // namespace tablero::matchmaking
