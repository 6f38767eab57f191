// tablero.v1.Rating: a thin adapter from the contract (proto/tablero/v1/rating.proto) to
// the Glicko-2 library (libs/glicko2) and the tables (store.h). Metrics, registered on the
// server's registry:
//   tablero_rating_reports_total{result="applied|replay|unranked|invalid|error"}
//   tablero_rating_updates_total{pool}          games applied, per rating pool
//   tablero_rating_tx_retries_total{reason="new_player|deadlock"}  transactions run again
#ifndef TABLERO_SERVICES_RATING_RATING_SERVICE_H_
#define TABLERO_SERVICES_RATING_RATING_SERVICE_H_

#include <prometheus/counter.h>
#include <prometheus/registry.h>

#include "services/rating/report.h"
#include "services/rating/store.h"
#include "tablero/v1/rating.grpc.pb.h"

namespace tablero::rating {

class RatingService final : public tablero::v1::Rating::Service {
 public:
  RatingService(Store* store, prometheus::Registry& registry);

  grpc::Status ReportGame(grpc::ServerContext* ctx, const tablero::v1::ReportGameRequest* req,
                          tablero::v1::ReportGameResponse* resp) override;
  grpc::Status GetRatings(grpc::ServerContext* ctx, const tablero::v1::GetRatingsRequest* req,
                          tablero::v1::GetRatingsResponse* resp) override;
  grpc::Status GetLeaderboard(grpc::ServerContext* ctx,
                              const tablero::v1::GetLeaderboardRequest* req,
                              tablero::v1::GetLeaderboardResponse* resp) override;
  grpc::Status GetHistory(grpc::ServerContext* ctx, const tablero::v1::GetHistoryRequest* req,
                          tablero::v1::GetHistoryResponse* resp) override;

 private:
  Store* store_;
  prometheus::Counter* applied_;
  prometheus::Counter* replay_;
  prometheus::Counter* unranked_;
  prometheus::Counter* invalid_;
  prometheus::Counter* error_;
  prometheus::Counter* retry_new_player_;
  prometheus::Counter* retry_deadlock_;
  prometheus::Counter* updates_[kPools + 1];  // by pool number; [0] unused
};

}  // namespace tablero::rating

#endif  // TABLERO_SERVICES_RATING_RATING_SERVICE_H_
