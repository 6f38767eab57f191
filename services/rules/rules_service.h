// tablero.v1.Rules: a thin adapter from the contracts to the libraries. Stateless: every
// request carries the game state, which is decoded once, used, and encoded once; nothing
// a later call needs survives a call, so any replica answers any request. The handlers
// here are plain (typed messages in and out) but for ApplyMoveBytes, the hot call as the
// server runs it, whose machinery lives in fast/ (fast/fast_path.h says what it buys).
#ifndef TABLERO_SERVICES_RULES_RULES_SERVICE_H_
#define TABLERO_SERVICES_RULES_RULES_SERVICE_H_

#include <prometheus/collectable.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/game/game.h"
#include "services/rules/fast/apply_metrics.h"
#include "services/rules/fast/request.h"
#include "services/rules/fast/state_cache.h"
#include "tablero/v1/rules.grpc.pb.h"

namespace tablero::rules {

// Limits against abuse, beyond the server's --max_message_bytes and game::kMaxStateBytes.
inline constexpr size_t kMaxMoveText = 1024;   // a long Chinese Checkers jump chain fits
inline constexpr size_t kMaxPathLength = 128;  // holes in a structured move
inline constexpr size_t kMaxSquareText = 16;
inline constexpr size_t kMaxPositionText = 8192;
inline constexpr size_t kMaxOptions = 64;
inline constexpr size_t kMaxOptionText = 256;  // name or value
inline constexpr size_t kMaxPgnTags = 64;
inline constexpr size_t kMaxPgnTagText = 256;

// The handlers, callable directly (tests, benchmarks) or through RulesCallbackService.
class RulesService final {
 public:
  // `cache_entries` bounds the decoded-state cache (0: always decode).
  explicit RulesService(size_t cache_entries);

  // tablero_rules_moves_total, tablero_rules_illegal_moves_total and
  // tablero_rules_apply_seconds, each labelled by kind ("chess", "shogi4", "checkers"), and
  // tablero_rules_state_cache_total{result="hit"|"miss"}: counted per thread, for the
  // server's metrics exposer (Server::AddCollectable).
  std::shared_ptr<prometheus::Collectable> apply_metrics() const { return apply_metrics_; }

  grpc::Status ListGames(grpc::ServerContextBase* ctx, const v1::ListGamesRequest* req,
                         v1::ListGamesResponse* resp);
  grpc::Status NewGame(grpc::ServerContextBase* ctx, const v1::NewGameRequest* req,
                       v1::NewGameResponse* resp);
  grpc::Status LegalMoves(grpc::ServerContextBase* ctx, const v1::LegalMovesRequest* req,
                          v1::LegalMovesResponse* resp);
  // The plain ApplyMove: the typed request, the typed answer.
  grpc::Status ApplyMove(grpc::ServerContextBase* ctx, const v1::ApplyMoveRequest* req,
                         v1::ApplyMoveResponse* resp);
  // The fast ApplyMove, what the server runs: the request's wire bytes in (read in place,
  // fast/request.h), the answer appended to `answer` as ApplyMoveResponse wire bytes
  // written straight from the engine (fast/wire.h). Byte for byte the answer ApplyMove
  // serializes to, and the same status (fast/tests/wire_test.cc).
  grpc::Status ApplyMoveBytes(grpc::ServerContextBase* ctx, absl::string_view request,
                              std::string* answer);
  grpc::Status ApplyAction(grpc::ServerContextBase* ctx, const v1::ApplyActionRequest* req,
                           v1::ApplyActionResponse* resp);
  grpc::Status ValidateState(grpc::ServerContextBase* ctx, const v1::ValidateStateRequest* req,
                             v1::ValidateStateResponse* resp);
  grpc::Status Export(grpc::ServerContextBase* ctx, const v1::ExportRequest* req,
                      v1::ExportResponse* resp);
  grpc::Status Ping(grpc::ServerContextBase* ctx, const v1::RulesPingRequest* req,
                    v1::RulesPingResponse* resp);

 private:
  // ApplyMove up to its answer, for both entry points: checks, the one decode (or cache
  // hit), the move parsed (into `*move`) and played, then
  // `answer(game, structured, events)` fills the answer from the game after the move
  // (taking the move from the view's last move when it was `structured`: the parser fills
  // in a text move, not a structured one) and returns the state it encoded, under which
  // the game goes back to the cache. All of it is timed for tablero_rules_apply_seconds.
  template <typename Answer>
  grpc::Status Apply(grpc::ServerContextBase* ctx, const fast::ApplyMoveArgs& req, game::Move* move,
                     Answer&& answer);
  // The one decode of a request (or a cache hit). Anything wrong with the bytes is
  // INVALID_ARGUMENT; `expect` kUnknown accepts any kind.
  absl::StatusOr<std::unique_ptr<game::Game>> Load(const grpc::ServerContextBase& ctx,
                                                   absl::string_view state, game::Kind expect);
  absl::StatusOr<std::unique_ptr<game::Game>> LoadFor(const grpc::ServerContextBase& ctx,
                                                      v1::GameKind kind, const std::string& state);

  std::shared_ptr<fast::ApplyMetrics> apply_metrics_ = std::make_shared<fast::ApplyMetrics>();
  fast::StateCache cache_;
  v1::ListGamesResponse catalogue_;  // built once: the tables never change
};

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_RULES_SERVICE_H_
