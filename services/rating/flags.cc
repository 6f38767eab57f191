#include "services/rating/flags.h"

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"

ABSL_FLAG(double, initial_rating, 1500.0, "rating of a player's first game in a pool");
ABSL_FLAG(double, initial_rd, 350.0,
          "rating deviation of a new player; also the largest RD a player can have");
ABSL_FLAG(double, initial_volatility, 0.06, "Glicko-2 volatility of a new player");
ABSL_FLAG(double, tau, 0.5, "Glicko-2 system constant tau (how fast volatility changes)");
ABSL_FLAG(double, leaderboard_rd, 75.0, "leaderboards list only players with RD <= this");
ABSL_FLAG(double, provisional_rd, 110.0, "a rating is provisional while its RD >= this");

namespace tablero::rating {

absl::StatusOr<glicko2::Config> ConfigFromFlags() {
  glicko2::Config c;
  c.initial_rating = absl::GetFlag(FLAGS_initial_rating);
  c.initial_rd = absl::GetFlag(FLAGS_initial_rd);
  c.initial_vol = absl::GetFlag(FLAGS_initial_volatility);
  c.tau = absl::GetFlag(FLAGS_tau);
  c.leaderboard_rd = absl::GetFlag(FLAGS_leaderboard_rd);
  c.provisional_rd = absl::GetFlag(FLAGS_provisional_rd);
  // A new player is the least certain one: RD never grows beyond the initial RD.
  c.max_rd = c.initial_rd;
  if (!(c.initial_rd >= c.min_rd)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--initial_rd must be at least ", c.min_rd, ", got ", c.initial_rd));
  }
  if (absl::Status s = glicko2::ValidateConfig(c); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad rating flags (--initial_rating, --initial_rd, --initial_volatility, "
                     "--tau, --leaderboard_rd, --provisional_rd): ",
                     s.message()));
  }
  return c;
}

}  // namespace tablero::rating
