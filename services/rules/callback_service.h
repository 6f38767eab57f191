// tablero.v1.Rules over gRPC's callback API: each call runs RulesService's handler inline
// on gRPC's own threads (no hand-off to a sync-server worker pool). The typed calls keep
// their messages on an arena per call (fast/arena_allocator.h); ApplyMove, the hot call,
// is raw: its bytes go to RulesService::ApplyMoveBytes, the fast path (fast/fast_path.h).
#ifndef TABLERO_SERVICES_RULES_CALLBACK_SERVICE_H_
#define TABLERO_SERVICES_RULES_CALLBACK_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <string>

#include "services/rules/fast/arena_allocator.h"
#include "services/rules/fast/raw_call.h"
#include "services/rules/rules_service.h"
#include "tablero/v1/rules.grpc.pb.h"

namespace tablero::rules {

class RulesCallbackService final
    : public v1::Rules::WithRawCallbackMethod_ApplyMove<v1::Rules::CallbackService> {
 public:
  explicit RulesCallbackService(RulesService* impl) : impl_(impl) {
    SetMessageAllocatorFor_LegalMoves(&legal_alloc_);
    SetMessageAllocatorFor_ApplyAction(&action_alloc_);
    SetMessageAllocatorFor_NewGame(&new_alloc_);
  }

#define TABLERO_RULES_UNARY(Method, Req, Resp)                                           \
  grpc::ServerUnaryReactor* Method(grpc::CallbackServerContext* ctx, const v1::Req* req, \
                                   v1::Resp* resp) override {                            \
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();                           \
    reactor->Finish(impl_->Method(ctx, req, resp));                                      \
    return reactor;                                                                      \
  }
  TABLERO_RULES_UNARY(ListGames, ListGamesRequest, ListGamesResponse)
  TABLERO_RULES_UNARY(NewGame, NewGameRequest, NewGameResponse)
  TABLERO_RULES_UNARY(LegalMoves, LegalMovesRequest, LegalMovesResponse)
  TABLERO_RULES_UNARY(ApplyAction, ApplyActionRequest, ApplyActionResponse)
  TABLERO_RULES_UNARY(ValidateState, ValidateStateRequest, ValidateStateResponse)
  TABLERO_RULES_UNARY(Export, ExportRequest, ExportResponse)
  TABLERO_RULES_UNARY(Ping, RulesPingRequest, RulesPingResponse)
#undef TABLERO_RULES_UNARY

  grpc::ServerUnaryReactor* ApplyMove(grpc::CallbackServerContext* ctx,
                                      const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    reactor->Finish(
        fast::ServeRaw(*request, response, [&](absl::string_view bytes, std::string* answer) {
          return impl_->ApplyMoveBytes(ctx, bytes, answer);
        }));
    return reactor;
  }

 private:
  RulesService* impl_;
  fast::ArenaAllocator<v1::LegalMovesRequest, v1::LegalMovesResponse> legal_alloc_;
  fast::ArenaAllocator<v1::ApplyActionRequest, v1::ApplyActionResponse> action_alloc_;
  fast::ArenaAllocator<v1::NewGameRequest, v1::NewGameResponse> new_alloc_;
};

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_CALLBACK_SERVICE_H_
