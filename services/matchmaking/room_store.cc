#include "services/matchmaking/room_store.h"

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "libs/pg/prepared.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

absl::StatusOr<SeatRange> Seats(v1::GameKind kind) {
  auto engine = games::KindFromProto(kind);
  if (!engine.ok()) return engine.status();
  auto info = games::Info(*engine);
  if (!info.ok()) return info.status();
  return SeatRange{(*info)->min_seats, (*info)->max_seats};
}

absl::StatusOr<v1::RoomSettings> ResolveSettings(v1::GameKind kind, const v1::RoomSettings& in) {
  auto engine = games::KindFromProto(kind);
  if (!engine.ok()) return engine.status();
  // The option tables are the engines' own (the same the rules service lists): resolving
  // here keeps room set-up working, and cheap, whether or not the rules service is up.
  auto info = games::Info(*engine);
  if (!info.ok()) return info.status();
  game::Options given;
  for (const auto& [k, v] : in.options()) {
    if (k.size() > 64 || v.size() > 64) {
      return absl::InvalidArgumentError("settings.options: name or value too long");
    }
    given[k] = v;
  }
  auto resolved = game::ResolveOptions(**info, given);
  if (!resolved.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("settings.options: ", resolved.status().message()));
  }
  int t = in.turn_time_limit_seconds();
  if (t != 0 && t != 30 && t != 60) {
    return absl::InvalidArgumentError("settings.turn_time_limit_seconds: must be 0, 30 or 60");
  }
  if (in.cpu_level() < 0 || in.cpu_level() > 10) {
    return absl::InvalidArgumentError("settings.cpu_level: must be 0 (default) or 1..10");
  }
  if (in.seat_count() != 0 &&
      (in.seat_count() < (*info)->min_seats || in.seat_count() > (*info)->max_seats)) {
    return absl::InvalidArgumentError(absl::StrCat("settings.seat_count: must be 0 (automatic) or ",
                                                   (*info)->min_seats, "..", (*info)->max_seats));
  }
  if (in.first_seat() < 0 || in.first_seat() >= (*info)->max_seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("settings.first_seat: must be 0..", (*info)->max_seats - 1));
  }
  v1::RoomSettings out = in;
  out.clear_options();
  for (const auto& [k, v] : *resolved) (*out.mutable_options())[k] = v;
  if (out.cpu_level() == 0) out.set_cpu_level(3);
  return out;
}

bool Connected(pqxx::transaction_base& t, const std::string& room_id,
               const std::string& player_id) {
  return pg::ExecPrepared(t, "player_connected", "SELECT player_connected($1, $2)", room_id,
                          player_id)[0][0]
      .as<bool>();
}

absl::Status LoadRoom(pqxx::transaction_base& t, const std::string& id, v1::Room* out, bool lock) {
  pqxx::result r = t.exec_params(
      absl::StrCat("SELECT id, kind, invite_code, host_id, settings, settings_version, state, "
                   "coalesce(current_game_id, ''), games_played, quick_match, seq, us(created_at) "
                   "FROM rooms WHERE id = $1 AND NOT closed",
                   lock ? " FOR UPDATE" : ""),
      id);
  if (r.empty()) return absl::NotFoundError("room not found");
  out->Clear();  // a retried transaction fills it again
  const pqxx::row& row = r[0];
  out->set_id(row[0].as<std::string>());
  out->set_kind(games::ProtoKind(row[1].as<int>()).value_or(v1::GAME_KIND_UNSPECIFIED));
  out->set_invite_code(row[2].as<std::string>());
  out->set_invite_url("/join/" + out->invite_code());
  out->set_host_player_id(row[3].as<std::string>());
  *out->mutable_settings() = Parse<v1::RoomSettings>(row[4]);
  out->set_settings_version(row[5].as<int64_t>());
  out->set_state(static_cast<v1::Room::State>(row[6].as<int>()));
  out->set_current_game_id(row[7].as<std::string>());
  out->set_games_played(row[8].as<int>());
  out->set_quick_match(row[9].as<bool>());
  out->set_seq(row[10].as<int64_t>());
  *out->mutable_created_time() = ToTimestamp(row[11].as<int64_t>());
  for (const auto& m :
       t.exec_params("SELECT m.player_id, p.display_name, m.role, us(m.joined_at), "
                     "player_connected(m.room_id, m.player_id) "
                     "FROM members m JOIN players p ON p.id = m.player_id WHERE m.room_id = $1 "
                     "ORDER BY m.join_order",
                     id)) {
    v1::Member* mem = out->add_members();
    mem->set_player_id(m[0].as<std::string>());
    mem->set_display_name(m[1].as<std::string>());
    mem->set_role(static_cast<v1::Member::Role>(m[2].as<int>()));
    *mem->mutable_joined_time() = ToTimestamp(m[3].as<int64_t>());
    mem->set_connected(m[4].as<bool>());
  }
  return absl::OkStatus();
}

