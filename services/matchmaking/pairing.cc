#include "services/matchmaking/pairing.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tablero::matchmaking {

std::string PoolKey(int kind, int player_count, const std::map<std::string, std::string>& options) {
  // "name=value" pairs sorted as text (as keys stored by earlier versions were made).
  std::vector<std::string> pairs;
  for (const auto& [name, value] : options) pairs.push_back(absl::StrCat(name, "=", value));
  std::sort(pairs.begin(), pairs.end());
  return absl::StrCat(kind, "|", player_count, "|", absl::StrJoin(pairs, ";"));
}

double RatingWindow(double waited_seconds) {
  return std::min(100.0 + 25.0 * std::max(0.0, waited_seconds), 800.0);
}

std::vector<std::vector<size_t>> PairTickets(absl::Span<const WaitingTicket> waiting,
                                             int player_count) {
  std::vector<std::vector<size_t>> games;
  if (player_count < 1) return games;
  std::vector<double> window(waiting.size());
  for (size_t i = 0; i < waiting.size(); ++i) window[i] = RatingWindow(waiting[i].waited_seconds);
  std::vector<bool> used(waiting.size());
  for (size_t a = 0; a < waiting.size(); ++a) {
    if (used[a]) continue;
    auto distance = [&](size_t b) { return std::fabs(waiting[a].rating - waiting[b].rating); };
    std::vector<size_t> group = {a};
    std::vector<size_t> candidates;
    for (size_t b = a + 1; b < waiting.size(); ++b) {
      if (!used[b] && distance(b) <= std::min(window[a], window[b])) candidates.push_back(b);
    }
    // Stable: of equally close candidates, the older comes first.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](size_t x, size_t y) { return distance(x) < distance(y); });
    for (size_t c : candidates) {
      if (static_cast<int>(group.size()) == player_count) break;
      group.push_back(c);
    }
    if (static_cast<int>(group.size()) < player_count) continue;
    for (size_t g : group) used[g] = true;
    games.push_back(std::move(group));
  }
  return games;
}

}  // namespace tablero::matchmaking
