// The rating service's own flags (each also settable as TABLERO_<FLAG>, see
// libs/service/config.h) and the Glicko-2 configuration they make.
#ifndef TABLERO_SERVICES_RATING_FLAGS_H_
#define TABLERO_SERVICES_RATING_FLAGS_H_

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "libs/glicko2/glicko2.h"

ABSL_DECLARE_FLAG(double, initial_rating);
ABSL_DECLARE_FLAG(double, initial_rd);
ABSL_DECLARE_FLAG(double, initial_volatility);
ABSL_DECLARE_FLAG(double, tau);
ABSL_DECLARE_FLAG(double, leaderboard_rd);
ABSL_DECLARE_FLAG(double, provisional_rd);

namespace tablero::rating {

// The configuration from the flags; INVALID_ARGUMENT (saying which flag) when it is not a
// usable Glicko-2 configuration.
absl::StatusOr<glicko2::Config> ConfigFromFlags();

}  // namespace tablero::rating

#endif  // TABLERO_SERVICES_RATING_FLAGS_H_
