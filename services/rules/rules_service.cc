#include "services/rules/rules_service.h"

#include <grpc/support/time.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "libs/game/codec.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "services/rules/convert.h"
#include "services/rules/fast/request.h"
#include "services/rules/fast/wire.h"
#include "services/rules/pgn_tags.h"

namespace tablero::rules {
namespace {

using game::Game;
using GamePtr = std::unique_ptr<Game>;
// (OK answers below are `grpc::Status()`: copying grpc::Status::OK copies its two strings,
// ~4 code lines per call on the hot path.)

ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status TooLong(absl::string_view what,
                                                                 size_t size, size_t limit) {
  return absl::InvalidArgumentError(
      absl::StrCat(what, ": ", size, " bytes exceeds the limit of ", limit));
}

// Checked once before work: a caller that has gone does not need the answer. The deadline
// is compared in gRPC's own clock (no conversion to a time_point; no clock read when the
// call has none); IsCancelled() is cheap on the callback API the server runs (on a sync
// server it would pluck the call's completion queue, tens of microseconds).
absl::Status Live(const grpc::ServerContextBase& ctx) {
  const gpr_timespec deadline = ctx.raw_deadline();
  if (deadline.tv_sec != INT64_MAX && gpr_time_cmp(deadline, gpr_now(deadline.clock_type)) <= 0) {
    return absl::DeadlineExceededError("deadline exceeded before the request was served");
  }
  if (ctx.IsCancelled()) return absl::CancelledError("the call was cancelled");
  return absl::OkStatus();
}

// Error paths are out of line (cold): on the hot path of ApplyMove their string building
// would sit between the instructions that run, and in a server the handler's cost is
// mostly instruction-cache misses (fast/fast_path.h).
absl::StatusOr<game::Kind> RequireKind(v1::GameKind kind) {
  if (auto k = games::EngineKind(kind); ABSL_PREDICT_TRUE(k.has_value())) return *k;
  return games::UnknownKindError(kind);
}

ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD grpc::Status Stale(int64_t expected, int ply) {
  return ToGrpc(
      service::WithReason(absl::AbortedError(absl::StrCat("stale move: expected_ply ", expected,
                                                          " but the game is at ply ", ply)),
                          service::reason::kStalePly));
}

// A move the engine refused: FAILED_PRECONDITION is an illegal move (ILLEGAL_MOVE);
// anything else (malformed text: INVALID_ARGUMENT) goes as it is.
ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status Refused(absl::Status s) {
  if (s.code() != absl::StatusCode::kFailedPrecondition) return s;
  return service::WithReason(std::move(s), service::reason::kIllegalMove);
}

absl::StatusOr<GamePtr> Decode(absl::string_view bytes, game::Kind expect) {
  auto g = games::Decode(bytes, expect);
  if (!g.ok() && g.status().code() != absl::StatusCode::kInvalidArgument) {
    return absl::InvalidArgumentError(absl::StrCat("state: ", g.status().message()));
  }
  return g;
}

void AddEvents(const std::vector<game::Event>& events,
               google::protobuf::RepeatedPtrField<v1::PlayEvent>* out) {
  out->Reserve(static_cast<int>(events.size()));
  for (const game::Event& e : events) ToProto(e, out->Add());
}

absl::Status CheckMoveText(absl::string_view text) {
  if (text.size() > kMaxMoveText) return TooLong("move_text", text.size(), kMaxMoveText);
  return absl::OkStatus();
}

ABSL_ATTRIBUTE_NOINLINE absl::Status CheckStructured(const v1::Move& m) {
  if (m.path_size() == 0) return absl::InvalidArgumentError("structured move: empty path");
  if (static_cast<size_t>(m.path_size()) > kMaxPathLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        "structured move: ", m.path_size(), " squares exceeds the limit of ", kMaxPathLength));
  }
  for (const std::string& sq : m.path()) {
    if (sq.size() > kMaxSquareText) return TooLong("structured move: square", sq.size(), 16);
  }
  if (m.drop().size() > 2 || m.promotion().size() > 2) {
    return absl::InvalidArgumentError("structured move: drop or promotion is not a piece letter");
  }
  return absl::OkStatus();
}

ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status GameOver(const Game& g) {
  return service::WithReason(absl::FailedPreconditionError(absl::StrCat(
                                 "the game is over (", g.result().reason, "): no more moves")),
                             service::reason::kGameOver);
}

}  // namespace

RulesService::RulesService(size_t cache_entries) : cache_(cache_entries) {
  for (const game::GameInfo* info : games::AllGames()) ToProto(*info, catalogue_.add_games());
}

