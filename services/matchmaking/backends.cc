#include "services/matchmaking/backends.h"

#include <grpcpp/grpcpp.h>

#include "absl/strings/str_cat.h"
#include "libs/service/channel.h"
#include "libs/service/log.h"
#include "libs/service/request_id.h"
#include "libs/service/status.h"

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

Backends::Backends(const BackendsConfig& config) : bot_budget_ms_(config.bot_budget_ms) {
  // Round robin over every replica of each service (libs/service/channel.h).
  if (!config.rules_addr.empty()) {
    rules_ = v1::Rules::NewStub(service::ServiceChannel(config.rules_addr));
  }
  if (!config.bot_addr.empty()) {
    bot_ = v1::Bot::NewStub(service::ServiceChannel(config.bot_addr));
  }
  if (!config.rating_addr.empty()) {
    rating_ = v1::Rating::NewStub(service::ServiceChannel(config.rating_addr));
  }
}

absl::StatusOr<v1::NewGameResponse> Backends::NewGame(const v1::NewGameRequest& req,
                                                      const std::string& request_id) {
  v1::NewGameResponse resp;
  if (auto s = CallRules(rules_.get(), &v1::Rules::Stub::NewGame, req, &resp, request_id); !s.ok())
    return s;
  return resp;
}

absl::StatusOr<Applied> Backends::Move(const GameRow& g, const std::string& text,
                                       const v1::Move* structured, const std::string& request_id) {
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

absl::StatusOr<Applied> Backends::Action(const GameRow& g, int seat, v1::Action action,
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

absl::StatusOr<v1::LegalMovesResponse> Backends::Legal(const GameRow& g, const std::string& from,
                                                       const std::string& request_id) {
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

absl::StatusOr<v1::Move> Backends::BotMove(const GameRow& g) {
  if (bot_ != nullptr) {
    grpc::ClientContext ctx;
    Deadline(&ctx, bot_budget_ms_ + 5000);
    service::Outgoing(&ctx, "");
    v1::ChooseMoveRequest req;
    req.set_kind(g.kind);
    req.set_state(g.state);
    req.set_level(g.cpu_level);
    req.set_budget_ms(bot_budget_ms_);
    v1::ChooseMoveResponse resp;
    grpc::Status s = bot_->ChooseMove(&ctx, req, &resp);
    if (s.ok()) return resp.move();
    if (bot_failures_++ % 100 == 0) {
      service::LogWarn("bot service failed; playing a random legal move",
                       {{"error", s.error_message()}});
    }
  }
  // No bot answer: a random legal move keeps the game going rather than stalling it.
  auto legal = Legal(g, "");
  if (!legal.ok()) return legal.status();
  if (legal->moves_size() == 0) return absl::FailedPreconditionError("no legal move");
  absl::MutexLock lock(&rng_mu_);
  return legal->moves(static_cast<int>(rng_() % legal->moves_size()));
}

absl::StatusOr<v1::ExportResponse> Backends::Export(const v1::ExportRequest& req,
                                                    const std::string& request_id) {
  v1::ExportResponse resp;
  if (auto s = CallRules(rules_.get(), &v1::Rules::Stub::Export, req, &resp, request_id); !s.ok())
    return s;
  return resp;
}

double Backends::RatingOf(const std::string& player, v1::RatingPool pool) {
  if (rating_ == nullptr) return 1500;
  grpc::ClientContext ctx;
  Deadline(&ctx, 2000);
  service::Outgoing(&ctx, "");
  v1::GetRatingsRequest req;
  req.set_player_id(player);
  v1::GetRatingsResponse resp;
  if (!rating_->GetRatings(&ctx, req, &resp).ok()) return 1500;  // unrated: the default
  for (const auto& r : resp.ratings()) {
    if (r.pool() == pool) return r.rating();
  }
  return 1500;
}

grpc::Status Backends::ReportGame(const v1::ReportGameRequest& req) {
  if (rating_ == nullptr) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "no rating service configured");
  }
  grpc::ClientContext ctx;
  Deadline(&ctx, 5000);
  service::Outgoing(&ctx, "");
  v1::ReportGameResponse resp;
  return rating_->ReportGame(&ctx, req, &resp);
}

}  // namespace tablero::matchmaking
