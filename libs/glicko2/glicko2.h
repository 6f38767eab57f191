// Glicko-2 rating maths, after Mark Glickman, "Example of the Glicko-2 system".
// Pure functions, no I/O, no state: the rating service stores Players and calls these.
//
// Every finished game is its own rating period. A multiplayer game becomes pairwise
// results by place (better place 1, worse 0, same place 0.5), all computed from the
// PRE-game values of everyone. Damping: each of a player's pairwise results in one game
// is weighted 1/(number of that player's opponents), so a whole game, however many
// players it had, counts as exactly one game's worth of evidence (the weights enter the
// sums for v and delta). A two-player game has weight 1: plain Glicko-2.
// Partners (same team id) share their team's result and are never compared with each
// other; each player's opponents are the players of the other teams.
#ifndef TABLERO_LIBS_GLICKO2_GLICKO2_H_
#define TABLERO_LIBS_GLICKO2_GLICKO2_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tablero::glicko2 {

// Glicko-2 scale: mu = (rating - 1500) / kScale, phi = rd / kScale.
inline constexpr double kScale = 173.7178;
inline constexpr double kCenter = 1500.0;

struct Config {
  double initial_rating = 1500.0;
  double initial_rd = 350.0;
  double initial_vol = 0.06;
  double tau = 0.5;      // constrains volatility change; the paper suggests 0.3..1.2
  double min_rd = 30.0;  // every RD used or returned is clamped to [min_rd, max_rd]
  double max_rd = 350.0;
  double provisional_rd = 110.0;  // provisional while rd >= this
  double leaderboard_rd = 75.0;   // listed on leaderboards only while rd <= this
  double epsilon = 1e-6;          // convergence tolerance of the volatility iteration
};

// One player's rating in one game (chess, shogi singles, shogi pairs, Chinese Checkers).
struct Player {
  double rating = 1500.0;
  double rd = 350.0;
  double vol = 0.06;
};

// One pairwise result of a rating period, seen from the player being rated.
struct Opponent {
  double rating = 1500.0;
  double rd = 350.0;
  double score = 0.5;   // 1 win, 0 loss, 0.5 draw or shared place
  double weight = 1.0;  // how many games this result counts for (multiplayer damping)
};

// One seat of a finished game.
struct Seat {
  Player before;
  int place = 1;  // 1 = best; equal places tie (score 0.5 between them)
  int team = -1;  // -1: alone; seats with the same team id >= 0 are partners
};

// OK iff every number is finite, 0 < min_rd <= max_rd, tau > 0, epsilon > 0, initial
// values valid. RateGame checks it; callers of Update/Idle should check it once.
absl::Status ValidateConfig(const Config& c);

// OK iff rating, rd and vol are finite and rd > 0, vol > 0.
absl::Status ValidatePlayer(const Player& p);

Player Initial(const Config& c);
bool IsProvisional(const Player& p, const Config& c);  // rd >= provisional_rd
bool OnLeaderboard(const Player& p, const Config& c);  // rd <= leaderboard_rd

// One rating period: steps 2-8 of the paper with weighted sums
//   v = 1 / sum w g^2 E (1-E),   delta = v sum w g (s - E).
// Results with weight <= 0 are ignored; with none left this is Idle(p, 1, c).
// Inputs must be valid (ValidatePlayer/ValidateConfig); the RDs of p and of the
// opponents are clamped to [min_rd, max_rd] before use, and the result's RD too.
Player Update(const Player& p, const std::vector<Opponent>& opponents, const Config& c);

// Rating periods without games: phi' = sqrt(phi^2 + periods sigma^2), rating and
// volatility unchanged, RD clamped to [min_rd, max_rd]. periods <= 0 only clamps.
Player Idle(const Player& p, double periods, const Config& c);

// Rates one finished game as one rating period for every seat (see the top of this file).
// Returns the after-values in seat order. INVALID_ARGUMENT for: fewer than two seats,
// place < 1, team < -1, non-finite or non-positive values, every seat on one team,
// partners with different places, an invalid config, or ratings so far apart that the
// maths leaves the doubles.
absl::StatusOr<std::vector<Player>> RateGame(const std::vector<Seat>& seats, const Config& c);

// The pairwise results RateGame feeds to Update for seats[i] (exposed for tests and for
// showing a rating change's breakdown). Assumes seats passed RateGame's checks.
std::vector<Opponent> PairwiseResults(const std::vector<Seat>& seats, int i);

}  // namespace tablero::glicko2

#endif  // TABLERO_LIBS_GLICKO2_GLICKO2_H_
