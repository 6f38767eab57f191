// Calls to the rules and bot services. Their refusals keep their codes (a client's move
// is illegal: FAILED_PRECONDITION...); a dependency that is down is UNAVAILABLE.
#include <grpcpp/grpcpp.h>

#include "absl/strings/str_cat.h"
#include "libs/service/channel.h"
#include "libs/service/log.h"
#include "libs/service/request_id.h"
#include "libs/service/status.h"
#include "services/matchmaking/matchmaking_service.h"

namespace tablero::matchmaking {

namespace {

void Deadline(grpc::ClientContext* ctx, int ms) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(ms));
}

absl::Status FromRules(const grpc::Status& s, absl::string_view what) {
  if (s.ok()) return absl::OkStatus();
  switch (s.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::ABORTED:
      return service::FromGrpc(s);
    default:
      return absl::UnavailableError(
          absl::StrCat(what, " service unavailable: ", s.error_message(), "; retry"));
  }
}

// One call to the rules service (none configured: UNAVAILABLE), 5 s deadline, carrying the
// request id of the call it serves (a new one for background work).
template <typename Req, typename Resp>
absl::Status CallRules(v1::Rules::Stub* rules,
                       grpc::Status (v1::Rules::Stub::*method)(grpc::ClientContext*, const Req&,
                                                               Resp*),
                       const Req& req, Resp* resp, const std::string& request_id) {
  if (rules == nullptr) return absl::UnavailableError("no rules service configured (--rules_addr)");
  grpc::ClientContext ctx;
  Deadline(&ctx, 5000);
  service::Outgoing(&ctx, request_id);
  return FromRules((rules->*method)(&ctx, req, resp), "rules");
}

// What a move or an action answered, taken apart for the commit.
template <typename Resp>
Applied TakeApplied(Resp* resp) {
  Applied a;
  a.state = std::move(*resp->mutable_state());
  a.view = std::move(*resp->mutable_view());
  a.events.assign(resp->events().begin(), resp->events().end());
  a.result = std::move(*resp->mutable_result());
  return a;
}

}  // namespace

void MatchmakingService::ConnectBackends() {
  // Round robin over every replica of each service (libs/service/channel.h).
  if (!config_.rules_addr.empty()) {
    rules_ = v1::Rules::NewStub(service::ServiceChannel(config_.rules_addr));
  }
  if (!config_.bot_addr.empty()) {
    bot_ = v1::Bot::NewStub(service::ServiceChannel(config_.bot_addr));
  }
  if (!config_.rating_addr.empty()) {
    rating_ = v1::Rating::NewStub(service::ServiceChannel(config_.rating_addr));
  }
}

absl::StatusOr<v1::NewGameResponse> MatchmakingService::RulesNewGame(
    const v1::NewGameRequest& req, const std::string& request_id) {
  v1::NewGameResponse resp;
  if (auto s = CallRules(rules_.get(), &v1::Rules::Stub::NewGame, req, &resp, request_id); !s.ok())
    return s;
  return resp;
}

absl::StatusOr<Applied> MatchmakingService::RulesMove(const GameRow& g, const std::string& text,
                                                      const v1::Move* structured,
                                                      const std::string& request_id) {
  v1::ApplyMoveRequest req;
  req.set_kind(g.kind);
  req.set_state(g.state);
  if (structured != nullptr) {
    *req.mutable_structured() = *structured;
  } else {
    req.set_move_text(text);
  }
  req.mutable_expected_ply()->set_value(g.ply);
  v1::ApplyMoveResponse resp;
  if (auto s = CallRules(rules_.get(), &v1::Rules::Stub::ApplyMove, req, &resp, request_id);
      !s.ok()) {
    return s;
  }
  Applied a = TakeApplied(&resp);
  a.moved = true;
  a.move = std::move(*resp.mutable_move());
  return a;
}

absl::StatusOr<Applied> MatchmakingService::RulesAction(const GameRow& g, int seat,
                                                        v1::Action action,
                                                        const std::string& move_text,
                                                        const std::string& request_id) {
  v1::ApplyActionRequest req;
  req.set_kind(g.kind);
  req.set_state(g.state);
  req.set_seat(seat);
  req.set_action(action);
  req.set_move_text(move_text);
  v1::ApplyActionResponse resp;
  if (auto s = CallRules(rules_.get(), &v1::Rules::Stub::ApplyAction, req, &resp, request_id);
      !s.ok()) {
    return s;
  }
  Applied a = TakeApplied(&resp);
  // A claim together with its move: the move is part of the record.
  a.moved = a.view.ply() > g.ply && a.view.has_last_move();
  if (a.moved) a.move = a.view.last_move();
  return a;
}

absl::StatusOr<v1::LegalMovesResponse> MatchmakingService::RulesLegal(
    const GameRow& g, const std::string& from, const std::string& request_id) {
  v1::LegalMovesRequest req;
  req.set_kind(g.kind);
  req.set_state(g.state);
  req.set_from_square(from);
  v1::LegalMovesResponse resp;
  if (auto s = CallRules(rules_.get(), &v1::Rules::Stub::LegalMoves, req, &resp, request_id);
      !s.ok()) {
    return s;
  }
  return resp;
}

absl::StatusOr<v1::Move> MatchmakingService::BotMove(const GameRow& g) {
  if (bot_ != nullptr) {
    grpc::ClientContext ctx;
    Deadline(&ctx, config_.bot_budget_ms + 5000);
    service::Outgoing(&ctx, "");
    v1::ChooseMoveRequest req;
    req.set_kind(g.kind);
    req.set_state(g.state);
    req.set_level(g.cpu_level);
    req.set_budget_ms(config_.bot_budget_ms);
    v1::ChooseMoveResponse resp;
    grpc::Status s = bot_->ChooseMove(&ctx, req, &resp);
    if (s.ok()) return resp.move();
    if (bot_failures_++ % 100 == 0) {
      service::LogWarn("bot service failed; playing a random legal move",
                       {{"error", s.error_message()}});
    }
  }
  // No bot answer: a random legal move keeps the game going rather than stalling it.
  auto legal = RulesLegal(g, "");
  if (!legal.ok()) return legal.status();
  if (legal->moves_size() == 0) return absl::FailedPreconditionError("no legal move");
  absl::MutexLock lock(&rng_mu_);
  return legal->moves(static_cast<int>(rng_() % legal->moves_size()));
}

}  // namespace tablero::matchmaking
