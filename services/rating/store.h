// The rating service's tables (schema "rating", migrations/): ratings, games applied and
// per-seat results. Every method is safe to call from many threads and many replicas.
//
// Exactly once: Apply inserts the game id first (ON CONFLICT DO NOTHING). The call that
// inserts it rates the game; any other report of the same id, even one running at the
// same moment on another replica, waits on that row's unique index entry, then finds the
// game applied and returns the stored changes (or refuses different content).
//
// No deadlocks: in the same statement the players' existing rating rows are locked
// (SELECT ... FOR UPDATE) in one canonical order, player ids in "C" collation, so games
// sharing players queue up behind each other. Players without a row are inserted only
// after every lock is held, again in that order; if a concurrent game created one of them
// first, the transaction is rolled back and run again (then that row is simply locked).
// A transaction waits only for rows later in the order than any it holds, or for the
// inserts of a transaction that already holds all its locks, so no cycle can form.
#ifndef TABLERO_SERVICES_RATING_STORE_H_
#define TABLERO_SERVICES_RATING_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/glicko2/glicko2.h"
#include "libs/pg/pool.h"
#include "services/rating/report.h"

namespace tablero::rating {

struct Change {
  std::string player;
  int seat = 0;
  glicko2::Player before, after;
  bool provisional = false;
  double score = 0;  // sum of the player's pairwise scores
};

struct Applied {
  std::vector<Change> changes;  // in seat order
  bool applied_now = false;
  int attempts = 0;   // transaction attempts (more than 1: Postgres asked for a retry)
  int deadlocks = 0;  // of the failed attempts, those Postgres ended as deadlocks
};

struct Standing {
  int pool = 0;
  glicko2::Player value;
  int games = 0;
  std::optional<int64_t> last_us;  // last game's finish, microseconds since the epoch
};

// Leaderboard order: rating desc, games desc, player id asc. A key is the last row seen.
struct BoardRow {
  int rank = 0;
  std::string player;
  double rating = 0, rd = 0;
  int games = 0;
};

// History order: finish time desc, game id desc.
struct HistoryRow {
  std::string game_id;
  int64_t us = 0;
  glicko2::Player before, after;
  int place = 0, seats = 0;
};

class Store {
 public:
  Store(pg::Pool* pool, const glicko2::Config& config) : pool_(pool), config_(config) {}

  // Rates the game unless it was applied before. FAILED_PRECONDITION if it was applied with
  // different content; database problems as libs/pg maps them (UNAVAILABLE, ...).
  absl::StatusOr<Applied> Apply(const Report& r);

  // The pools the player has a rating in (others have the defaults), in pool order.
  absl::StatusOr<std::vector<Standing>> Standings(const std::string& player);

  // Up to `limit` rows of the pool's leaderboard (rd <= config.leaderboard_rd) after
  // `after` (nullptr: from the top). Ranks continue from after->rank.
  absl::StatusOr<std::vector<BoardRow>> Leaderboard(int pool, const BoardRow* after, int limit);

  // Up to `limit` of the player's games in the pool after `after` (nullptr: newest first).
  absl::StatusOr<std::vector<HistoryRow>> History(const std::string& player, int pool,
                                                  const HistoryRow* after, int limit);

  const glicko2::Config& config() const { return config_; }

 private:
  // One attempt on a connection; opens and ends its own transaction (simple queries).
  absl::Status ApplyTx(pqxx::transaction_base& t, const Report& r, Applied* out);
  absl::Status LoadApplied(pqxx::transaction_base& t, const Report& r, Applied* out);

  pg::Pool* pool_;
  glicko2::Config config_;
};

}  // namespace tablero::rating

#endif  // TABLERO_SERVICES_RATING_STORE_H_
