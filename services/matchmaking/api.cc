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

void MatchmakingApi::ServeWatch(const std::vector<grpc::ServerCompletionQueue*>& queues,
                                int per_queue) {
  for (grpc::ServerCompletionQueue* cq : queues) {
    starters_.push_back(std::make_unique<WriteStarter>(cq));
    for (int i = 0; i < per_queue; ++i) {
      RequestWatchOn(cq, starters_.back().get(), WatchFraming::kEvent);
      RequestWatchOn(cq, starters_.back().get(), WatchFraming::kBatch);
    }
  }
}

void MatchmakingApi::RequestWatchOn(grpc::ServerCompletionQueue* cq, WriteStarter* starter,
                                    WatchFraming framing) {
  std::shared_ptr<WatchStream> s = service_->NewWatchStream(
      starter, framing,
      [this, cq, starter, framing](bool ok, const std::shared_ptr<WatchStream>& stream) {
        if (!ok) return;  // the server is shutting down
        RequestWatchOn(cq, starter, framing);
        service_->Watch(stream);
      });
  if (framing == WatchFraming::kBatch) {
    RequestWatchBatches(s->context(), s->request(), s->writer(), cq, cq, s->accept_tag());
  } else {
    RequestWatch(s->context(), s->request(), s->writer(), cq, cq, s->accept_tag());
  }
}

}  // namespace tablero::matchmaking