absl::StatusOr<GamePtr> RulesService::Load(const grpc::ServerContextBase& ctx,
                                           absl::string_view state, game::Kind expect) {
  if (state.empty()) {
    return absl::InvalidArgumentError(
        "state: empty (send back the state bytes of the last answer, unchanged)");
  }
  if (state.size() > game::kMaxStateBytes) {
    return TooLong("state", state.size(), game::kMaxStateBytes);
  }
  if (absl::Status s = Live(ctx); !s.ok()) return s;
  if (GamePtr hit = cache_.Find(state); hit != nullptr) {
    // A state of another kind falls through to Decode, which says what is wrong.
    if (expect == game::Kind::kUnknown || hit->kind() == expect) {
      apply_metrics_->CacheHit();
      return hit;
    }
    cache_.Insert(state, std::move(hit));
  }
  if (cache_.enabled()) apply_metrics_->CacheMiss();
  return Decode(state, expect);
}

absl::StatusOr<GamePtr> RulesService::LoadFor(const grpc::ServerContextBase& ctx, v1::GameKind kind,
                                              const std::string& state) {
  auto k = RequireKind(kind);
  if (!k.ok()) return k.status();
  return Load(ctx, state, *k);
}

grpc::Status RulesService::ListGames(grpc::ServerContextBase*, const v1::ListGamesRequest*,
                                     v1::ListGamesResponse* resp) {
  *resp = catalogue_;
  return grpc::Status();
}

grpc::Status RulesService::NewGame(grpc::ServerContextBase* ctx, const v1::NewGameRequest* req,
                                   v1::NewGameResponse* resp) {
  auto kind = RequireKind(req->kind());
  if (!kind.ok()) return ToGrpc(kind.status());
  if (req->options_size() > static_cast<int>(kMaxOptions)) {
    return ToGrpc(absl::InvalidArgumentError(
        absl::StrCat("options: ", req->options_size(), " given, the limit is ", kMaxOptions)));
  }
  for (const auto& [name, value] : req->options()) {
    if (name.size() > kMaxOptionText || value.size() > kMaxOptionText) {
      return ToGrpc(
          TooLong("option name or value", std::max(name.size(), value.size()), kMaxOptionText));
    }
  }
  if (req->position().size() > kMaxPositionText) {
    return ToGrpc(TooLong("position", req->position().size(), kMaxPositionText));
  }
  if (absl::Status s = Live(*ctx); !s.ok()) return ToGrpc(s);
  game::NewGameParams p;
  p.kind = *kind;
  p.options = OptionsFromProto(req->options());
  p.seats = req->seats();
  // A position names its own side to move; the contract says first_seat is then ignored.
  p.first_seat = req->position().empty() ? req->first_seat() : 0;
  auto g = req->position().empty() ? games::NewGame(p) : games::FromPosition(p, req->position());
  if (!g.ok()) return ToGrpc(g.status());
  const Game& game = **g;
  resp->set_state(game.Encode());
  resp->set_legal_move_count(static_cast<int>(game.LegalMoves().size()));
  ToProto(game.View(), resp->mutable_view());
  OptionsToProto(game.options(), resp->mutable_options());
  cache_.Insert(resp->state(), std::move(*g));  // the first move will bring it back
  return grpc::Status();
}

grpc::Status RulesService::LegalMoves(grpc::ServerContextBase* ctx,
                                      const v1::LegalMovesRequest* req,
                                      v1::LegalMovesResponse* resp) {
  if (req->from_square().size() > kMaxSquareText) {
    return ToGrpc(TooLong("from_square", req->from_square().size(), kMaxSquareText));
  }
  auto g = LoadFor(*ctx, req->kind(), req->state());
  if (!g.ok()) return ToGrpc(g.status());
  const Game& game = **g;
  std::vector<game::Move> moves;
  if (req->from_square().empty()) {
    moves = game.LegalMoves();
  } else {
    auto from = game.LegalMovesFrom(req->from_square());
    if (!from.ok()) return ToGrpc(from.status());
    moves = std::move(*from);
  }
  if (game.to_move() < 0) moves.clear();  // the contract: no moves once the game is over
  resp->mutable_moves()->Reserve(static_cast<int>(moves.size()));
  for (const game::Move& m : moves) ToProto(m, resp->add_moves());
  resp->set_to_move(game.to_move());
  resp->set_ply(game.ply());
  cache_.Insert(req->state(), std::move(*g));  // the move chosen comes with the same state
  return grpc::Status();
}

