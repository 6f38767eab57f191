// Rooms: CreateRoom, GetRoom, JoinRoom, LeaveRoom, UpdateRoomSettings.
#include "absl/strings/str_cat.h"
#include "libs/games/kinds.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/request_ids.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/seating.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

namespace {

v1::RoomEvent Joined(pqxx::transaction_base& t, const std::string& room_id,
                     const std::string& player_id, v1::Member::Role role) {
  v1::RoomEvent e;
  v1::Member* m = e.mutable_member_joined()->mutable_member();
  pqxx::result r = t.exec_params(
      "SELECT p.display_name, us(m.joined_at) FROM members m JOIN players p ON p.id = "
      "m.player_id WHERE m.room_id = $1 AND m.player_id = $2",
      room_id, player_id);
  m->set_player_id(player_id);
  m->set_role(role);
  if (!r.empty()) {
    m->set_display_name(r[0][0].as<std::string>());
    *m->mutable_joined_time() = ToTimestamp(r[0][1].as<int64_t>());
  }
  m->set_connected(Connected(t, room_id, player_id));
  return e;
}

bool IsMember(const v1::Room& room, const std::string& player_id) {
  if (player_id.empty()) return false;
  for (const auto& m : room.members()) {
    if (m.player_id() == player_id) return true;
  }
  return false;
}

// An invite code that names no open room: NOT_FOUND, reason INVITE_CODE_UNKNOWN.
absl::Status UnknownCode() {
  return service::WithReason(absl::NotFoundError("unknown invite code"),
                             service::reason::kInviteCodeUnknown);
}

grpc::Status TooManyGuesses() {
  return ToGrpc(
      absl::ResourceExhaustedError("too many unknown invite codes from you; wait a minute"));
}

}  // namespace