absl::Status LoadGame(pqxx::transaction_base& t, const std::string& id, v1::Game* out, bool lock) {
  // One statement, one row per seat (the game's columns repeat): a single round trip.
  pqxx::result r = pg::ExecPrepared(
      t, lock ? "load_game_lock" : "load_game",
      absl::StrCat("SELECT g.id, g.room_id, g.kind, g.options, g.first_seat, g.turn_limit, "
                   "g.cpu_level, g.ranked, g.ply, g.to_move, g.view, g.result, "
                   "us(g.turn_deadline), us(g.created_at), us(g.finished_at), "
                   "(SELECT seq FROM rooms WHERE id = g.room_id), "
                   "s.seat, coalesce(s.player_id, ''), s.display_name, s.team, s.cpu_now, "
                   "s.player_id IS NULL OR player_connected(g.room_id, s.player_id) "
                   "FROM games g JOIN seats s ON s.game_id = g.id WHERE g.id = $1 ORDER BY s.seat",
                   lock ? " FOR UPDATE OF g" : ""),
      id);
  if (r.empty()) return absl::NotFoundError("game not found");
  out->Clear();
  const pqxx::row& row = r[0];
  out->set_id(row[0].as<std::string>());
  out->set_room_id(row[1].as<std::string>());
  out->set_kind(games::ProtoKind(row[2].as<int>()).value_or(v1::GAME_KIND_UNSPECIFIED));
  v1::RoomSettings opts = Parse<v1::RoomSettings>(row[3]);
  *out->mutable_options() = opts.options();
  out->set_first_seat(row[4].as<int>());
  out->set_turn_time_limit_seconds(row[5].as<int>());
  out->set_cpu_level(row[6].as<int>());
  out->set_ranked(row[7].as<bool>());
  out->set_ply(row[8].as<int>());
  out->set_to_move(row[9].as<int>());
  *out->mutable_view() = Parse<v1::PublicView>(row[10]);
  *out->mutable_result() = Parse<v1::Result>(row[11]);
  if (!row[12].is_null()) *out->mutable_turn_deadline() = ToTimestamp(row[12].as<int64_t>());
  *out->mutable_created_time() = ToTimestamp(row[13].as<int64_t>());
  if (!row[14].is_null()) *out->mutable_finished_time() = ToTimestamp(row[14].as<int64_t>());
  out->set_seq(row[15].as<int64_t>());
  for (const auto& s : r) {
    v1::Seat* seat = out->add_seats();
    seat->set_seat(s[16].as<int>());
    seat->set_player_id(s[17].as<std::string>());
    seat->set_is_cpu(seat->player_id().empty());
    seat->set_display_name(s[18].as<std::string>());
    seat->set_team(s[19].as<int>());
    seat->set_controlled_by_cpu_now(s[20].as<bool>());
    seat->set_connected(s[21].as<bool>());
  }
  return absl::OkStatus();
}

void ToPublish::Note(const std::string& room) {
  if (std::find(rooms_.begin(), rooms_.end(), room) == rooms_.end()) rooms_.push_back(room);
}

std::string NumberEvents(std::vector<v1::RoomEvent>* events, int64_t seq) {
  // Every event in one statement: the bodies travel as one bytea[] array literal of hex
  // strings ("\\x..." unescapes to bytea's \x input).
  std::string bodies = "{";
  auto now = ToTimestamp(NowUs());
  for (v1::RoomEvent& e : *events) {
    e.set_seq(++seq);
    *e.mutable_time() = now;
    absl::StrAppend(&bodies, bodies.size() > 1 ? "," : "", "\"\\\\x",
                    absl::BytesToHexString(e.SerializeAsString()), "\"");
  }
  bodies += "}";
  return bodies;
}

absl::StatusOr<int64_t> AppendEvents(pqxx::transaction_base& t, const std::string& room_id,
                                     std::vector<v1::RoomEvent>* events, ToPublish* to_publish,
                                     int64_t locked_seq) {
  int64_t seq = locked_seq;
  if (seq < 0 && events->empty()) {
    pqxx::result r = t.exec_params("SELECT seq FROM rooms WHERE id = $1", room_id);
    return r.empty() ? 0 : r[0][0].as<int64_t>();
  }
  if (seq < 0) {
    pqxx::result r = pg::ExecPrepared(t, "room_seq_lock",
                                      "SELECT seq FROM rooms WHERE id = $1 FOR UPDATE", room_id);
    if (r.empty()) return absl::NotFoundError("room not found");
    seq = r[0][0].as<int64_t>();
  }
  if (events->empty()) return seq;
  const int64_t first = seq + 1, last = seq + static_cast<int64_t>(events->size());
  const std::string bodies = NumberEvents(events, seq);
  if (to_publish != nullptr) to_publish->Note(room_id);
  pg::ExecPrepared(t, "append_events",
                   "WITH r AS (UPDATE rooms SET seq = $2 WHERE id = $1) "
                   "INSERT INTO events (room_id, seq, body) SELECT $1, $3 + u.n - 1, u.b "
                   "FROM unnest($4::bytea[]) WITH ORDINALITY AS u(b, n)",
                   room_id, last, first, bodies);
  return last;
}

}  // namespace tablero::matchmaking
