// The repetition counts of a decoded state's history (Shogi4Game::Decode's checks).
// Internal header.
#ifndef TABLERO_LIBS_SHOGI4_HISTORY_H_
#define TABLERO_LIBS_SHOGI4_HISTORY_H_

#include <cstddef>
#include <cstdint>

namespace tablero::shogi4 {

// What ScanHistory finds in a history of 9-byte entries (Shogi4Game::history_).
struct HistoryScan {
  bool bad_entry = false;  // an entry's flag byte is no mover and check bit
  bool ok = true;          // false: an impossible repetition count
  int triples = 0;         // keys seen three times or more
  int last_count = 0;      // occurrences of the last key
  int n_doubles = -1;      // keys seen exactly twice, listed in `doubles` (-1: not listed)
  uint64_t doubles[8];
};

// Checks every entry's flag byte (mover + 1 in the low three bits, 8 if in check) and
// counts the repetitions of the `n` entries at `in`, in one pass (see history.cc).
HistoryScan ScanHistory(const char* in, size_t n);

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_HISTORY_H_