grpc::Status MatchmakingService::CreateRoom(grpc::ServerContextBase* ctx,
                                            const v1::CreateRoomRequest* req, v1::Room* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  auto retry = RetryKeyOf("CreateRoom", caller->id, *req, req->request_id());
  if (!retry.ok()) return ToGrpc(retry.status());
  auto replayed = Replay(pool_, *retry, resp);
  if (!replayed.ok()) return ToGrpc(replayed.status());
  if (*replayed) return grpc::Status::OK;
  auto settings = ResolveSettings(req->kind(), req->settings());
  if (!settings.ok()) return ToGrpc(settings.status());
  std::string id = NewId();
  absl::Status s = commits_.Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
    resp->Clear();
    auto again = ReplayIn(w, *retry, resp);  // a concurrent call with the id won
    if (!again.ok()) return again.status();
    if (*again) return absl::OkStatus();
    // 40 bits of code: a collision is rare; retry with a fresh one when it happens.
    for (int attempt = 0;; ++attempt) {
      pqxx::result r = w.exec_params(
          "INSERT INTO rooms (id, kind, invite_code, host_id, settings) VALUES ($1, $2, $3, $4, "
          "$5) ON CONFLICT (invite_code) DO NOTHING RETURNING id",
          id, static_cast<int>(req->kind()), NewInviteCode(), caller->id, Bytes(*settings));
      if (!r.empty()) break;
      if (attempt == 10) return absl::InternalError("could not allocate an invite code");
    }
    w.exec_params("INSERT INTO members (room_id, player_id, role) VALUES ($1, $2, $3)", id,
                  caller->id, kRolePlayer);
    std::vector<v1::RoomEvent> ev = {Joined(w, id, caller->id, v1::Member::ROLE_PLAYER)};
    if (auto seq = AppendEvents(w, id, &ev, &pub); !seq.ok()) return seq.status();
    if (auto st = LoadRoom(w, id, resp); !st.ok()) return st;
    if (*retry) StoreAnswer(w, **retry, resp->SerializeAsString(), config_.request_id_ttl);
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::GetRoom(grpc::ServerContextBase* ctx,
                                         const v1::GetRoomRequest* req, v1::Room* resp) {
  auto caller = auth_.Authenticate(*ctx, false);
  if (!caller.ok()) return ToGrpc(caller.status());
  std::string id;
  if (req->key_case() == v1::GetRoomRequest::kRoomId) {
    if (auto s = CheckId("room_id", req->room_id()); !s.ok()) return ToGrpc(s);
    id = req->room_id();
  } else if (req->key_case() == v1::GetRoomRequest::kInviteCode) {
    GuessKeys keys = GuessKeysOf(*ctx, *caller);
    if (!CodeGuessAllowed(keys)) return TooManyGuesses();
    std::string code = NormalizeCode(req->invite_code());
    if (code.empty()) {
      CodeGuessFailed(keys);
      return ToGrpc(UnknownCode());
    }
    absl::Status s = commits_.Tx([&](pqxx::work& w) {
      pqxx::result r =
          w.exec_params("SELECT id FROM rooms WHERE invite_code = $1 AND NOT closed", code);
      if (r.empty()) return UnknownCode();
      id = r[0][0].as<std::string>();
      return absl::OkStatus();
    });
    if (s.code() == absl::StatusCode::kNotFound) CodeGuessFailed(keys);
    if (!s.ok()) return ToGrpc(s);
  } else {
    return ToGrpc(absl::InvalidArgumentError("room_id or invite_code: required"));
  }
  absl::Status s = commits_.Tx([&](pqxx::work& w) { return LoadRoom(w, id, resp); });
  if (!s.ok()) return ToGrpc(s);
  // The code is the key to the room: only members, and who already holds it, see it.
  if (req->key_case() == v1::GetRoomRequest::kRoomId && !IsMember(*resp, caller->id)) {
    resp->clear_invite_code();
    resp->clear_invite_url();
  }
  return grpc::Status::OK;
}

grpc::Status MatchmakingService::JoinRoom(grpc::ServerContextBase* ctx,
                                          const v1::JoinRoomRequest* req,
                                          v1::JoinRoomResponse* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  GuessKeys keys = GuessKeysOf(*ctx, *caller);
  if (!CodeGuessAllowed(keys)) return TooManyGuesses();
  std::string code = NormalizeCode(req->invite_code());
  if (code.empty()) {
    CodeGuessFailed(keys);
    return ToGrpc(UnknownCode());
  }
  std::string room_id;
  absl::Status s = commits_.Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
    pqxx::result r = w.exec_params(
        "SELECT id, kind, state, current_game_id FROM rooms WHERE invite_code = $1 AND NOT "
        "closed FOR UPDATE",
        code);
    if (r.empty()) return UnknownCode();
    room_id = r[0][0].as<std::string>();
    auto kind = games::ProtoKind(r[0][1].as<int>()).value_or(v1::GAME_KIND_UNSPECIFIED);
    auto state = static_cast<v1::Room::State>(r[0][2].as<int>());
    std::string game_id = r[0][3].is_null() ? "" : r[0][3].as<std::string>();
    pqxx::result me = w.exec_params(
        "SELECT role FROM members WHERE room_id = $1 AND player_id = $2", room_id, caller->id);
    if (!me.empty()) {
      resp->set_role(static_cast<v1::Member::Role>(me[0][0].as<int>()));
      return LoadRoom(w, room_id, resp->mutable_room());
    }
    pqxx::result counts = w.exec_params(
        "SELECT count(*), count(*) FILTER (WHERE role = $2) FROM members WHERE room_id = $1",
        room_id, kRolePlayer);
    if (counts[0][0].as<int>() >= config_.member_limit) {
      return absl::ResourceExhaustedError("the room is full");
    }
    auto range = Seats(kind);
    if (!range.ok()) return range.status();
    v1::Member::Role role = v1::Member::ROLE_SPECTATOR;
    bool seated = false;
    if (state == v1::Room::STATE_PLAYING) {
      seated = !w.exec_params("SELECT 1 FROM seats WHERE game_id = $1 AND player_id = $2", game_id,
                              caller->id)
                    .empty();
      if (seated) role = v1::Member::ROLE_PLAYER;
    } else if (counts[0][1].as<int>() < range->max) {
      role = v1::Member::ROLE_PLAYER;
    }
    w.exec_params("INSERT INTO members (room_id, player_id, role) VALUES ($1, $2, $3)", room_id,
                  caller->id, static_cast<int>(role));
    std::vector<v1::RoomEvent> ev = {Joined(w, room_id, caller->id, role)};
    if (seated) {
      // Back from LeaveRoom: the seat is theirs again.
      if (auto st = Reclaim(w, game_id, caller->id, &ev); !st.ok()) return st;
    }
    if (auto seq = AppendEvents(w, room_id, &ev, &pub); !seq.ok()) return seq.status();
    resp->set_role(role);
    return LoadRoom(w, room_id, resp->mutable_room());
  });
  if (s.code() == absl::StatusCode::kNotFound) CodeGuessFailed(keys);
  return ToGrpc(s);
}

