// A bounded cache of decoded games, keyed by the exact state bytes the service returned.
//
// Why: a game's next request carries, byte for byte, the state this service answered last
// time, and some engines decode slowly on purpose (chess replays its move list to rebuild
// repetition history and validate every move). A hit replaces that decode by a Clone().
//
// It keeps the service stateless in every sense that matters: a miss (another replica, a
// restart, an evicted entry) just decodes, and an entry is only ever a game this process
// built itself (by Decode of exactly those bytes, or by playing a move and encoding the
// result), so a hit gives what a decode would. Keys are compared in full, never by hash
// alone. Sharded LRU so that threads rarely meet on a lock.
#ifndef TABLERO_SERVICES_RULES_STATE_CACHE_H_
#define TABLERO_SERVICES_RULES_STATE_CACHE_H_

#include <array>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "libs/game/game.h"

namespace tablero::rules {

class StateCache {
 public:
  // States longer than this are not kept: typical states are 0.2-2 KiB, and the bound
  // keeps the worst case (capacity x long games) to a few hundred MiB.
  static constexpr size_t kMaxStateBytes = 8 << 10;

  // `capacity` entries in all (0 disables the cache).
  explicit StateCache(size_t capacity);

  // A fresh copy of the game whose Encode() is `state`, or null on a miss.
  std::unique_ptr<game::Game> Find(absl::string_view state);
  // Remembers `game` (now owned by the cache) as the game of `state`; no-op if known.
  void Insert(absl::string_view state, std::unique_ptr<game::Game> game);

  bool enabled() const { return per_shard_ > 0; }

 private:
  static constexpr size_t kShards = 16;
  struct Entry {
    std::string state;
    std::shared_ptr<const game::Game> game;
  };
  struct Shard {
    std::mutex mu;
    std::list<Entry> lru;                                                      // most recent first
    absl::flat_hash_map<absl::string_view, std::list<Entry>::iterator> index;  // views lru keys
  };
  Shard& ShardOf(absl::string_view state, size_t* hash);

  size_t per_shard_;
  std::array<Shard, kShards> shards_;
};

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_STATE_CACHE_H_
