#include "libs/shogi4/history.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "libs/game/codec.h"
#include "libs/shogi4/types.h"

namespace tablero::shogi4 {
namespace {

// A count no game reaches: over four, or four of a key the history does not end at (the
// fourth occurrence ends the game). The one rule of every path below.
bool Impossible(int count, uint64_t key, uint64_t last) {
  return count > 4 || (count == 4 && key != last);
}

// The exact counts by sorting the keys, for a history the table below gives up on.
[[gnu::noinline]] void CountSorted(const char* in, size_t n, HistoryScan* scan) {
  const uint64_t last = game::GetU64(in + 9 * (n - 1));
  scan->triples = 0;
  scan->n_doubles = -1;
  thread_local std::vector<uint64_t> keys;
  keys.clear();
  for (size_t i = 0; i < n; ++i) keys.push_back(game::GetU64(in + 9 * i));
  std::sort(keys.begin(), keys.end());
  bool ok = true;
  for (size_t i = 0, j; i < keys.size() && ok; i = j) {
    for (j = i + 1; j < keys.size() && keys[j] == keys[i];) ++j;
    const size_t count = j - i;
    if (count >= 3) ++scan->triples;
    if (keys[i] == last) scan->last_count = static_cast<int>(count);
    ok = !Impossible(static_cast<int>(count), keys[i], last);
  }
  scan->ok = ok;
  if (keys.capacity() > (1 << 14)) std::vector<uint64_t>().swap(keys);  // a rare huge state
}

// The table's multiplier, drawn at start-up (a client cannot aim its keys at one slot).
uint64_t Mix() {
  static const uint64_t mix = [] {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32 | rd()) | 1;
  }();
  return mix;
}

// CountSorted's answers for a history too long for ScanHistory's table (up to 1024
// entries), from a table sized to it: 16-bit first entries, under 3/4 full. A long run of
// collisions goes to CountSorted after all.
[[gnu::noinline]] void CountLong(const char* in, size_t n, HistoryScan* scan) {
  constexpr size_t kMaxEntries = 1024;
  constexpr int kMaxProbes = 32;
  constexpr uint16_t kFree = 0xFFFF;
  if (n > kMaxEntries) return CountSorted(in, n, scan);
  int bits = 9;
  while ((size_t{1} << bits) * 3 / 4 < n) ++bits;
  const size_t mask = (size_t{1} << bits) - 1;
  uint16_t first[kMaxEntries * 2];  // first entry of the slot's key
  uint8_t counts[kMaxEntries];      // by first entry (the counting stops at five)
  std::memset(first, 0xFF, sizeof first[0] << bits);
  const uint64_t mix = Mix(), last = game::GetU64(in + 9 * (n - 1));
  int triples = 0, count = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t key = game::GetU64(in + 9 * i);
    size_t slot = (key * mix) >> (64 - bits);
    for (int probe = 0; first[slot] != kFree && game::GetU64(in + 9 * first[slot]) != key;) {
      if (probe++ == kMaxProbes) return CountSorted(in, n, scan);
      slot = (slot + 1) & mask;
    }
    if (first[slot] == kFree) {
      first[slot] = static_cast<uint16_t>(i);
      count = counts[i] = 1;
      continue;
    }
    count = ++counts[first[slot]];
    if (count == 3) ++triples;
    if (Impossible(count, key, last)) {  // (a count only grows)
      scan->ok = false;
      return;
    }
  }
  scan->triples = triples;
  scan->last_count = count;  // (the last entry's)
  scan->n_doubles = -1;
}

}  // namespace

// Checks every entry's flag byte and counts the repetitions (see Decode), in one pass: an
// open-addressed table on the stack holding each key's first entry (so 256 bytes, the
// keys read where they lie), the slot from the key's bits mixed by a multiplier drawn at
// start-up (a client cannot aim its keys at one slot). A long history goes to CountLong,
// a long run of collisions to CountSorted. All three refuse the same histories: a key
// seen over four times, or four times when it is not the key the history ends at (the
// fourth occurrence ends the game). Until 2026-12-02 this table refused nothing itself,
// so whether such a state was refused hung on the multiplier: one replica could accept a
// state another refused.
HistoryScan ScanHistory(const char* in, size_t n) {
  const uint64_t mix = Mix();
  constexpr size_t kSlots = 256, kMaxEntries = kSlots * 3 / 4;
  constexpr int kMaxProbes = 16;
  constexpr uint8_t kFree = 0xFF;
  HistoryScan scan;
  bool counting = n <= kMaxEntries, gave_up = !counting, impossible = false;
  const uint64_t last = n > 0 ? game::GetU64(in + 9 * (n - 1)) : 0;
  uint8_t first[kSlots];        // first entry of the slot's key
  uint8_t counts[kMaxEntries];  // by first entry
  if (counting) std::memset(first, kFree, sizeof first);
  // (Locals, not scan's fields: the stores through a char pointer could alias them.)
  int n_doubles = 0, triples = 0;
  bool bad = false;
  size_t slot = 0;
  for (size_t i = 0; i < n; ++i) {
    const char* e = in + 9 * i;
    const unsigned b = static_cast<uint8_t>(e[8]);
    bad |= ((b & 7) > kSeats) | (b > 15);  // (no mover, or bits above the flag)
    if (!counting) continue;
    const uint64_t key = game::GetU64(e);
    slot = (key * mix) >> 56;
    int probe = 0;
    while (first[slot] != kFree && game::GetU64(in + 9 * first[slot]) != key) {
      if (probe++ == kMaxProbes) break;
      slot = (slot + 1) % kSlots;
    }
    if (first[slot] == kFree) {  // (most keys: their first occurrence)
      first[slot] = static_cast<uint8_t>(i);
      counts[i] = 1;
      continue;
    }
    if (probe > kMaxProbes) {
      counting = false;
      gave_up = true;
      continue;
    }
    const int count = ++counts[first[slot]];
    if (count == 2) {
      if (n_doubles < 8) scan.doubles[n_doubles] = key;
      ++n_doubles;
    } else if (count == 3) {
      ++triples;
    } else if (Impossible(count, key, last)) {
      impossible = true;  // (the flags are still checked: that error comes first)
      counting = false;
    }
  }
  if (counting && n > 0) scan.last_count = counts[first[slot]];  // (the last entry's slot)
  scan.bad_entry = bad;
  scan.triples = triples;
  if (impossible) {
    scan.ok = false;
  } else if (gave_up) {
    if (n > kMaxEntries) {
      CountLong(in, n, &scan);
    } else {
      CountSorted(in, n, &scan);
    }
  } else if (scan.triples == 0 && n_doubles >= 0 && n_doubles <= 8) {
    scan.n_doubles = n_doubles;
  }
  return scan;
}

}  // namespace tablero::shogi4
