#include "services/rating/store.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "services/rating/sql.h"

namespace tablero::rating {
namespace {

// Microseconds since the epoch <-> timestamptz, exactly (no float8 seconds on the way for
// the sub-second part; extract() is numeric since Postgres 14).
#define TS_FROM_US(p) \
  "(to_timestamp(" p "::bigint / 1000000) + (" p "::bigint % 1000000) * interval '1 microsecond')"
#define US_FROM_TS(c) "(extract(epoch FROM " c ") * 1000000)::bigint"

// Substitutes $1, $2, ... in `sql` by already quoted literals (args[0] for $1). Apply sends
// its statements as simple queries together with BEGIN and COMMIT ("BEGIN; EXECUTE
// claim", then "EXECUTE write; COMMIT"): two round trips per report instead of four,
// which is what bounds throughput on a busy machine.
std::string Bind(const char* sql, const std::vector<std::string>& args) {
  std::string out;
  for (const char* p = sql; *p != '\0'; ++p) {
    if (*p != '$' || p[1] < '0' || p[1] > '9') {
      out += *p;
      continue;
    }
    size_t k = 0;
    while (p[1] >= '0' && p[1] <= '9') k = k * 10 + static_cast<size_t>(*++p - '0');
    out += args.at(k - 1);
  }
  return out;
}

// A string literal (what pqxx's quote() does; its inlined operator+ trips a GCC 12
// -Wrestrict false positive).
std::string Quote(pqxx::transaction_base& t, const std::string& s) {
  return absl::StrCat("'", t.esc(s), "'");
}

// Claims the game id, then locks the players' existing rating rows in one canonical
// order ("C" collation of the player ids; the lock is taken as each sorted row is
// emitted). The first column says whether this call claimed the game; when the id is
// taken (applied before, or being applied right now by another call that this one waits
// for on the unique index) no rating row is locked. Always at least one row comes back;
// player columns are NULL when no player has a rating row yet.
const char kClaim[] =
    "WITH g AS (INSERT INTO rating.games (game_id, kind, pool, seats, finished_at, players, "
    "  places, teams) VALUES ($5, $6, $2, $7, " TS_FROM_US("$8") ", $1::text[], $3::int[], "
    "  $4::int[]) ON CONFLICT (game_id) DO NOTHING RETURNING 1), "
    "l AS (SELECT player_id, rating, rd, volatility FROM rating.ratings "
    "  WHERE pool = $2 AND player_id = ANY($1::text[]) AND EXISTS (SELECT 1 FROM g) "
    "  ORDER BY player_id FOR UPDATE) "
    "SELECT (SELECT count(*) FROM g), l.player_id, float8send(l.rating), float8send(l.rd), "
    "  float8send(l.volatility) FROM (VALUES (1)) AS one LEFT JOIN l ON true";

// New ratings (updates of the locked rows, inserts of new players in canonical order) and
// the per-seat results, in one statement. A new player inserted meanwhile by another game
// (his first two games at once) makes the insert do nothing: rating.retry() then aborts
// the transaction with a serialization failure and Apply starts over, locking his row.
const char kWrite[] =
    "WITH v AS (SELECT * FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], "
    "  $5::float8[], $6::float8[], $7::float8[], $8::int[], $9::int[], $10::float8[], "
    "  $11::bool[], $16::bool[]) WITH ORDINALITY "
    "  AS v(player_id, b_r, b_rd, b_v, a_r, a_rd, a_v, place, team, score, prov, new, seat)), "
    "u AS (UPDATE rating.ratings r SET rating = v.a_r, rd = v.a_rd, volatility = v.a_v, "
    "  games = r.games + 1, last_game_at = greatest(r.last_game_at, " TS_FROM_US("$14") ") "
    "  FROM v WHERE NOT v.new AND r.pool = $12 "
    "  AND r.player_id = ANY($1::text[]) AND r.player_id = v.player_id), "
    "i AS (INSERT INTO rating.ratings (player_id, pool, rating, rd, volatility, games, "
    "  last_game_at) SELECT v.player_id, $12, v.a_r, v.a_rd, v.a_v, 1, " TS_FROM_US("$14") " "
    "  FROM v WHERE v.new ORDER BY v.player_id COLLATE \"C\" "
    "  ON CONFLICT (player_id, pool) DO NOTHING RETURNING 1), "
    "h AS (INSERT INTO rating.results (game_id, seat, player_id, pool, place, team, score, "
    "  provisional, before_rating, before_rd, before_vol, after_rating, after_rd, after_vol, "
    "  finished_at, seats) "
    "  SELECT $13, v.seat - 1, v.player_id, $12, v.place, v.team, v.score, v.prov, v.b_r, "
    "  v.b_rd, v.b_v, v.a_r, v.a_rd, v.a_v, " TS_FROM_US("$14") ", $15 FROM v) "
    "SELECT CASE WHEN (SELECT count(*) FROM i) <> $17 THEN rating.retry() END";

// Both are prepared once per connection (on first use: EXECUTE of an unknown name
// fails, Apply prepares and runs again) and run by EXECUTE inside the simple queries, so
// that neither is parsed or planned per report.
// Their generic plans are the right ones (index scans on the players' keys, which the
// ANY($1) conditions make the only sensible plan even while the tables are empty, when
// the plans are made); without forcing them Postgres keeps planning the claim each call.
const char kPrepare[] =
    "SET plan_cache_mode = force_generic_plan; "
    "PREPARE rating_claim(text[], smallint, int[], int[], text, smallint, smallint, bigint) "
    "AS %s; "
    "PREPARE rating_write(text[], float8[], float8[], float8[], float8[], float8[], float8[], "
    "int[], int[], float8[], bool[], smallint, text, bigint, smallint, bool[], bigint) AS %s";

std::string Execute(const char* name, const std::vector<std::string>& args) {
  return absl::StrCat("EXECUTE ", name, "(", absl::StrJoin(args, ", "), ")");
}

// A replay: the stored content (to compare) and the changes recorded, found through the
// history index (player, pool, time, game).
const char kLoadGame[] =
    "SELECT kind, pool, " US_FROM_TS("finished_at") ", u.p, u.pl, u.tm "
    "FROM rating.games, unnest(players, places, teams) WITH ORDINALITY AS u(p, pl, tm, i) "
    "WHERE game_id = $1 ORDER BY u.i";
const char kLoadResults[] =
    "SELECT seat, player_id, place, team, float8send(score), provisional, "
    "float8send(before_rating), float8send(before_rd), float8send(before_vol), "
    "float8send(after_rating), float8send(after_rd), float8send(after_vol) "
    "FROM rating.results WHERE player_id = ANY($1::text[]) AND pool = $2 "
    "AND finished_at = " TS_FROM_US("$3") " AND game_id = $4 ORDER BY seat";

const char kStandings[] =
    "SELECT pool, float8send(rating), float8send(rd), float8send(volatility), games, "
    US_FROM_TS("last_game_at") " FROM rating.ratings WHERE player_id = $1 AND games > 0 "
    "ORDER BY pool";

// The RD bound of the partial leaderboard index (migrations/0001_ratings.sql).
constexpr double kLeaderboardIndexRd = 150;

// The pool's leaderboard query. The index's own predicate is repeated when the limit is
// within it, so that the planner can use the partial index.
std::string BoardQuery(bool next, double limit) {
  return absl::StrCat(
      "SELECT player_id, float8send(rating), float8send(rd), games FROM rating.ratings "
      "WHERE pool = $1 AND rd <= $2::float8 ",
      limit <= kLeaderboardIndexRd ? "AND rd <= 150 " : "",
      next ? "AND (rating < $4::float8 OR (rating = $4::float8 AND (games < $5 OR "
             "(games = $5 AND player_id > $6)))) "
           : "",
      "ORDER BY rating DESC, games DESC, player_id LIMIT $3");
}

#define HISTORY_COLUMNS \
  "SELECT game_id, " US_FROM_TS("finished_at") ", float8send(before_rating), "          \
  "float8send(before_rd), float8send(before_vol), float8send(after_rating), "           \
  "float8send(after_rd), float8send(after_vol), place, seats FROM rating.results "
const char kHistoryFirst[] = HISTORY_COLUMNS
    "WHERE player_id = $1 AND pool = $2 ORDER BY finished_at DESC, game_id DESC LIMIT $3";
const char kHistoryNext[] = HISTORY_COLUMNS
    "WHERE player_id = $1 AND pool = $2 AND (finished_at, game_id) < (" TS_FROM_US("$4") ", $5) "
    "ORDER BY finished_at DESC, game_id DESC LIMIT $3";

glicko2::Player PlayerAt(const pqxx::row& row, int col) {
  return {FromBits(row[col]), FromBits(row[col + 1]), FromBits(row[col + 2])};
}

// Runs a read-only query on a pooled connection, turning exceptions into a status.
template <typename Fn>
absl::Status Read(pg::Pool* pool, Fn fn) {
  auto conn = pool->Acquire();
  if (!conn.ok()) return conn.status();
  try {
    pqxx::nontransaction n(**conn);
    fn(n);
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return pg::FromException(e);
  }
}

}  // namespace

absl::StatusOr<Applied> Store::Apply(const Report& r) {
  absl::Status last;
  int deadlocks = 0;
  bool prepared = false;
  for (int attempt = 1; attempt <= 5; ++attempt) {
    auto conn = pool_->Acquire();
    if (!conn.ok()) return conn.status();
    Applied out;
    out.attempts = attempt;
    out.deadlocks = deadlocks;
    try {
      pqxx::nontransaction n(**conn);
      last = ApplyTx(n, r, &out);  // ends its transaction whatever it returns
      if (last.ok()) return out;
    } catch (const pqxx::invalid_sql_statement_name& e) {
      // A connection that has not prepared the statements yet (SQLSTATE 26000).
      last = pg::FromException(e);
      if (prepared) return last;
      prepared = true;
      --attempt;
      try {
        pqxx::nontransaction n(**conn);
        n.exec("ROLLBACK");
        n.exec(absl::StrFormat(kPrepare, kClaim, kWrite));
      } catch (const std::exception& e2) {
        return pg::FromException(e2);
      }
      continue;
    } catch (const std::exception& e) {
      deadlocks += dynamic_cast<const pqxx::deadlock_detected*>(&e) != nullptr;
      // libpqxx 6 throws serialization failures and deadlocks as transaction_rollback,
      // which is not an sql_error, so pg::FromException would not see their SQLSTATE.
      last = dynamic_cast<const pqxx::transaction_rollback*>(&e) != nullptr
                 ? absl::AbortedError(absl::StrCat("database: ", e.what()))
                 : pg::FromException(e);
      // Leave no (failed) transaction open on a pooled connection.
      try {
        pqxx::nontransaction n(**conn);
        n.exec("ROLLBACK");
      } catch (const std::exception&) {
        // A broken connection: the pool drops it.
      }
    }
    // Deadlocks (none expected: see store.h) and broken connections are retried; a retry
    // is safe even when a lost COMMIT did apply the game, since it then finds it applied.
    if (last.code() != absl::StatusCode::kAborted &&
        last.code() != absl::StatusCode::kUnavailable) {
      return last;
    }
  }
  return last;
}

absl::Status Store::ApplyTx(pqxx::transaction_base& t, const Report& r, Applied* out) {
  const int n = static_cast<int>(r.seats.size());
  std::vector<std::string> players;
  for (const ReportSeat& s : r.seats) players.push_back(s.player);
  const std::string quoted_players = Quote(t, SqlTextArray(players));
  const std::string pool = absl::StrCat(r.pool), us = absl::StrCat(r.finished_us);
  std::vector<int> place, team;
  for (const ReportSeat& s : r.seats) place.push_back(s.place), team.push_back(s.team);
  pqxx::result locked = t.exec(absl::StrCat(
      "BEGIN; ", Execute("rating_claim", {quoted_players, pool, Quote(t, SqlIntArray(place)),
                                          Quote(t, SqlIntArray(team)), Quote(t, r.game_id),
                                          absl::StrCat(r.kind), absl::StrCat(n), us})));
  if (locked.empty() || locked[0][0].as<int>() == 0) {
    absl::Status s = LoadApplied(t, r, out);
    t.exec("ROLLBACK");  // nothing was written
    return s;
  }
  absl::flat_hash_map<std::string, glicko2::Player> before;
  for (const pqxx::row& row : locked) {
    if (!row[1].is_null()) before[row[1].c_str()] = PlayerAt(row, 2);
  }
  std::vector<glicko2::Seat> seats(n);
  std::vector<bool> fresh(n);
  int fresh_count = 0;
  for (int i = 0; i < n; ++i) {
    auto it = before.find(r.seats[i].player);
    fresh[i] = it == before.end();
    fresh_count += fresh[i];
    seats[i] = {fresh[i] ? glicko2::Initial(config_) : it->second, r.seats[i].place,
                r.seats[i].team};
  }
  absl::StatusOr<std::vector<glicko2::Player>> after = glicko2::RateGame(seats, config_);
  if (!after.ok()) {
    t.exec("ROLLBACK");
    return after.status();
  }

  std::vector<double> br, brd, bv, ar, ard, av, score;
  std::vector<bool> prov;
  for (int i = 0; i < n; ++i) {
    Change c;
    c.player = r.seats[i].player;
    c.seat = i;
    c.before = seats[i].before;
    c.after = (*after)[i];
    c.provisional = glicko2::IsProvisional(c.after, config_);
    for (const glicko2::Opponent& o : glicko2::PairwiseResults(seats, i)) c.score += o.score;
    br.push_back(c.before.rating), brd.push_back(c.before.rd), bv.push_back(c.before.vol);
    ar.push_back(c.after.rating), ard.push_back(c.after.rd), av.push_back(c.after.vol);
    score.push_back(c.score), prov.push_back(c.provisional);
    out->changes.push_back(std::move(c));
  }
  t.exec(absl::StrCat(
      Execute(
          "rating_write",
          {quoted_players, Quote(t, SqlFloatArray(br)), Quote(t, SqlFloatArray(brd)),
           Quote(t, SqlFloatArray(bv)), Quote(t, SqlFloatArray(ar)), Quote(t, SqlFloatArray(ard)),
           Quote(t, SqlFloatArray(av)), Quote(t, SqlIntArray(place)), Quote(t, SqlIntArray(team)),
           Quote(t, SqlFloatArray(score)), Quote(t, SqlBoolArray(prov)), pool, Quote(t, r.game_id),
           us, absl::StrCat(n), Quote(t, SqlBoolArray(fresh)), absl::StrCat(fresh_count)}),
      "; COMMIT"));
  out->applied_now = true;
  return absl::OkStatus();
}

absl::Status Store::LoadApplied(pqxx::transaction_base& t, const Report& r, Applied* out) {
  pqxx::result g = t.exec(Bind(kLoadGame, {Quote(t, r.game_id)}));
  if (g.empty()) return absl::InternalError("game row vanished");
  Report stored;
  stored.game_id = r.game_id;
  stored.kind = g[0][0].as<int>();
  stored.pool = g[0][1].as<int>();
  const std::string us = g[0][2].c_str();
  std::vector<std::string> players;
  for (const pqxx::row& row : g) {
    stored.seats.push_back({row[3].c_str(), row[4].as<int>(), row[5].as<int>()});
    players.push_back(row[3].c_str());
  }
  pqxx::result rows =
      t.exec(Bind(kLoadResults, {Quote(t, SqlTextArray(players)), absl::StrCat(stored.pool), us,
                                 Quote(t, r.game_id)}));
  for (const pqxx::row& row : rows) {
    Change c;
    c.seat = row[0].as<int>();
    c.player = row[1].c_str();
    c.score = FromBits(row[4]);
    c.provisional = row[5].as<bool>();
    c.before = PlayerAt(row, 6);
    c.after = PlayerAt(row, 9);
    out->changes.push_back(std::move(c));
  }
  if (!SameContent(stored, r)) {
    out->changes.clear();
    return absl::FailedPreconditionError(absl::StrCat(
        "game \"", r.game_id, "\" was already reported with different ",
        stored.kind != r.kind || stored.pool != r.pool ? "kind or pool" : "seats or places",
        "; a game's result cannot change"));
  }
  out->applied_now = false;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Standing>> Store::Standings(const std::string& player) {
  std::vector<Standing> out;
  absl::Status s = Read(pool_, [&](pqxx::nontransaction& n) {
    for (const pqxx::row& row : n.exec_params(kStandings, player)) {
      Standing st;
      st.pool = row[0].as<int>();
      st.value = PlayerAt(row, 1);
      st.games = row[4].as<int>();
      if (!row[5].is_null()) st.last_us = row[5].as<int64_t>();
      out.push_back(st);
    }
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<std::vector<BoardRow>> Store::Leaderboard(int pool, const BoardRow* after,
                                                         int limit) {
  std::vector<BoardRow> out;
  absl::Status s = Read(pool_, [&](pqxx::nontransaction& n) {
    std::string rd = SqlFloat(config_.leaderboard_rd);
    pqxx::result res =
        after == nullptr ? n.exec_params(BoardQuery(false, config_.leaderboard_rd), pool, rd, limit)
                         : n.exec_params(BoardQuery(true, config_.leaderboard_rd), pool, rd, limit,
                                         SqlFloat(after->rating), after->games, after->player);
    int rank = after == nullptr ? 0 : after->rank;
    for (const pqxx::row& row : res) {
      out.push_back({++rank, row[0].c_str(), FromBits(row[1]), FromBits(row[2]), row[3].as<int>()});
    }
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<std::vector<HistoryRow>> Store::History(const std::string& player, int pool,
                                                       const HistoryRow* after, int limit) {
  std::vector<HistoryRow> out;
  absl::Status s = Read(pool_, [&](pqxx::nontransaction& n) {
    pqxx::result res = after == nullptr ? n.exec_params(kHistoryFirst, player, pool, limit)
                                        : n.exec_params(kHistoryNext, player, pool, limit,
                                                        after->us, after->game_id);
    for (const pqxx::row& row : res) {
      HistoryRow h;
      h.game_id = row[0].c_str();
      h.us = row[1].as<int64_t>();
      h.before = PlayerAt(row, 2);
      h.after = PlayerAt(row, 5);
      h.place = row[8].as<int>();
      h.seats = row[9].as<int>();
      out.push_back(std::move(h));
    }
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace tablero::rating
