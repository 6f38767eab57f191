// The rating outbox: a finished ranked game is written to `outbox` in the transaction that
// ends it; any replica delivers it to the rating service and deletes the row only once the
// service acknowledged (it deduplicates by game id, so a delivery repeated after a crash
// changes nothing). Failures back off and retry.
#include "absl/strings/str_cat.h"
#include "libs/service/log.h"
#include "services/matchmaking/background.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

void Background::DeliverOutbox() {
  if (!backends_->has_rating()) return;
  for (int i = 0; i < 20 && !stop_; ++i) {
    bool found = false;
    (void)commits_->Tx([&](pqxx::work& w) -> absl::Status {
      found = false;
      // The row stays locked while the report is in flight: no other replica sends it.
      pqxx::result r = w.exec(
          "SELECT game_id, request, attempts FROM outbox WHERE next_at <= now() ORDER BY next_at "
          "LIMIT 1 FOR UPDATE SKIP LOCKED");
      if (r.empty()) return absl::OkStatus();
      found = true;
      std::string game_id = r[0][0].as<std::string>();
      auto req = Parse<v1::ReportGameRequest>(r[0][1]);
      int attempts = r[0][2].as<int>();
      grpc::Status s = backends_->ReportGame(req);
      if (s.ok()) {
        w.exec_params("DELETE FROM outbox WHERE game_id = $1", game_id);
        return absl::OkStatus();
      }
      // A refusal will not change by itself: keep it for an operator, retry rarely.
      bool permanent = s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
                       s.error_code() == grpc::StatusCode::FAILED_PRECONDITION;
      double backoff = permanent ? 3600 : std::min(60.0, 0.5 * (1 << std::min(attempts, 7)));
      service::LogWarn("rating report failed; will retry",
                       {{"game", game_id},
                        {"error", s.error_message()},
                        {"retry_seconds", absl::StrCat(backoff)}});
      w.exec_params(
          "UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_at = now() + "
          "make_interval(secs => $3) WHERE game_id = $1",
          game_id, s.error_message(), backoff);
      return absl::OkStatus();
    });
    if (!found) break;
  }
}

void Background::CountOutbox() {
  (void)commits_->Tx([&](pqxx::work& w) {
    // A game enters the outbox in the transaction that finishes it: its age there is the
    // time since the game's end.
    pqxx::row r = w.exec1(
        "SELECT count(*)::float8, coalesce(extract(epoch FROM now() - min(g.finished_at)), "
        "0)::float8 FROM outbox o LEFT JOIN games g ON g.id = o.game_id");
    metrics_->outbox_pending->Set(r[0].as<double>());
    metrics_->outbox_oldest_seconds->Set(r[1].as<double>());
    return absl::OkStatus();
  });
}

}  // namespace tablero::matchmaking
