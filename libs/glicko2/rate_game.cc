// A finished game -> one Glicko-2 rating period per seat (rules at the top of glicko2.h).
#include <cmath>

#include "absl/strings/str_cat.h"
#include "libs/glicko2/glicko2.h"

namespace tablero::glicko2 {
namespace {

bool Partners(const Seat& a, const Seat& b) { return a.team >= 0 && a.team == b.team; }

double Score(int place, int other_place) {
  return place < other_place ? 1.0 : place > other_place ? 0.0 : 0.5;
}

absl::Status Check(const std::vector<Seat>& seats) {
  if (seats.size() < 2)
    return absl::InvalidArgumentError(
        absl::StrCat("glicko2: a game needs at least two seats, got ", seats.size()));
  bool two_sides = false;
  for (size_t i = 0; i < seats.size(); ++i) {
    const Seat& s = seats[i];
    if (absl::Status st = ValidatePlayer(s.before); !st.ok())
      return absl::InvalidArgumentError(absl::StrCat("seat ", i, ": ", st.message()));
    if (s.place < 1)
      return absl::InvalidArgumentError(absl::StrCat("seat ", i, ": place must be >= 1"));
    if (s.team < -1)
      return absl::InvalidArgumentError(absl::StrCat("seat ", i, ": team must be >= -1"));
    for (size_t j = 0; j < i; ++j) {
      if (!Partners(s, seats[j])) {
        two_sides = true;
      } else if (s.place != seats[j].place) {
        return absl::InvalidArgumentError(
            absl::StrCat("seats ", j, " and ", i, " are partners with different places"));
      }
    }
  }
  if (!two_sides) return absl::InvalidArgumentError("glicko2: every seat is on one team");
  return absl::OkStatus();
}

}  // namespace

std::vector<Opponent> PairwiseResults(const std::vector<Seat>& seats, int i) {
  const Seat& me = seats[i];
  std::vector<Opponent> out;
  for (size_t j = 0; j < seats.size(); ++j) {
    if (static_cast<int>(j) == i || Partners(me, seats[j])) continue;
    const Seat& o = seats[j];
    out.push_back({o.before.rating, o.before.rd, Score(me.place, o.place), 1.0});
  }
  // Damping: the game counts as one game in total, spread evenly over the opponents.
  for (Opponent& o : out) o.weight = 1.0 / static_cast<double>(out.size());
  return out;
}

absl::StatusOr<std::vector<Player>> RateGame(const std::vector<Seat>& seats, const Config& c) {
  if (absl::Status st = ValidateConfig(c); !st.ok()) return st;
  if (absl::Status st = Check(seats); !st.ok()) return st;
  std::vector<Player> after;
  after.reserve(seats.size());
  for (size_t i = 0; i < seats.size(); ++i) {
    // Every seat is rated from the pre-game values in `seats`, never from `after`.
    const Player p = Update(seats[i].before, PairwiseResults(seats, static_cast<int>(i)), c);
    if (!std::isfinite(p.rating) || !std::isfinite(p.rd) || !std::isfinite(p.vol))
      return absl::InvalidArgumentError(
          absl::StrCat("glicko2: seat ", i, ": ratings too far apart to compute"));
    after.push_back(p);
  }
  return after;
}

}  // namespace tablero::glicko2
