#include "services/matchmaking/seating.h"

#include "services/matchmaking/room_store.h"

namespace tablero::matchmaking {

void RefreshCpuDue(pqxx::transaction_base& t, const std::string& game_id) {
  // The rule is cpu_due_at (migration 0005), as for a move's commit. The version moves
  // too: a CPU move computed before the seat changed hands (a player back with their
  // token) can then no longer be committed.
  t.exec_params(
      "UPDATE games SET version = version + 1, "
      "cpu_due = cpu_due_at(id, to_move, over, turn_deadline) WHERE id = $1",
      game_id);
}

namespace {

v1::RoomEvent PresenceEvent(const std::string& game_id, const std::string& player_id, int seat,
                            bool connected, bool cpu) {
  v1::RoomEvent e;
  e.set_game_id(game_id);
  auto* p = e.mutable_presence_changed();
  p->set_player_id(player_id);
  p->set_seat(seat);
  p->set_connected(connected);
  p->set_cpu_controlled(cpu);
  return e;
}

}  // namespace

absl::Status Reclaim(pqxx::transaction_base& t, const std::string& game_id,
                     const std::string& player_id, std::vector<v1::RoomEvent>* ev) {
  pqxx::result r = t.exec_params(
      "SELECT s.seat, s.cpu_now, g.room_id FROM seats s JOIN games g ON g.id = s.game_id "
      "WHERE s.game_id = $1 AND s.player_id = $2 AND NOT g.over FOR UPDATE OF s",
      game_id, player_id);
  if (r.empty()) return absl::OkStatus();
  int seat = r[0][0].as<int>();
  bool cpu = r[0][1].as<bool>();
  std::string room_id = r[0][2].as<std::string>();
  bool connected = Connected(t, room_id, player_id);
  t.exec_params(
      "UPDATE seats SET cpu_now = false, cpu_reason = NULL, "
      "away_since = CASE WHEN $3 THEN NULL ELSE coalesce(away_since, now()) END "
      "WHERE game_id = $1 AND player_id = $2",
      game_id, player_id, connected);
  if (cpu) {
    ev->push_back(PresenceEvent(game_id, player_id, seat, connected, false));
    RefreshCpuDue(t, game_id);
  }
  return absl::OkStatus();
}

absl::Status LeftSeat(pqxx::transaction_base& t, const std::string& game_id,
                      const std::string& player_id, std::vector<v1::RoomEvent>* ev,
                      Metrics* metrics) {
  pqxx::result r = t.exec_params(
      "SELECT s.seat, s.cpu_now, g.room_id FROM seats s JOIN games g ON g.id = s.game_id "
      "WHERE s.game_id = $1 AND s.player_id = $2 AND NOT g.over FOR UPDATE OF s",
      game_id, player_id);
  if (r.empty()) return absl::OkStatus();
  int seat = r[0][0].as<int>();
  bool cpu = r[0][1].as<bool>();
  t.exec_params(
      "UPDATE seats SET cpu_now = true, cpu_reason = 'left' WHERE game_id = $1 AND "
      "player_id = $2",
      game_id, player_id);
  if (!cpu) {
    bool connected = Connected(t, r[0][2].as<std::string>(), player_id);
    ev->push_back(PresenceEvent(game_id, player_id, seat, connected, true));
    if (metrics != nullptr) metrics->takeover_left->Increment();
    RefreshCpuDue(t, game_id);
  }
  return absl::OkStatus();
}

absl::Status Presence(pqxx::transaction_base& t, const std::string& room_id,
                      const std::string& player_id, bool connected,
                      std::vector<v1::RoomEvent>* ev) {
  pqxx::result room = t.exec_params(
      "SELECT state, coalesce(current_game_id, '') FROM rooms WHERE id = $1", room_id);
  if (room.empty()) return absl::OkStatus();
  std::string game_id = room[0][1].as<std::string>();
  bool playing = room[0][0].as<int>() == v1::Room::STATE_PLAYING;
  int seat = -1;
  bool cpu = false;
  if (playing) {
    pqxx::result s = t.exec_params(
        "SELECT seat, cpu_now, coalesce(cpu_reason, '') FROM seats WHERE game_id = $1 AND "
        "player_id = $2 FOR UPDATE",
        game_id, player_id);
    if (!s.empty()) {
      seat = s[0][0].as<int>();
      cpu = s[0][1].as<bool>();
      if (connected) {
        // Back with the token: an absent player's seat is theirs again at once (a seat
        // left with LeaveRoom comes back with JoinRoom).
        if (cpu && s[0][2].as<std::string>() == "absent") {
          t.exec_params(
              "UPDATE seats SET cpu_now = false, cpu_reason = NULL, away_since = NULL "
              "WHERE game_id = $1 AND seat = $2",
              game_id, seat);
          cpu = false;
          RefreshCpuDue(t, game_id);
        } else {
          t.exec_params("UPDATE seats SET away_since = NULL WHERE game_id = $1 AND seat = $2",
                        game_id, seat);
        }
      } else {
        t.exec_params("UPDATE seats SET away_since = now() WHERE game_id = $1 AND seat = $2",
                      game_id, seat);
      }
    }
  }
  bool member = !t.exec_params("SELECT 1 FROM members WHERE room_id = $1 AND player_id = $2",
                               room_id, player_id)
                     .empty();
  if (member || seat >= 0) {
    ev->push_back(PresenceEvent(playing ? game_id : "", player_id, seat, connected, cpu));
  }
  return absl::OkStatus();
}

}  // namespace tablero::matchmaking
