#include "services/rating/report.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "libs/games/kinds.h"

namespace tablero::rating {
namespace {

using tablero::v1::GameKind;
using tablero::v1::RatingPool;

// How far ahead of this server's clock a report's finished_time may be: the replicas'
// clocks differ a little; a game that ends later than that is a bad report.
constexpr absl::Duration kClockSkew = absl::Minutes(5);

bool PoolFits(int kind, int pool) {
  switch (kind) {
    case tablero::v1::GAME_KIND_CHESS:
      return pool == tablero::v1::RATING_POOL_CHESS;
    case tablero::v1::GAME_KIND_SHOGI4:
      return pool == tablero::v1::RATING_POOL_SHOGI4_SINGLES ||
             pool == tablero::v1::RATING_POOL_SHOGI4_PAIRS;
    case tablero::v1::GAME_KIND_CHECKERS:
      return pool == tablero::v1::RATING_POOL_CHECKERS;
  }
  return false;
}

// Seat counts each game is played with (chess 2, shogi 4, Chinese Checkers 2-6).
void SeatRange(int kind, int* lo, int* hi) {
  *lo = kind == tablero::v1::GAME_KIND_SHOGI4 ? 4 : 2;
  *hi = kind == tablero::v1::GAME_KIND_CHECKERS ? 6 : *lo;
}

// Places count up from 1, ties sharing one: no place is above (worse than) one more than
// the number of seats placed better. Both ways of numbering after a tie pass (1, 1, 3 and
// 1, 1, 2: the pairs pool's teams come as 1 and 2); a game with nobody first does not.
absl::Status CheckPlaces(const std::vector<ReportSeat>& seats) {
  for (size_t i = 0; i < seats.size(); ++i) {
    int better = 0;
    for (const ReportSeat& other : seats) better += other.place < seats[i].place;
    if (seats[i].place > better + 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("seats[", i, "].place is ", seats[i].place, " but ", better,
                       better == 1 ? " seat places" : " seats place",
                       " better: places count up from 1, tied seats sharing a place"));
    }
  }
  return absl::OkStatus();
}

// Pairs: two teams, 0 and 1, of two partners who share a place.
absl::Status CheckTeams(const std::vector<ReportSeat>& seats) {
  int count[2] = {0, 0};
  int place[2] = {0, 0};
  for (size_t i = 0; i < seats.size(); ++i) {
    int t = seats[i].team;
    if (t != 0 && t != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("seats[", i, "].team must be 0 or 1 in RATING_POOL_SHOGI4_PAIRS, got ", t));
    }
    if (count[t]++ == 0) {
      place[t] = seats[i].place;
    } else if (place[t] != seats[i].place) {
      return absl::InvalidArgumentError(
          absl::StrCat("partners of team ", t, " have different places (", place[t], " and ",
                       seats[i].place, "); partners share their team's place"));
    }
  }
  if (count[0] != 2 || count[1] != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("RATING_POOL_SHOGI4_PAIRS needs two seats in team 0 and two in team 1, got ",
                     count[0], " and ", count[1]));
  }
  return absl::OkStatus();
}

}  // namespace

const char* PoolName(int pool) {
  switch (pool) {
    case tablero::v1::RATING_POOL_CHESS:
      return "chess";
    case tablero::v1::RATING_POOL_SHOGI4_SINGLES:
      return "shogi4_singles";
    case tablero::v1::RATING_POOL_SHOGI4_PAIRS:
      return "shogi4_pairs";
    case tablero::v1::RATING_POOL_CHECKERS:
      return "checkers";
  }
  return "unknown";
}

