// Committing what the rules service applied: the version-checked UPDATE of the game row,
// the move record, the room events in their documented order, the end of the game (room
// state, rating outbox) and when the CPU must play next. Shared by human moves, actions,
// CPU moves and game creation.
#ifndef TABLERO_SERVICES_MATCHMAKING_PLAY_H_
#define TABLERO_SERVICES_MATCHMAKING_PLAY_H_

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/pg/pool.h"
#include "tablero/v1/matchmaking.pb.h"
#include "tablero/v1/rules.pb.h"

namespace tablero::matchmaking {

class ToPublish;  // room_store.h

namespace v1 = ::tablero::v1;

struct SeatRow {
  int seat = 0;
  std::string player_id;  // empty: CPU seat
  bool cpu_now = false;
  std::string cpu_reason;
  bool away = false;  // the grace clock runs
  std::string display_name;
  int team = 0;
  bool connected = false;  // an open stream in the room (CPU seats: always)
};

// A game as read for playing.
struct GameRow {
  std::string id, room_id;
  v1::GameKind kind = v1::GAME_KIND_UNSPECIFIED;
  std::string state;
  int ply = 0, to_move = -1;
  int64_t version = 0;
  bool over = false, ranked = false;
  int turn_limit = 0, cpu_level = 3;
  bool show_legal_moves = true;
  bool deadline_passed = false;
  int first_seat = 0;
  int64_t room_seq = 0;  // the room's seq at the read
  int64_t created_us = 0;
  v1::RoomSettings options;  // the game's resolved options (in .options())
  std::vector<SeatRow> seats;
  // The seat the player holds, or -1.
  int SeatOf(const std::string& player_id) const;
};
absl::StatusOr<GameRow> ReadGame(pqxx::transaction_base& t, const std::string& id);
// The same in one autocommit statement on a pooled connection (no BEGIN/COMMIT trips).
absl::StatusOr<GameRow> ReadGame(pg::Pool& pool, const std::string& id);

// Whether `seat` (g.SeatOf: -1 for none) may act in `g` at all: PERMISSION_DENIED with
// reason NOT_SEATED, FAILED_PRECONDITION with GAME_OVER, else OK.
absl::Status CheckSeated(const GameRow& g, int seat);
// ABORTED with reason STALE_PLY: the game is no longer at the ply the caller meant.
absl::Status StalePly(absl::string_view message);

// What the rules service answered for a move (ApplyMove) or an action (ApplyAction).
struct Applied {
  std::string state;
  v1::PublicView view;
  std::vector<v1::PlayEvent> events;
  v1::Result result;
  bool moved = false;  // a move was played (a move, or a claim with a move)
  v1::Move move;
};

// The replica's settings of play (--turn_time_scale, --grace_seconds).
struct PlayConfig {
  // Turn limits are multiplied by this (tests and demos shorten them).
  double turn_time_scale = 1.0;
  // The grace period of the games this replica creates (kept per game, so replicas with
  // different settings agree on each game).
  double grace_seconds = 60;
};

// How a move or action was committed (CommitPlay).
enum class CommitPath { kOneCall, kTransaction };

// The one door for committing what the rules service applied for `seat` (human moves,
// actions, CPU moves), if the game is still exactly as read (ply and version): else
// ABORTED and nothing changes. A move that neither ends the game nor hands a seat back
// takes one database call (the function commit_move); the rest a transaction (Commit).
// Fills the game snapshot after the commit, and `appended` with the room events it
// appended (numbered, in seq order, as stored). Nothing here notifies anyone: the caller
// publishes them once this returns OK.
absl::StatusOr<CommitPath> CommitPlay(pg::Pool& pool, const PlayConfig& play, const GameRow& g,
                                      int seat, const Applied& a, bool by_cpu, v1::Game* out,
                                      std::vector<v1::RoomEvent>* appended);

// CommitPlay's transaction, inside the caller's: returns the room events appended (the
// caller publishes them after the commit).
absl::StatusOr<std::vector<v1::RoomEvent>> Commit(pqxx::transaction_base& t, const PlayConfig& play,
                                                  const GameRow& g, int seat, const Applied& a,
                                                  bool by_cpu, v1::Game* out);

// Creates a game in a room (StartGame, Rematch, quick match): `players[i]` holds seat i
// ("" for a CPU seat). Sets the room PLAYING and appends GameStarted and TurnChanged
// (the room noted in `to_publish`).
absl::Status CreateGame(pqxx::transaction_base& t, ToPublish& to_publish, const PlayConfig& play,
                        const v1::Room& room, const std::vector<std::string>& players,
                        int first_seat, const v1::NewGameResponse& created, v1::Game* out);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_PLAY_H_
