#include "services/bot/bot_service.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/bot/bot.h"
#include "libs/bot/levels.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "libs/service/status.h"

namespace tablero::bot {

namespace {

// Time kept back from a gRPC deadline for decoding, encoding and the network.
constexpr int kDeadlineMarginMs = 50;

grpc::Status Invalid(const std::string& msg) {
  return service::ToGrpc(absl::InvalidArgumentError(msg));
}

// A refusal from the registry or libs/bot, as the client gets it: its code and any reason
// kept (service::ToGrpc); a malformed input's message names the field it came from, once
// (most of the registry's messages about a state already start with "state: ").
grpc::Status Refused(const absl::Status& s, absl::string_view field) {
  if (s.code() != absl::StatusCode::kInvalidArgument ||
      absl::StartsWith(s.message(), absl::StrCat(field, ": "))) {
    return service::ToGrpc(s);
  }
  absl::Status named(s.code(), absl::StrCat(field, ": ", s.message()));
  s.ForEachPayload(
      [&](absl::string_view url, const absl::Cord& payload) { named.SetPayload(url, payload); });
  return service::ToGrpc(named);
}

void FillMove(const game::Move& m, tablero::v1::Move* out) {
  out->set_seat(m.seat);
  for (const auto& sq : m.path) out->add_path(sq);
  out->set_drop(m.drop);
  out->set_promotion(m.promotion);
  out->set_notation(m.notation);
  out->set_display(m.display);
}

}  // namespace

static_assert(games::kKindSlots <= 4, "BotService's per-kind arrays need a slot per GameKind");

BotService::BotService(prometheus::Registry& registry, int max_budget_ms)
    : max_budget_ms_(std::max(1, max_budget_ms)) {
  auto& think = prometheus::BuildHistogram()
                    .Name("tablero_bot_think_seconds")
                    .Help("Time the bot spent choosing a move, by game")
                    .Register(registry);
  auto& overruns = prometheus::BuildCounter()
                       .Name("tablero_bot_budget_overruns_total")
                       .Help("Moves that took longer than their thinking budget, by game")
                       .Register(registry);
  const prometheus::Histogram::BucketBoundaries buckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                           0.5,   1,    2.5,   5,    10,  30};
  for (const games::KindRow& row : games::kKinds) {
    const std::string name(games::KindName(row.proto));
    think_[int(row.engine)] = &think.Add({{"kind", name}}, buckets);
    overruns_[int(row.engine)] = &overruns.Add({{"kind", name}});
  }
}

grpc::Status BotService::ChooseMove(grpc::ServerContext* context,
                                    const tablero::v1::ChooseMoveRequest* request,
                                    tablero::v1::ChooseMoveResponse* response) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto kind = games::KindFromProto(request->kind());
  if (!kind.ok()) return service::ToGrpc(kind.status());
  if (request->level() < kMinLevel || request->level() > kMaxLevel) {
    return Invalid(
        absl::StrCat("level: ", request->level(), " is outside ", kMinLevel, "..", kMaxLevel));
  }
  if (request->budget_ms() < 0)
    return Invalid(absl::StrCat("budget_ms: ", request->budget_ms(), " is negative"));
  if (request->state().empty()) return Invalid("state: empty");
  auto g = games::Decode(request->state(), *kind);
  if (!g.ok()) return Refused(g.status(), "state");
  if ((*g)->result().over) {
    return service::ToGrpc(absl::FailedPreconditionError("the game is over"));
  }

  int budget = request->budget_ms() > 0
                   ? request->budget_ms()
                   : Level(*kind, request->level(), (*g)->seats()).default_budget_ms;
  budget = std::min(budget, max_budget_ms_);
  // Answer before the caller gives up: keep within the call's deadline too.
  const auto deadline = context->deadline();
  if (deadline != std::chrono::system_clock::time_point::max()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::system_clock::now())
                          .count();
    if (left <= kDeadlineMarginMs) {
      return service::ToGrpc(absl::DeadlineExceededError("no time left before the deadline"));
    }
    budget = std::min<int64_t>(budget, left - kDeadlineMarginMs);
  }

  Request req;
  req.level = request->level();
  req.budget_ms = std::max(1, budget);
  req.seed = request->seed();
  req.arrival = t0;  // decoding counts against the budget
  // A cancelled call (the caller gave up, or the server drains) stops the search.
  req.cancelled = [context] { return context->IsCancelled(); };
  auto choice = bot::ChooseMove(**g, req);
  if (!choice.ok()) return Refused(choice.status(), "state");

  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  think_[int(*kind)]->Observe(secs);
  if (secs * 1000 > budget) overruns_[int(*kind)]->Increment();

  FillMove(choice->move, response->mutable_move());
  response->set_notation(choice->move.notation);
  response->set_eval(choice->eval);
  response->set_depth(choice->depth);
  response->set_nodes(choice->nodes);
  response->set_elapsed_ms(int(secs * 1000));
  return grpc::Status::OK;
}

}  // namespace tablero::bot
