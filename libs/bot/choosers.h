// Internal: the per-game choosers behind ChooseMove (bot.cc has already checked the level,
// the budget and that the game is not over).
#ifndef TABLERO_LIBS_BOT_CHOOSERS_H_
#define TABLERO_LIBS_BOT_CHOOSERS_H_

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/bot/bot.h"
#include "libs/bot/clock.h"

namespace tablero::bot {

// Small, fast, repeatable random numbers (splitmix64).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t Next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  int Below(int n) { return int(Next() % uint64_t(n)); }

 private:
  uint64_t s_;
};

// The instant a search must stop: the request's arrival (bot.cc has filled it in) plus its
// budget, less a little for converting the answer and sending it (a twentieth, at most 3 ms:
// that takes well under a millisecond; the clock's pause allowance covers a busy machine).
inline SearchClock::Clock::time_point HardLimit(const Request& request) {
  const int reserve = std::min(3, request.budget_ms / 20);
  return request.arrival + std::chrono::milliseconds(std::max(1, request.budget_ms - reserve));
}
// Whether the search stops by the clock: always, except a seeded request that asked for
// nodes only.
inline bool Clocked(const Request& request, bool seeded) { return !seeded || request.use_clock; }
// The clock of a search: HardLimit and the request's cancellation when Clocked, else none.
inline SearchClock ClockFor(const Request& request, bool seeded) {
  return Clocked(request, seeded) ? SearchClock(HardLimit(request), request.cancelled)
                                  : SearchClock();
}

// `seed` is never 0 here (bot.cc draws one for unseeded requests); `seeded` tells whether
// the caller asked for a repeatable answer; `request.arrival` is set.
absl::StatusOr<Choice> ChooseChess(const game::Game& game, const Request& request, uint64_t seed,
                                   bool seeded);
absl::StatusOr<Choice> ChooseCheckers(const game::Game& game, const Request& request, uint64_t seed,
                                      bool seeded);
absl::StatusOr<Choice> ChooseShogi4(const game::Game& game, const Request& request, uint64_t seed,
                                    bool seeded);
absl::StatusOr<Choice> ChooseGeneric(const game::Game& game, const Request& request, uint64_t seed,
                                     bool seeded);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHOOSERS_H_
