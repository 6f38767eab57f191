// Who plays a seat right now: the human, or the CPU on their behalf. Shared by rooms
// (leave/join), presence (Watch) and the scheduler (grace expiry). Every function runs in
// the caller's transaction, which already holds the room's row lock (the lock order of
// the whole service is room, then game, then seats).
#ifndef TABLERO_SERVICES_MATCHMAKING_SEATING_H_
#define TABLERO_SERVICES_MATCHMAKING_SEATING_H_

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/matchmaking/mm_metrics.h"
#include "tablero/v1/matchmaking.pb.h"

namespace tablero::matchmaking {

namespace v1 = ::tablero::v1;

// The player's seat in the (running) game is theirs again: the CPU stops playing it.
// Appends PresenceChanged when the CPU was playing it. No seat: nothing happens.
absl::Status Reclaim(pqxx::transaction_base& t, const std::string& game_id,
                     const std::string& player_id, std::vector<v1::RoomEvent>* ev);

// The player left the room: the CPU plays their seat until they join again.
absl::Status LeftSeat(pqxx::transaction_base& t, const std::string& game_id,
                      const std::string& player_id, std::vector<v1::RoomEvent>* ev,
                      Metrics* metrics);

// The player's last stream in the room closed (or opened: connected = true). Updates the
// seat's grace clock and appends PresenceChanged.
absl::Status Presence(pqxx::transaction_base& t, const std::string& room_id,
                      const std::string& player_id, bool connected, std::vector<v1::RoomEvent>* ev);

// Recomputes when the CPU must play the current turn by the one rule, the SQL function
// cpu_due_at (migration 0005): now for a CPU seat or a seat the CPU holds, the turn
// deadline for a human, never once over. Bumps the game's version, so
// that a CPU move in flight for the old controller is refused.
void RefreshCpuDue(pqxx::transaction_base& t, const std::string& game_id);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_SEATING_H_
