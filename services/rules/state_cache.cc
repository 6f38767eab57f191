#include "services/rules/state_cache.h"

#include <utility>

#include "absl/hash/hash.h"

namespace tablero::rules {

StateCache::StateCache(size_t capacity)
    : per_shard_(capacity == 0 ? 0 : (capacity + kShards - 1) / kShards) {}

StateCache::Shard& StateCache::ShardOf(absl::string_view state, size_t* hash) {
  *hash = absl::HashOf(state);
  return shards_[(*hash >> 7) % kShards];  // low bits pick the slot inside the map
}

std::unique_ptr<game::Game> StateCache::Find(absl::string_view state) {
  if (!enabled() || state.size() > kMaxStateBytes) return nullptr;
  size_t hash;
  Shard& s = ShardOf(state, &hash);
  std::shared_ptr<const game::Game> found;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.index.find(state);
    if (it == s.index.end()) return nullptr;
    s.lru.splice(s.lru.begin(), s.lru, it->second);
    found = it->second->game;
  }
  return found->Clone();  // outside the lock: the entry is shared and immutable
}

void StateCache::Insert(absl::string_view state, std::unique_ptr<game::Game> game) {
  if (!enabled() || game == nullptr || state.size() > kMaxStateBytes) return;
  size_t hash;
  Shard& s = ShardOf(state, &hash);
  std::shared_ptr<const game::Game> evicted;  // destroyed outside the lock
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.index.contains(state)) return;
  s.lru.push_front(Entry{std::string(state), std::shared_ptr<const game::Game>(std::move(game))});
  s.index.emplace(s.lru.front().state, s.lru.begin());
  if (s.lru.size() > per_shard_) {
    s.index.erase(s.lru.back().state);
    evicted = std::move(s.lru.back().game);
    s.lru.pop_back();
  }
}

}  // namespace tablero::rules
