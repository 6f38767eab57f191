// tablero.v1.Rules: a thin adapter from the contracts to the libraries. Stateless: every
// request carries the game state, which is decoded once, used, and encoded once; nothing
// survives a call, so any replica answers any request.
#ifndef TABLERO_SERVICES_RULES_RULES_SERVICE_H_
#define TABLERO_SERVICES_RULES_RULES_SERVICE_H_

#include <prometheus/collectable.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/game/game.h"
#include "services/rules/apply_metrics.h"
#include "services/rules/request.h"
#include "services/rules/state_cache.h"
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
  grpc::Status ApplyMove(grpc::ServerContextBase* ctx, const v1::ApplyMoveRequest* req,
                         v1::ApplyMoveResponse* resp);
  // The same call with the answer written as ApplyMoveResponse wire bytes, appended to
  // `answer` (services/rules/wire.h): what the server runs, byte for byte the answer
  // ApplyMove would serialize to.
  grpc::Status ApplyMoveWire(grpc::ServerContextBase* ctx, const v1::ApplyMoveRequest* req,
                             std::string* answer);
  // The same from the request's fields as read by ParseApplyMoveRequest (request.h).
  grpc::Status ApplyMoveWire(grpc::ServerContextBase* ctx, const ApplyMoveArgs& req,
                             std::string* answer);
  // The same from the request's wire bytes, as the server takes them: read by
  // ParseApplyMoveRequest, or by protobuf (on an arena whose first 16 KiB are a per-thread
  // block) when they have another shape.
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
  // Everything ApplyMove answers, before it becomes protobuf or wire bytes.
  struct Applied {
    std::string state;
    game::PublicView view;  // without its pieces: they are in `pieces`
    std::vector<game::PieceRef> pieces;
    game::Kind kind = game::Kind::kUnknown;
    std::vector<game::Event> events;
    game::Result result;
    game::Move move;
    // Ready for the next Apply, keeping the vectors' room (ApplyMoveWire reuses one per
    // thread).
    void Clear();
  };
  grpc::Status Apply(grpc::ServerContextBase* ctx, const ApplyMoveArgs& req, Applied* out);
  // The one decode of a request (or a cache hit). Anything wrong with the bytes is
  // INVALID_ARGUMENT; `expect` kUnknown accepts any kind.
  absl::StatusOr<std::unique_ptr<game::Game>> Load(const grpc::ServerContextBase& ctx,
                                                   absl::string_view state, game::Kind expect);
  absl::StatusOr<std::unique_ptr<game::Game>> LoadFor(const grpc::ServerContextBase& ctx,
                                                      v1::GameKind kind, const std::string& state);

  std::shared_ptr<ApplyMetrics> apply_metrics_ = std::make_shared<ApplyMetrics>();
  StateCache cache_;
  v1::ListGamesResponse catalogue_;  // built once: the tables never change
};

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_RULES_SERVICE_H_