absl::Status CheckId(const std::string& id, const char* what) {
  if (id.empty()) return absl::InvalidArgumentError(absl::StrCat(what, " is empty"));
  if (id.size() > kMaxIdBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is longer than ", kMaxIdBytes, " bytes"));
  }
  if (id.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(what, " contains a NUL character"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Report> ParseReport(const tablero::v1::ReportGameRequest& req, absl::Time now) {
  Report r;
  if (absl::Status s = CheckId(req.game_id(), "game_id"); !s.ok()) return s;
  r.game_id = req.game_id();
  r.kind = req.kind();
  r.pool = req.pool();
  if (r.kind == tablero::v1::GAME_KIND_UNSPECIFIED) {
    return absl::InvalidArgumentError("kind is required");
  }
  if (!games::ProtoKind(r.kind)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown game kind ", r.kind));
  }
  if (r.pool == tablero::v1::RATING_POOL_UNSPECIFIED) {
    return absl::InvalidArgumentError("pool is required");
  }
  if (!tablero::v1::RatingPool_IsValid(r.pool)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown rating pool ", r.pool));
  }
  if (!PoolFits(r.kind, r.pool)) {
    return absl::InvalidArgumentError(
        absl::StrCat("pool ", tablero::v1::RatingPool_Name(req.pool()), " does not fit kind ",
                     tablero::v1::GameKind_Name(req.kind())));
  }
  const int n = req.seats_size();
  if (n < 2) {
    return absl::InvalidArgumentError(absl::StrCat("a rated game needs at least 2 seats, got ", n));
  }
  int lo, hi;
  SeatRange(r.kind, &lo, &hi);
  if (n < lo || n > hi) {
    return absl::InvalidArgumentError(
        absl::StrCat(tablero::v1::GameKind_Name(req.kind()), " is played with ", lo,
                     lo == hi ? "" : absl::StrCat("-", hi), " seats, got ", n));
  }
  absl::flat_hash_map<std::string, int> seat_of;
  for (int i = 0; i < n; ++i) {
    const tablero::v1::ReportSeat& s = req.seats(i);
    std::string what = absl::StrCat("seats[", i, "].player_id");
    if (absl::Status st = CheckId(s.player_id(), what.c_str()); !st.ok()) return st;
    auto [it, fresh] = seat_of.emplace(s.player_id(), i);
    if (!fresh) {
      return absl::InvalidArgumentError(absl::StrCat(
          "player \"", s.player_id(), "\" is in two seats (", it->second, " and ", i, ")"));
    }
    if (s.place() < 1 || s.place() > n) {
      return absl::InvalidArgumentError(
          absl::StrCat("seats[", i, "].place is ", s.place(), ", out of range 1..", n));
    }
    bool pairs = r.pool == tablero::v1::RATING_POOL_SHOGI4_PAIRS;
    r.seats.push_back({s.player_id(), s.place(), pairs ? s.team() : -1});
  }
  if (absl::Status s = CheckPlaces(r.seats); !s.ok()) return s;
  if (r.pool == tablero::v1::RATING_POOL_SHOGI4_PAIRS) {
    if (absl::Status s = CheckTeams(r.seats); !s.ok()) return s;
  }
  if (req.has_finished_time()) {
    const auto& t = req.finished_time();
    // The range google.protobuf.Timestamp allows: years 1 to 9999.
    if (t.seconds() < -62135596800 || t.seconds() > 253402300799 || t.nanos() < 0 ||
        t.nanos() > 999999999) {
      return absl::InvalidArgumentError("finished_time is not a valid timestamp");
    }
    r.finished_us = t.seconds() * 1000000 + t.nanos() / 1000;
    const int64_t ahead_s = (r.finished_us - absl::ToUnixMicros(now)) / 1000000;
    if (ahead_s > absl::ToInt64Seconds(kClockSkew)) {
      return absl::InvalidArgumentError(
          absl::StrCat("finished_time is ", ahead_s, " s in the future; at most ",
                       absl::ToInt64Seconds(kClockSkew), " s of clock skew is allowed"));
    }
  } else {
    r.finished_us = absl::ToUnixMicros(now);
  }
  return r;
}

bool SameContent(const Report& a, const Report& b) {
  if (a.game_id != b.game_id || a.kind != b.kind || a.pool != b.pool ||
      a.seats.size() != b.seats.size()) {
    return false;
  }
  for (size_t i = 0; i < a.seats.size(); ++i) {
    const ReportSeat &x = a.seats[i], &y = b.seats[i];
    if (x.player != y.player || x.place != y.place || x.team != y.team) return false;
  }
  return true;
}

}  // namespace tablero::rating
