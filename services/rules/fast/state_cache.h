// A bounded cache of decoded games, keyed by the exact state bytes the service returned.
//
// Why: a game's next request carries, byte for byte, the state this service answered last
// time. A hit hands back the game object that answer was encoded from, so the request
// skips the decode (its CRC, its checks and the object's allocations: a quarter to a third
// of an apply's own work, fast_path.h).
//
// A hit takes the game out of the cache: the caller plays it and puts it back under the
// state it answers with, so in a running game one object travels from move to move with no
// copy. A second request with the same state (a retry, another tab) misses and decodes.
//
// It keeps the service stateless in every sense that matters: a miss (another replica, a
// restart, an evicted entry) just decodes, and an entry is only ever a game this process
// built itself (by Decode of exactly those bytes, or by playing a move and encoding the
// result), so a hit gives what a decode would. Keys are compared in full, never by hash
// alone. Direct-mapped: a state's CRC-32 trailer picks its slot, and a new entry replaces
// whatever was there (a lost entry costs one decode). Slots are locked in stripes, so that
// threads rarely meet on a lock, and nothing is allocated on a hit.
#ifndef TABLERO_SERVICES_RULES_FAST_STATE_CACHE_H_
#define TABLERO_SERVICES_RULES_FAST_STATE_CACHE_H_

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "libs/game/game.h"

namespace tablero::rules::fast {

class StateCache {
 public:
  // States longer than this are not kept: typical states are 0.1-0.8 KiB, and the bound
  // keeps the worst case (slots x long games) to a few hundred MiB.
  static constexpr size_t kMaxStateBytes = 8 << 10;

  // `slots` entries at most, rounded up to a power of two (0 disables the cache).
  explicit StateCache(size_t slots);

  // The game whose Encode() is `state`, taken out of the cache, or null on a miss.
  std::unique_ptr<game::Game> Find(absl::string_view state);
  // Keeps `game` (now owned by the cache) as the game of `state`, in place of the slot's
  // previous entry.
  void Insert(absl::string_view state, std::unique_ptr<game::Game> game);

  bool enabled() const { return !slots_.empty(); }
  size_t slots() const { return slots_.size(); }

 private:
  static constexpr size_t kStripes = 64;
  struct Slot {
    std::string state;  // keeps its room when the slot is reused
    std::unique_ptr<game::Game> game;
  };
  struct alignas(64) Stripe {
    absl::Mutex mu;
  };
  size_t SlotOf(absl::string_view state) const;

  std::vector<Slot> slots_;  // slot i is guarded by stripes_[i % kStripes]
  std::array<Stripe, kStripes> stripes_;
};

}  // namespace tablero::rules::fast

#endif  // TABLERO_SERVICES_RULES_FAST_STATE_CACHE_H_
