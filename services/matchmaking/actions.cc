// Resign, draw offers and answers, FIDE draw claims: validated by the rules service and
// committed like moves (same version check, same events).
#include "absl/strings/str_cat.h"
#include "libs/service/request_id.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"

namespace tablero::matchmaking {

grpc::Status MatchmakingService::Act(grpc::ServerContextBase* ctx, const std::string& game_id,
                                     v1::Action action, const std::string& move_text,
                                     const google::protobuf::Int32Value* expected_ply,
                                     v1::GameActionResponse* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("game_id", game_id); !s.ok()) return ToGrpc(s);
  if (move_text.size() > 256) {
    return ToGrpc(absl::InvalidArgumentError("move_text: too long"));
  }
  auto r = ReadGame(pool_, game_id);
  if (!r.ok()) return ToGrpc(r.status());
  GameRow g = std::move(*r);
  int seat = g.SeatOf(caller->id);
  if (absl::Status s = CheckSeated(g, seat); !s.ok()) return ToGrpc(s);
  if (expected_ply != nullptr && expected_ply->value() != g.ply) {
    return ToGrpc(StalePly(absl::StrCat("stale claim: the game is at ply ", g.ply)));
  }
  if (action == v1::ACTION_RESIGN && g.kind == v1::GAME_KIND_SHOGI4) {
    return ToGrpc(absl::FailedPreconditionError("four-player shogi has no resignation"));
  }
  if (action != v1::ACTION_RESIGN && g.kind != v1::GAME_KIND_CHESS) {
    return ToGrpc(absl::FailedPreconditionError("draw offers and claims exist only in chess"));
  }
  auto applied = backends_.Action(g, seat, action, move_text, service::RequestId(*ctx));
  if (!applied.ok()) {
    // The rules say INVALID_ARGUMENT only for malformed claim move text here.
    return ToGrpc(applied.status());
  }
  absl::Status s = commits_.Play(g, seat, *applied, false, resp->mutable_game());
  if (!s.ok()) return ToGrpc(s);
  background_.WakeCpu(resp->game());
  for (const auto& e : applied->events) *resp->add_events() = e;
  return grpc::Status::OK;
}

grpc::Status MatchmakingService::Resign(grpc::ServerContextBase* ctx, const v1::ResignRequest* req,
                                        v1::GameActionResponse* resp) {
  return Act(ctx, req->game_id(), v1::ACTION_RESIGN, "", nullptr, resp);
}

grpc::Status MatchmakingService::OfferDraw(grpc::ServerContextBase* ctx,
                                           const v1::OfferDrawRequest* req,
                                           v1::GameActionResponse* resp) {
  return Act(ctx, req->game_id(), v1::ACTION_OFFER_DRAW, "", nullptr, resp);
}

grpc::Status MatchmakingService::RespondDraw(grpc::ServerContextBase* ctx,
                                             const v1::RespondDrawRequest* req,
                                             v1::GameActionResponse* resp) {
  return Act(ctx, req->game_id(), req->accept() ? v1::ACTION_ACCEPT_DRAW : v1::ACTION_DECLINE_DRAW,
             "", nullptr, resp);
}

grpc::Status MatchmakingService::ClaimDraw(grpc::ServerContextBase* ctx,
                                           const v1::ClaimDrawRequest* req,
                                           v1::GameActionResponse* resp) {
  return Act(ctx, req->game_id(), v1::ACTION_CLAIM_DRAW, req->move_text(),
             req->has_expected_ply() ? &req->expected_ply() : nullptr, resp);
}

}  // namespace tablero::matchmaking
