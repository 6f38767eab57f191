#include "services/rules/fast/state_cache.h"

#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/numeric/bits.h"

namespace tablero::rules::fast {

StateCache::StateCache(size_t slots) : slots_(slots == 0 ? 0 : absl::bit_ceil(slots)) {}

size_t StateCache::SlotOf(absl::string_view state) const {
  // Every state ends in the CRC-32 of the bytes before it (game::ByteWriter::FinishState):
  // those four bytes already spread states over the slots, where hashing the whole state
  // again cost ~0.1 us per apply in a server (twice: Find and Insert). A state that is not
  // ours, or made to collide, only misses.
  uint32_t tail = 0;
  if (state.size() >= sizeof tail) {
    std::memcpy(&tail, state.data() + state.size() - sizeof tail, sizeof tail);
  }
  return static_cast<size_t>((tail ^ state.size()) * uint64_t{0x9E3779B97F4A7C15} >> 32) &
         (slots_.size() - 1);
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

}  // namespace tablero::rules::fast
