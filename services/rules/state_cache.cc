#include "services/rules/state_cache.h"

#include <utility>

#include "absl/hash/hash.h"
#include "absl/numeric/bits.h"

namespace tablero::rules {

StateCache::StateCache(size_t slots) : slots_(slots == 0 ? 0 : absl::bit_ceil(slots)) {}

size_t StateCache::SlotOf(absl::string_view state) const {
  return absl::HashOf(state) & (slots_.size() - 1);
}

std::unique_ptr<game::Game> StateCache::Find(absl::string_view state) {
  if (!enabled() || state.size() > kMaxStateBytes) return nullptr;
  const size_t i = SlotOf(state);
  Slot& s = slots_[i];
  absl::MutexLock lock(&stripes_[i % kStripes].mu);
  if (s.game == nullptr || s.state != state) return nullptr;
  return std::move(s.game);
}

void StateCache::Insert(absl::string_view state, std::unique_ptr<game::Game> game) {
  if (!enabled() || game == nullptr || state.size() > kMaxStateBytes) return;
  const size_t i = SlotOf(state);
  Slot& s = slots_[i];
  {
    absl::MutexLock lock(&stripes_[i % kStripes].mu);
    s.state.assign(state.data(), state.size());
    s.game.swap(game);
  }
  // `game` now holds the entry replaced, if any: destroyed outside the lock.
}

}  // namespace tablero::rules
