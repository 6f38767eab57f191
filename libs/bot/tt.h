// Transposition table of the chess search: one 16-byte entry per bucket slot, always
// replaced unless the stored entry is deeper and of the current search. Each thread owns
// one table, cleared at the start of every request so that a seeded search is repeatable.
#ifndef TABLERO_LIBS_BOT_TT_H_
#define TABLERO_LIBS_BOT_TT_H_

#include <cstdint>
#include <cstring>
#include <vector>

namespace tablero::bot {

enum Bound : uint8_t { kBoundNone = 0, kBoundUpper = 1, kBoundLower = 2, kBoundExact = 3 };

struct TtEntry {
  uint64_t key;
  int16_t score;
  int16_t eval;
  uint16_t move;
  int8_t depth;
  uint8_t bound;
};
static_assert(sizeof(TtEntry) == 16);

class TranspositionTable {
 public:
  explicit TranspositionTable(int log2_entries) : mask_((1ULL << log2_entries) - 1) {
    table_.resize(size_t(mask_ + 1));
    Clear();
  }
  void Clear() { std::memset(table_.data(), 0, table_.size() * sizeof(TtEntry)); }

  // Starts loading the entry of `key` into the cache (call as soon as a child's key is
  // known: the probe at the child then rarely waits on memory).
  void Prefetch(uint64_t key) const { __builtin_prefetch(&table_[key & mask_]); }

  const TtEntry* Probe(uint64_t key) const {
    const TtEntry& e = table_[key & mask_];
    return e.key == key && e.bound != kBoundNone ? &e : nullptr;
  }
  void Store(uint64_t key, int score, int eval, uint16_t move, int depth, Bound bound) {
    TtEntry& e = table_[key & mask_];
    // Keep a deeper exact result of the same position unless the new one is exact too.
    if (e.key == key && e.depth > depth && bound != kBoundExact) return;
    if (e.key == key && move == 0) move = e.move;  // keep the best move we knew
    e = TtEntry{key, int16_t(score), int16_t(eval), move, int8_t(depth), uint8_t(bound)};
  }

 private:
  uint64_t mask_;
  std::vector<TtEntry> table_;
};

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_TT_H_
