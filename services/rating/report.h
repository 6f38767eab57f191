// A ReportGame request checked and put in canonical form, before any database work.
#ifndef TABLERO_SERVICES_RATING_REPORT_H_
#define TABLERO_SERVICES_RATING_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "tablero/v1/rating.pb.h"

namespace tablero::rating {

inline constexpr int kMaxIdBytes = 128;  // game and player ids
inline constexpr int kPools = 4;         // RatingPool values 1..kPools

struct ReportSeat {
  std::string player;
  int place = 1;
  int team = -1;  // -1 unless the pool is SHOGI4_PAIRS
};

struct Report {
  std::string game_id;
  int kind = 0;                   // tablero.v1.GameKind
  int pool = 0;                   // tablero.v1.RatingPool
  std::vector<ReportSeat> seats;  // in seat order
  int64_t finished_us = 0;        // microseconds since the Unix epoch
};

// Lower-case pool name for metrics and logs: "chess", "shogi4_singles", ...
const char* PoolName(int pool);

// Checks a ranked report (see rating.proto for the rules); INVALID_ARGUMENT with a message
// naming the field otherwise. `now` stands in for an unset finished_time.
absl::StatusOr<Report> ParseReport(const tablero::v1::ReportGameRequest& req, absl::Time now);

// OK iff `id` is usable as a player or game id (non-empty, at most kMaxIdBytes, no NUL).
absl::Status CheckId(const std::string& id, const char* what);

// Same game, same seats, places and teams (the finish time does not matter).
bool SameContent(const Report& a, const Report& b);

}  // namespace tablero::rating

#endif  // TABLERO_SERVICES_RATING_REPORT_H_
