// The services matchmaking calls: rules (new games, moves, actions, legal moves, PGN),
// bot (the CPU's moves) and rating (players' ratings, finished games' reports), one
// round-robin channel each (libs/service/channel.h). Their refusals keep their codes (a
// client's move is illegal: FAILED_PRECONDITION...); a service that is down or not
// configured is UNAVAILABLE. `request_id`: of the call being served
// (service::RequestId); empty for background work, which gets a new one per call.
#ifndef TABLERO_SERVICES_MATCHMAKING_BACKENDS_H_
#define TABLERO_SERVICES_MATCHMAKING_BACKENDS_H_

#include <atomic>
#include <memory>
#include <random>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "services/matchmaking/play.h"
#include "tablero/v1/bot.grpc.pb.h"
#include "tablero/v1/rating.grpc.pb.h"
#include "tablero/v1/rules.grpc.pb.h"

namespace tablero::matchmaking {

struct BackendsConfig {
  std::string rules_addr, bot_addr, rating_addr;  // empty: not configured
  int bot_budget_ms = 300;                        // thinking time asked per CPU move
};

class Backends {
 public:
  explicit Backends(const BackendsConfig& config);

  // Rules.
  absl::StatusOr<v1::NewGameResponse> NewGame(const v1::NewGameRequest& req,
                                              const std::string& request_id = "");
  absl::StatusOr<Applied> Move(const GameRow& g, const std::string& text,
                               const v1::Move* structured, const std::string& request_id = "");
  absl::StatusOr<Applied> Action(const GameRow& g, int seat, v1::Action action,
                                 const std::string& move_text, const std::string& request_id = "");
  absl::StatusOr<v1::LegalMovesResponse> Legal(const GameRow& g, const std::string& from,
                                               const std::string& request_id = "");
  absl::StatusOr<v1::ExportResponse> Export(const v1::ExportRequest& req,
                                            const std::string& request_id = "");
  // Bot: the CPU's move for the seat to move; a random legal one when the bot service
  // does not answer (a game keeps going rather than stalling).
  absl::StatusOr<v1::Move> BotMove(const GameRow& g);
  // Rating: the player's rating in the pool (1500, the default, when unrated or the
  // service does not answer), and a finished game's report.
  bool has_rating() const { return rating_ != nullptr; }
  double RatingOf(const std::string& player, v1::RatingPool pool);
  grpc::Status ReportGame(const v1::ReportGameRequest& req);

 private:
  const int bot_budget_ms_;
  std::unique_ptr<v1::Rules::Stub> rules_;
  std::unique_ptr<v1::Bot::Stub> bot_;
  std::unique_ptr<v1::Rating::Stub> rating_;
  std::atomic<int64_t> bot_failures_{0};
  absl::Mutex rng_mu_;
  std::mt19937_64 rng_ ABSL_GUARDED_BY(rng_mu_){std::random_device{}()};
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_BACKENDS_H_
