#include "services/rating/page.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "services/rating/report.h"
#include "services/rating/sql.h"

namespace tablero::rating {
namespace {

constexpr int kMaxPageSize = 100;
// A board token holds the rank of its page's last entry and the next page counts on from
// it: a rank that leaves no room for a page is no rank a board has (a forged token's
// would overflow the next ranks).
constexpr int kMaxRank = std::numeric_limits<int>::max() - kMaxPageSize;

absl::Status Bad() {
  return absl::InvalidArgumentError(
      "bad page_token: pass the next_page_token of the previous page, unchanged");
}

// Splits a decoded token "<tag><pool>|f1|...|fn" where the last field may contain '|'.
bool Fields(const std::string& token, char tag, int pool, int n, std::vector<std::string>* out) {
  std::string raw;
  if (token.size() > 1024 || !absl::WebSafeBase64Unescape(token, &raw)) return false;
  std::vector<std::string> parts = absl::StrSplit(raw, absl::MaxSplits('|', n));
  if (static_cast<int>(parts.size()) != n + 1) return false;
  if (parts[0] != absl::StrCat(std::string(1, tag), pool)) return false;
  out->assign(parts.begin() + 1, parts.end());
  return true;
}

}  // namespace

absl::StatusOr<int> PageSize(int requested) {
  if (requested < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size must not be negative, got ", requested));
  }
  return requested == 0 ? 50 : std::min(requested, kMaxPageSize);
}

std::string BoardToken(int pool, const BoardRow& last) {
  return absl::WebSafeBase64Escape(absl::StrCat(
      "L", pool, "|", last.rank, "|", DoubleHex(last.rating), "|", last.games, "|", last.player));
}

absl::StatusOr<BoardRow> ParseBoardToken(int pool, const std::string& token) {
  std::vector<std::string> f;
  BoardRow r;
  if (!Fields(token, 'L', pool, 4, &f) || !absl::SimpleAtoi(f[0], &r.rank) || r.rank < 1 ||
      r.rank > kMaxRank || !ParseDoubleHex(f[1], &r.rating) || !std::isfinite(r.rating) ||
      !absl::SimpleAtoi(f[2], &r.games) || r.games < 0 || !CheckId(f[3], "player").ok()) {
    return Bad();
  }
  r.player = f[3];
  return r;
}

std::string HistoryToken(int pool, const HistoryRow& last) {
  return absl::WebSafeBase64Escape(absl::StrCat("H", pool, "|", last.us, "|", last.game_id));
}

absl::StatusOr<HistoryRow> ParseHistoryToken(int pool, const std::string& token) {
  std::vector<std::string> f;
  HistoryRow r;
  if (!Fields(token, 'H', pool, 2, &f) || !absl::SimpleAtoi(f[0], &r.us) ||
      r.us < -62135596800000000 || r.us > 253402300799999999 || !CheckId(f[1], "game").ok()) {
    return Bad();
  }
  r.game_id = f[1];
  return r;
}

}  // namespace tablero::rating
