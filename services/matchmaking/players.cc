// Guests: CreateGuest, UpdateGuest, GetMe, GetPlayers.
#include "absl/strings/str_cat.h"
#include "libs/service/client_address.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/request_ids.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

namespace {
void FillPlayer(const pqxx::row& r, v1::Player* p) {
  p->set_player_id(r[0].as<std::string>());
  p->set_display_name(r[1].as<std::string>());
  *p->mutable_created_time() = ToTimestamp(r[2].as<int64_t>());
}
}  // namespace

grpc::Status MatchmakingService::CreateGuest(grpc::ServerContextBase* ctx,
                                             const v1::CreateGuestRequest* req,
                                             v1::CreateGuestResponse* resp) {
  // A retry with a request_id already answered gets that answer (per id alone: the
  // caller has no identity yet), before the rate limit: it creates nothing.
  auto retry = RetryKeyOf("CreateGuest", "", *req, req->request_id());
  if (!retry.ok()) return ToGrpc(retry.status());
  std::string token;
  auto replayed = Replay(pool_, *retry, resp, &token);
  if (!replayed.ok()) return ToGrpc(replayed.status());
  if (*replayed) {
    resp->set_token(token);
    return grpc::Status::OK;
  }
  if (!guests_.Take(service::ClientAddress(*ctx), config_.guests_per_minute)) {
    return ToGrpc(absl::ResourceExhaustedError(
        "too many new guests from your address; wait a minute (a device keeps its token: "
        "create a guest once)"));
  }
  std::string name;
  if (req->display_name().empty()) {
    name = absl::StrCat("Guest ", 1000 + std::stoi(NewId().substr(0, 4), nullptr, 16) % 9000);
  } else {
    auto n = CleanName(req->display_name());
    if (!n.ok()) return ToGrpc(n.status());
    name = *n;
  }
  std::string id = NewId();
  token = NewToken();
  absl::Status s = commits_.Tx([&](pqxx::work& w) -> absl::Status {
    resp->Clear();
    std::string first_token;
    auto again = ReplayIn(w, *retry, resp, &first_token);  // a concurrent call won
    if (!again.ok()) return again.status();
    if (*again) {
      resp->set_token(first_token);
      return absl::OkStatus();
    }
    w.exec_params("INSERT INTO players (id, display_name, token_hash) VALUES ($1, $2, $3)", id,
                  name, Bytes(TokenHash(token)));
    resp->set_player_id(id);
    resp->set_display_name(name);
    // Kept without the token; the token only sealed with the request id.
    if (*retry) StoreAnswer(w, **retry, resp->SerializeAsString(), config_.request_id_ttl, token);
    resp->set_token(token);
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::UpdateGuest(grpc::ServerContextBase* ctx,
                                             const v1::UpdateGuestRequest* req, v1::Player* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  auto name = CleanName(req->display_name());
  if (!name.ok()) return ToGrpc(name.status());
  absl::Status s = commits_.Tx([&](pqxx::work& w) {
    pqxx::result r = w.exec_params(
        "UPDATE players SET display_name = $2 WHERE id = $1 "
        "RETURNING id, display_name, us(created_at)",
        caller->id, *name);
    if (r.empty()) return absl::NotFoundError("player not found");
    FillPlayer(r[0], resp);
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::GetMe(grpc::ServerContextBase* ctx, const v1::GetMeRequest*,
                                       v1::GetMeResponse* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  absl::Status s = commits_.Tx([&](pqxx::work& w) {
    pqxx::result p = w.exec_params(
        "SELECT id, display_name, us(created_at) FROM players WHERE id = $1", caller->id);
    if (p.empty()) return absl::NotFoundError("player not found");
    FillPlayer(p[0], resp->mutable_player());
    for (const auto& r : w.exec_params(
             "SELECT m.room_id FROM members m JOIN rooms r ON r.id = m.room_id "
             "WHERE m.player_id = $1 AND NOT r.closed ORDER BY m.join_order DESC LIMIT 100",
             caller->id)) {
      resp->add_room_ids(r[0].as<std::string>());
    }
    for (const auto& r :
         w.exec_params("SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id "
                       "WHERE s.player_id = $1 AND NOT g.over ORDER BY g.created_at DESC LIMIT 100",
                       caller->id)) {
      resp->add_playing_game_ids(r[0].as<std::string>());
    }
    pqxx::result t = w.exec_params("SELECT id FROM tickets WHERE player_id = $1 AND status = $2",
                                   caller->id, kTicketWaiting);
    if (!t.empty()) resp->set_waiting_ticket_id(t[0][0].as<std::string>());
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::GetPlayers(grpc::ServerContextBase*,
                                            const v1::GetPlayersRequest* req,
                                            v1::GetPlayersResponse* resp) {
  if (req->player_ids_size() > 100) {
    return ToGrpc(absl::InvalidArgumentError("player_ids: at most 100"));
  }
  for (int i = 0; i < req->player_ids_size(); ++i) {
    // The message names the entry: "player_ids: empty" read as if the list were.
    const std::string field = absl::StrCat("player_ids[", i, "]");
    if (absl::Status s = CheckId(field, req->player_ids(i)); !s.ok()) return ToGrpc(s);
  }
  absl::Status s = commits_.Tx([&](pqxx::work& w) {
    for (const auto& id : req->player_ids()) {
      pqxx::result r =
          w.exec_params("SELECT id, display_name, us(created_at) FROM players WHERE id = $1", id);
      if (!r.empty()) FillPlayer(r[0], resp->add_players());
    }
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

}  // namespace tablero::matchmaking