grpc::Status MatchmakingService::LeaveRoom(grpc::ServerContextBase* ctx,
                                           const v1::LeaveRoomRequest* req,
                                           v1::LeaveRoomResponse*) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("room_id", req->room_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = commits_.Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
    pqxx::result r = w.exec_params(
        "SELECT host_id, state, coalesce(current_game_id, '') FROM rooms WHERE id = $1 AND NOT "
        "closed FOR UPDATE",
        req->room_id());
    if (r.empty()) return absl::NotFoundError("room not found");
    std::string host = r[0][0].as<std::string>();
    auto state = static_cast<v1::Room::State>(r[0][1].as<int>());
    std::string game_id = r[0][2].as<std::string>();
    pqxx::result del =
        w.exec_params("DELETE FROM members WHERE room_id = $1 AND player_id = $2 RETURNING 1",
                      req->room_id(), caller->id);
    if (del.empty()) return absl::FailedPreconditionError("you are not a member of this room");
    std::vector<v1::RoomEvent> ev(1);
    ev[0].mutable_member_left()->set_player_id(caller->id);
    pqxx::result rest = w.exec_params(
        "SELECT player_id FROM members WHERE room_id = $1 ORDER BY join_order LIMIT 1",
        req->room_id());
    if (!rest.empty() && host == caller->id) {
      std::string new_host = rest[0][0].as<std::string>();
      w.exec_params("UPDATE rooms SET host_id = $2 WHERE id = $1", req->room_id(), new_host);
      ev[0].mutable_member_left()->set_new_host_player_id(new_host);
    }
    if (state == v1::Room::STATE_PLAYING) {
      if (auto st = LeftSeat(w, game_id, caller->id, &ev, metrics_); !st.ok()) return st;
    }
    for (auto& e : ev) e.set_game_id(game_id);
    if (auto seq = AppendEvents(w, req->room_id(), &ev, &pub); !seq.ok()) return seq.status();
    // The last member gone: the room closes and its streams end (they see `closed`).
    if (rest.empty()) w.exec_params("UPDATE rooms SET closed = true WHERE id = $1", req->room_id());
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::UpdateRoomSettings(grpc::ServerContextBase* ctx,
                                                    const v1::UpdateRoomSettingsRequest* req,
                                                    v1::Room* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("room_id", req->room_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = commits_.Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
    v1::Room room;
    if (auto st = LoadRoom(w, req->room_id(), &room, true); !st.ok()) return st;
    auto settings = ResolveSettings(room.kind(), req->settings());
    if (!settings.ok()) return settings.status();
    if (room.host_player_id() != caller->id) {
      return absl::PermissionDeniedError("only the host may change the settings");
    }
    if (room.quick_match()) {
      return absl::FailedPreconditionError("quick-match rooms have fixed settings");
    }
    if (room.state() == v1::Room::STATE_PLAYING) {
      return absl::FailedPreconditionError("a game is running: change the settings after it ends");
    }
    if (req->has_expected_settings_version() &&
        req->expected_settings_version().value() != room.settings_version()) {
      return service::WithReason(
          absl::AbortedError(absl::StrCat("settings changed meanwhile (version ",
                                          room.settings_version(), "): re-read the room")),
          service::reason::kStaleSettings);
    }
    w.exec_params(
        "UPDATE rooms SET settings = $2, settings_version = settings_version + 1 WHERE id = $1",
        room.id(), Bytes(*settings));
    std::vector<v1::RoomEvent> ev(1);
    *ev[0].mutable_settings_changed()->mutable_settings() = *settings;
    ev[0].mutable_settings_changed()->set_settings_version(room.settings_version() + 1);
    if (auto seq = AppendEvents(w, room.id(), &ev, &pub); !seq.ok()) return seq.status();
    resp->Clear();
    return LoadRoom(w, room.id(), resp);
  });
  return ToGrpc(s);
}

}  // namespace tablero::matchmaking
