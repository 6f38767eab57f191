// The searches' clock: a hard limit that is an instant (the request's arrival plus its
// budget, less a little for the answer), not a duration from whenever the search started,
// and that allows for the thread being off the CPU. On a busy machine (more searches than
// cores) a thread that checks the clock just before the limit may not run again for tens
// of milliseconds; the clock keeps the longest pause it has seen between two checks and
// stops when now plus that pause would pass the limit, so the answer still arrives on time.
// It also stops once an answer is no longer wanted (Request::cancelled, asked about once a
// millisecond).
#ifndef TABLERO_LIBS_BOT_CLOCK_H_
#define TABLERO_LIBS_BOT_CLOCK_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

namespace tablero::bot {

class SearchClock {
 public:
  using Clock = std::chrono::steady_clock;

  // No limit: Expired() is always false.
  SearchClock() : start_(Clock::now()), last_(start_) {}
  // The search may run until `limit`, or until `cancelled` (if set) says to stop.
  explicit SearchClock(Clock::time_point limit, std::function<bool()> cancelled = {})
      : start_(Clock::now()),
        limit_(limit),
        has_limit_(true),
        last_(start_),
        cancelled_(std::move(cancelled)),
        asked_(start_) {}

  bool has_limit() const { return has_limit_; }
  // Milliseconds since the search started.
  int64_t ElapsedMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count();
  }
  // Milliseconds from the search's start to its limit (0 without one).
  int64_t TotalMs() const {
    return has_limit_
               ? std::max<int64_t>(
                     0,
                     std::chrono::duration_cast<std::chrono::milliseconds>(limit_ - start_).count())
               : 0;
  }

  // True once the search must stop. Call it every few hundred nodes at most (a
  // fraction of a millisecond of work), so that a long gap between two calls means the
  // thread was waiting for the CPU.
  bool Expired() {
    if (!has_limit_) return false;
    const Clock::time_point now = Clock::now();
    max_pause_ = std::max(max_pause_, now - last_);
    last_ = now;
    // Twice the pause: one before the search sees the limit, one before the answer is sent.
    if (now + 2 * max_pause_ >= limit_) return true;
    if (cancelled_ && now - asked_ >= std::chrono::milliseconds(1)) {
      asked_ = now;
      if (cancelled_()) {
        limit_ = now;  // stays expired
        return true;
      }
    }
    return false;
  }

 private:
  Clock::time_point start_;
  Clock::time_point limit_{};
  bool has_limit_ = false;
  Clock::time_point last_;
  Clock::duration max_pause_{0};
  std::function<bool()> cancelled_;
  Clock::time_point asked_;  // when cancelled_ was last asked
};

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CLOCK_H_
