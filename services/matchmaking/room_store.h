// Room and game rows <-> protobuf snapshots, the event log, and settings resolution.
// Every function runs inside the caller's transaction.
#ifndef TABLERO_SERVICES_MATCHMAKING_ROOM_STORE_H_
#define TABLERO_SERVICES_MATCHMAKING_ROOM_STORE_H_

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tablero/v1/matchmaking.pb.h"

namespace tablero::matchmaking {

namespace v1 = ::tablero::v1;

// The game's seat range and its resolved settings (unknown options, bad values, turn
// limit not 0/30/60, cpu_level outside 0..10, seat_count or first_seat out of range are
// INVALID_ARGUMENT). cpu_level 0 becomes the default 3.
absl::StatusOr<v1::RoomSettings> ResolveSettings(v1::GameKind kind, const v1::RoomSettings& in);
struct SeatRange {
  int min = 0, max = 0;
};
absl::StatusOr<SeatRange> Seats(v1::GameKind kind);

// Room snapshot by id (closed rooms are NOT_FOUND). `lock` takes the row lock (FOR
// UPDATE): every change to a room and every event append holds it.
absl::Status LoadRoom(pqxx::transaction_base& t, const std::string& id, v1::Room* out,
                      bool lock = false);
// Game snapshot by id, with seats, connection state and the room's seq.
absl::Status LoadGame(pqxx::transaction_base& t, const std::string& id, v1::Game* out,
                      bool lock = false);

// The rooms whose events a transaction appended, for the transaction's owner to publish
// once it has committed (Commits::Tx). Handed explicitly to whatever appends.
class ToPublish {
 public:
  void Note(const std::string& room);
  void Clear() { rooms_.clear(); }  // a retried attempt starts over
  const std::vector<std::string>& rooms() const { return rooms_; }

 private:
  std::vector<std::string> rooms_;
};

// Appends events to the room's log: seq (gap-free, from rooms.seq under its row lock,
// so commit order is seq order), time, game_id left as set; stores them. The room is
// noted in `to_publish`; null: the caller publishes the room itself after the commit
// (CommitPlay, which writes the events from memory). Nothing NOTIFYs inside the
// transaction (hub.h says why). Returns the last seq. The events are updated in place.
// `locked_seq`: the room's seq as read under its row lock earlier in this transaction
// (-1: lock and read it here).
absl::StatusOr<int64_t> AppendEvents(pqxx::transaction_base& t, const std::string& room_id,
                                     std::vector<v1::RoomEvent>* events, ToPublish* to_publish,
                                     int64_t locked_seq = -1);

// Numbers the events from seq + 1 and stamps them with the time; returns their bodies as
// one bytea[] literal for a statement's parameter.
std::string NumberEvents(std::vector<v1::RoomEvent>* events, int64_t seq);

// Whether the player has an open (unexpired) Watch stream in the room.
bool Connected(pqxx::transaction_base& t, const std::string& room_id, const std::string& player_id);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_ROOM_STORE_H_
