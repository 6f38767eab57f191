// Quick-match pairing, as pure functions over plain values: which waiting tickets of one
// pool form games. The queue's SQL (queue.cc) only reads the candidates, locked, and
// writes the groups this decides, in one transaction per pool.
#ifndef TABLERO_SERVICES_MATCHMAKING_PAIRING_H_
#define TABLERO_SERVICES_MATCHMAKING_PAIRING_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "absl/types/span.h"

namespace tablero::matchmaking {

// Who may meet: tickets with the same pool key (game kind, player count and resolved
// options, as "name=value" sorted as text) are candidates for one game.
std::string PoolKey(int kind, int player_count, const std::map<std::string, std::string>& options);

// Half-width of a ticket's rating window after waiting `waited_seconds`: +-100 at once,
// 25 more per second, at most +-800.
double RatingWindow(double waited_seconds);

// A ticket waiting in one pool.
struct WaitingTicket {
  double rating = 0;
  double waited_seconds = 0;
};

// The games formed from one pool's waiting tickets, given oldest first: groups of
// `player_count` indices into `waiting`, each ticket in at most one group. The oldest
// ticket not yet placed anchors a group with those whose windows both contain each
// other's rating (the anchor's and the candidate's), closest rating first; an anchor
// without enough such tickets waits, and the next oldest anchors.
std::vector<std::vector<size_t>> PairTickets(absl::Span<const WaitingTicket> waiting,
                                             int player_count);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_PAIRING_H_