template <typename Answer>
grpc::Status RulesService::Apply(grpc::ServerContextBase* ctx, const fast::ApplyMoveArgs& req,
                                 game::Move* move, Answer&& answer) {
  auto kind = RequireKind(req.kind);
  if (!kind.ok()) return ToGrpc(kind.status());
  fast::ApplyMetrics& metrics = *apply_metrics_;
  struct Timer {  // every outcome counts towards the latency histogram
    fast::ApplyMetrics& m;
    game::Kind kind;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    ~Timer() {
      m.Observe(kind, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  } timer{metrics, *kind};

  switch (req.move_case) {
    case v1::ApplyMoveRequest::kMoveText:
      if (absl::Status s = CheckMoveText(req.move_text); !s.ok()) return ToGrpc(s);
      break;
    case v1::ApplyMoveRequest::kStructured:
      if (absl::Status s = CheckStructured(*req.structured); !s.ok()) return ToGrpc(s);
      break;
    default:
      return ToGrpc(absl::InvalidArgumentError("no move given (set move_text or structured)"));
  }
  auto g = Load(*ctx, req.state, *kind);
  if (!g.ok()) return ToGrpc(g.status());
  Game& game = **g;
  // Refused before the game changed: it goes back to the cache under the state it came
  // with (the answer, built from the game, is evaluated before the game is handed over).
  auto kept = [&](grpc::Status s) {
    cache_.Insert(req.state, std::move(*g));
    return s;
  };
  if (req.expected_ply && *req.expected_ply != game.ply()) {
    return kept(Stale(*req.expected_ply, game.ply()));
  }
  auto refuse = [&](const absl::Status& s) {
    metrics.Refused(*kind);
    return ToGrpc(s);
  };
  if (game.to_move() < 0) return kept(refuse(GameOver(game)));

  const bool text = req.move_case == v1::ApplyMoveRequest::kMoveText;
  if (text) {
    auto parsed = game.ParseMove(req.move_text);
    if (!parsed.ok()) return kept(refuse(Refused(parsed.status())));
    *move = *std::move(parsed);
  } else {
    *move = FromProto(*req.structured, game.to_move());
  }
  auto events = game.Play(*move);
  if (!events.ok()) return refuse(Refused(events.status()));
  metrics.Moved(*kind);
  // Text moves come back from the parser fully filled in; a structured move is completed
  // by the engine's record of the last move (notation computed before the move): the
  // answer takes it from the view when `*move` is not complete.
  const std::string& state = answer(static_cast<const Game&>(game), !text, *std::move(events));
  if (cache_.enabled()) cache_.Insert(state, std::move(*g));
  return grpc::Status();
}

grpc::Status RulesService::ApplyMove(grpc::ServerContextBase* ctx, const v1::ApplyMoveRequest* req,
                                     v1::ApplyMoveResponse* resp) {
  game::Move move;
  return Apply(ctx, fast::ArgsOf(*req), &move,
               [&](const Game& game, bool structured,
                   std::vector<game::Event>&& events) -> const std::string& {
                 resp->set_state(game.Encode());
                 game::PublicView view = game.View();
                 if (structured && view.last_move) move = *view.last_move;
                 ToProto(move, resp->mutable_move());
                 ToProto(std::move(view), resp->mutable_view());
                 AddEvents(events, resp->mutable_events());
                 ToProto(game.result(), resp->mutable_result());
                 return resp->state();
               });
}

grpc::Status RulesService::ApplyMoveBytes(grpc::ServerContextBase* ctx, absl::string_view request,
                                          std::string* answer) {
  fast::RequestReader reader;
  fast::ApplyMoveArgs args;
  if (!reader.Read(request, &args)) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "request is not a valid tablero.v1.ApplyMoveRequest (malformed protobuf, "
                        "or invalid UTF-8 in a string field)");
  }
  // One per thread: the view's vectors keep their room from call to call.
  thread_local fast::ApplyAnswer a;
  a.Clear();
  grpc::Status s = Apply(ctx, args, &a.move,
                         [&](const Game& game, bool structured,
                             std::vector<game::Event>&& events) -> const std::string& {
                           const game::WireView& wire = *games::WireViewOf(game);
                           wire.EncodeInto(&a.state);
                           wire.ViewRefs(&a.view, &a.pieces);
                           a.kind = game.kind();
                           if (structured && a.view.last_move) a.move = *a.view.last_move;
                           a.events = std::move(events);
                           wire.ResultInto(&a.result);
                           return a.state;
                         });
  if (!s.ok()) return s;
  fast::AppendApplyMoveResponse(a, answer);
  return grpc::Status();
}

