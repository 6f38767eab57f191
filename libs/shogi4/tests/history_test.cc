// ScanHistory's refusals: the same on every path (the table, CountLong, CountSorted), so
// that every replica answers a hostile state alike.
#include "libs/shogi4/history.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "libs/game/codec.h"

namespace tablero::shogi4 {
namespace {

// 9-byte entries: the key, then the flag byte (seat 0 moved, no check).
std::string History(const std::vector<uint64_t>& keys) {
  std::string out(9 * keys.size(), '\0');
  for (size_t i = 0; i < keys.size(); ++i) {
    game::PutU64(&out[9 * i], keys[i]);
    out[9 * i + 8] = 1;
  }
  return out;
}

// `n` distinct keys, then key 7 put at the given entries.
std::vector<uint64_t> Keys(size_t n, const std::vector<size_t>& sevens) {
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = 0x9E3779B97F4A7C15ull * (i + 100);
  for (size_t at : sevens) keys[at] = 7;
  return keys;
}

HistoryScan Scan(const std::vector<uint64_t>& keys) {
  const std::string h = History(keys);
  return ScanHistory(h.data(), keys.size());
}

// Lengths that take the stack table (<= 192), CountLong (<= 1024) and CountSorted.
class HistoryPaths : public ::testing::TestWithParam<size_t> {};

TEST_P(HistoryPaths, FourOfTheLastKeyIsAFourthOccurrence) {
  const size_t n = GetParam();
  const HistoryScan s = Scan(Keys(n, {1, n / 3, n / 2, n - 1}));
  EXPECT_TRUE(s.ok);
  EXPECT_FALSE(s.bad_entry);
  EXPECT_EQ(s.last_count, 4);
}

TEST_P(HistoryPaths, FourOfAnotherKeyIsRefused) {
  const size_t n = GetParam();
  EXPECT_FALSE(Scan(Keys(n, {1, n / 3, n / 2, n - 2})).ok);  // the game ended there
}

TEST_P(HistoryPaths, FiveOfAKeyIsRefused) {
  const size_t n = GetParam();
  EXPECT_FALSE(Scan(Keys(n, {0, 1, n / 3, n / 2, n - 1})).ok);
  EXPECT_FALSE(Scan(Keys(n, {0, 1, 2, 3, 4})).ok);
}

TEST_P(HistoryPaths, ThreeOfAKeyIsCounted) {
  const size_t n = GetParam();
  const HistoryScan s = Scan(Keys(n, {0, n / 2, n - 1}));
  EXPECT_TRUE(s.ok);
  EXPECT_EQ(s.triples, 1);
  EXPECT_EQ(s.last_count, 3);
}

INSTANTIATE_TEST_SUITE_P(Lengths, HistoryPaths, ::testing::Values(12, 192, 193, 600, 1024, 1500));

TEST(History, ABadFlagIsReportedEvenAfterARefusedCount) {
  std::vector<uint64_t> keys = Keys(20, {0, 1, 2, 3, 4});
  std::string h = History(keys);
  h[9 * 19 + 8] = 0x10;  // the last entry has a bit above the flag
  const HistoryScan s = ScanHistory(h.data(), keys.size());
  EXPECT_TRUE(s.bad_entry);
  EXPECT_FALSE(s.ok);
}

}  // namespace
}  // namespace tablero::shogi4
