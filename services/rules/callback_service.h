// tablero.v1.Rules over gRPC's callback API: each call runs RulesService's handler inline
// on gRPC's own threads (no hand-off to a sync-server worker pool), with the request and
// the answer in one protobuf arena per call whose first 16 KiB live in the call's holder.
//
// Why: under load (benchmarks/rules_load), the sync server spent about as much CPU
// around a move's handler as the handler itself (thread hand-offs, cold caches, one heap
// allocation per piece and string of the answer); see benchmarks/README-rules.md.
//
// ApplyMove, the hot call, is a raw method: its request bytes go to
// RulesService::ApplyMoveBytes (services/rules/request.h reads the common shape, protobuf
// the others), and the answer is written as wire bytes straight from the engine's view
// (services/rules/wire.h), the same bytes the typed answer
// serializes to, without building ~60 nested messages and their strings first.
#ifndef TABLERO_SERVICES_RULES_CALLBACK_SERVICE_H_
#define TABLERO_SERVICES_RULES_CALLBACK_SERVICE_H_

#include <google/protobuf/arena.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/support/message_allocator.h>

#include <string>

#include "services/rules/answer_pool.h"
#include "services/rules/rules_service.h"
#include "tablero/v1/rules.grpc.pb.h"

namespace tablero::rules {

// Request and answer of one call on an arena with an inline first block.
template <typename Req, typename Resp>
class ArenaAllocator final : public grpc::MessageAllocator<Req, Resp> {
 public:
  grpc::MessageHolder<Req, Resp>* AllocateMessages() override { return new Holder; }

 private:
  class Holder final : public grpc::MessageHolder<Req, Resp> {
   public:
    Holder() : arena_(Options(block_, sizeof block_)) {
      this->set_request(google::protobuf::Arena::CreateMessage<Req>(&arena_));
      this->set_response(google::protobuf::Arena::CreateMessage<Resp>(&arena_));
    }
    void Release() override { delete this; }

   private:
    static google::protobuf::ArenaOptions Options(char* block, size_t size) {
      google::protobuf::ArenaOptions o;
      o.initial_block = block;
      o.initial_block_size = size;
      return o;
    }
    alignas(16) char block_[16 << 10];
    google::protobuf::Arena arena_;
  };
};

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
    reactor->Finish(RawApplyMove(ctx, *request, response));
    return reactor;
  }

 private:
  grpc::Status RawApplyMove(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer& request,
                            grpc::ByteBuffer* response) {
    // The request in one piece (a request this size is one slice: no copy).
    grpc::Slice in;
    if (!request.TrySingleSlice(&in).ok() && !request.DumpToSingleSlice(&in).ok()) {
      return grpc::Status(grpc::StatusCode::INTERNAL, "failed to read the ApplyMove request");
    }
    const absl::string_view bytes(reinterpret_cast<const char*>(in.begin()), in.size());
    // The answer is written into a pooled buffer that gRPC sends without a copy.
    AnswerPool::Buffer* answer = Answers()->Take();
    grpc::Status s = impl_->ApplyMoveBytes(ctx, bytes, &answer->bytes);
    if (!s.ok()) {
      Answers()->Return(answer);
      return s;
    }
    AnswerPool::Send(answer, response);
    return grpc::Status();
  }

  // One for the process, never destroyed: gRPC may still hold an answer's bytes while a
  // server shuts down.
  static AnswerPool* Answers() {
    static auto* pool = new AnswerPool;
    return pool;
  }
  RulesService* impl_;
  ArenaAllocator<v1::LegalMovesRequest, v1::LegalMovesResponse> legal_alloc_;
  ArenaAllocator<v1::ApplyActionRequest, v1::ApplyActionResponse> action_alloc_;
  ArenaAllocator<v1::NewGameRequest, v1::NewGameResponse> new_alloc_;
};

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_CALLBACK_SERVICE_H_