grpc::Status RulesService::ApplyAction(grpc::ServerContextBase* ctx,
                                       const v1::ApplyActionRequest* req,
                                       v1::ApplyActionResponse* resp) {
  auto action = FromProto(req->action());
  if (!action.ok()) return ToGrpc(action.status());
  if (absl::Status s = CheckMoveText(req->move_text()); !s.ok()) return ToGrpc(s);
  if (!req->move_text().empty() && *action != game::Action::kClaimDraw) {
    return ToGrpc(absl::InvalidArgumentError("move_text is only for ACTION_CLAIM_DRAW"));
  }
  auto g = LoadFor(*ctx, req->kind(), req->state());
  if (!g.ok()) return ToGrpc(g.status());
  Game& game = **g;
  if (req->seat() < 0 || req->seat() >= game.seats()) {
    return ToGrpc(absl::InvalidArgumentError(
        absl::StrCat("seat ", req->seat(), " is not a seat of this ", game.seats(), "-seat game")));
  }
  auto events = game.Act(req->seat(), *action, req->move_text());
  if (!events.ok()) return ToGrpc(events.status());
  for (const game::Event& e : *events) {
    if (e.type == game::EventType::kMove) apply_metrics_->Moved(game.kind());
  }
  resp->set_state(game.Encode());
  ToProto(game.View(), resp->mutable_view());
  AddEvents(*events, resp->mutable_events());
  ToProto(game.result(), resp->mutable_result());
  cache_.Insert(resp->state(), std::move(*g));
  return grpc::Status();
}

grpc::Status RulesService::ValidateState(grpc::ServerContextBase* ctx,
                                         const v1::ValidateStateRequest* req,
                                         v1::ValidateStateResponse* resp) {
  game::Kind expect = game::Kind::kUnknown;  // GAME_KIND_UNSPECIFIED: any kind
  if (req->kind() != v1::GAME_KIND_UNSPECIFIED) {
    auto k = RequireKind(req->kind());
    if (!k.ok()) return ToGrpc(k.status());
    expect = *k;
  }
  auto g = Load(*ctx, req->state(), expect);
  if (!g.ok()) return ToGrpc(g.status());
  const Game& game = **g;
  resp->set_kind(games::ToProto(game.kind()));
  ToProto(game.View(), resp->mutable_view());
  ToProto(game.result(), resp->mutable_result());
  resp->set_seats(game.seats());
  OptionsToProto(game.options(), resp->mutable_options());
  cache_.Insert(req->state(), std::move(*g));
  return grpc::Status();
}

grpc::Status RulesService::Export(grpc::ServerContextBase* ctx, const v1::ExportRequest* req,
                                  v1::ExportResponse* resp) {
  auto kind = RequireKind(req->kind());
  if (!kind.ok()) return ToGrpc(kind.status());
  const std::string& format = req->format();
  if (format != "fen" && format != "pgn") {
    return ToGrpc(absl::InvalidArgumentError(absl::StrCat(
        "format \"", format.substr(0, kMaxSquareText), "\" is not an export format (fen or pgn)")));
  }
  if (req->tags_size() > static_cast<int>(kMaxPgnTags)) {
    return ToGrpc(absl::InvalidArgumentError(
        absl::StrCat("tags: ", req->tags_size(), " given, the limit is ", kMaxPgnTags)));
  }
  for (const auto& [name, value] : req->tags()) {
    if (name.size() > kMaxPgnTagText || value.size() > kMaxPgnTagText) {
      return ToGrpc(
          TooLong("PGN tag name or value", std::max(name.size(), value.size()), kMaxPgnTagText));
    }
  }
  auto g = Load(*ctx, req->state(), *kind);
  if (!g.ok()) return ToGrpc(g.status());
  if (*kind != game::Kind::kChess) {
    return ToGrpc(
        absl::FailedPreconditionError(absl::StrCat(game::KindName(*kind),
                                                   " has no export format; its position text is "
                                                   "PublicView.position")));
  }
  auto text = (*g)->Export(format);
  if (!text.ok()) return ToGrpc(text.status());
  if (format == "pgn") {
    auto tagged = ApplyPgnTags(*text, std::vector<std::pair<std::string, std::string>>(
                                          req->tags().begin(), req->tags().end()));
    if (!tagged.ok()) return ToGrpc(tagged.status());
    resp->set_text(std::move(*tagged));
  } else {
    resp->set_text(std::move(*text));
  }
  return grpc::Status();
}

grpc::Status RulesService::Ping(grpc::ServerContextBase*, const v1::RulesPingRequest*,
                                v1::RulesPingResponse*) {
  return grpc::Status();
}

}  // namespace tablero::rules
