// History and replay: ListPlayerGames (per player, newest first, keyset pages), GetGameMoves,
// ExportPgn.
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "libs/games/kinds.h"
#include "libs/service/request_id.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

namespace {

// Page tokens: base64url of "<created_us>|<game_id>" of the last game on the page.
std::string PageToken(int64_t us, const std::string& id) {
  return absl::WebSafeBase64Escape(absl::StrCat(us, "|", id));
}

bool ParsePageToken(const std::string& token, int64_t* us, std::string* id) {
  std::string raw;
  if (token.size() > 200 || !absl::WebSafeBase64Unescape(token, &raw)) return false;
  std::vector<std::string> parts = absl::StrSplit(raw, absl::MaxSplits('|', 1));
  if (parts.size() != 2 || parts[1].empty() || parts[1].size() > 64) return false;
  *id = parts[1];
  return absl::SimpleAtoi(parts[0], us);
}

}  // namespace

grpc::Status MatchmakingService::ListPlayerGames(grpc::ServerContextBase* ctx,
                                                 const v1::ListPlayerGamesRequest* req,
                                                 v1::ListPlayerGamesResponse* resp) {
  auto caller = auth_.Authenticate(*ctx, req->player_id().empty());
  if (!caller.ok()) return ToGrpc(caller.status());
  std::string player = req->player_id().empty() ? caller->id : req->player_id();
  if (auto s = CheckId("player_id", player); !s.ok()) return ToGrpc(s);
  if (req->page_size() < 0) {
    return ToGrpc(absl::InvalidArgumentError("page_size: must be >= 0"));
  }
  if (req->kind() != v1::GAME_KIND_UNSPECIFIED && !games::ProtoKind(req->kind())) {
    return ToGrpc(absl::InvalidArgumentError("kind: unknown"));
  }
  int size = req->page_size() == 0 ? 20 : std::min(req->page_size(), 100);
  int64_t after_us = INT64_MAX;
  std::string after_id = "\x7f";
  if (!req->page_token().empty() && !ParsePageToken(req->page_token(), &after_us, &after_id)) {
    return ToGrpc(absl::InvalidArgumentError("page_token: not a token we issued"));
  }
  absl::Status s = commits_.Tx([&](pqxx::work& w) -> absl::Status {
    resp->Clear();
    pqxx::result r = w.exec_params(
        "SELECT g.id, us(g.created_at) FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE s.player_id = $1 AND ($2 = 0 OR g.kind = $2) AND (us(g.created_at), g.id) < "
        "($3, $4) ORDER BY g.created_at DESC, g.id DESC LIMIT $5",
        player, static_cast<int>(req->kind()), after_us, after_id, size + 1);
    // No game: an unknown player is NOT_FOUND (a known one has an empty list).
    if (r.empty() && w.exec_params("SELECT 1 FROM players WHERE id = $1", player).empty()) {
      return absl::NotFoundError("player not found");
    }
    for (int i = 0; i < static_cast<int>(r.size()) && i < size; ++i) {
      v1::Game g;
      if (auto st = LoadGame(w, r[i][0].as<std::string>(), &g); !st.ok()) return st;
      v1::GameSummary* sum = resp->add_games();
      sum->set_game_id(g.id());
      sum->set_room_id(g.room_id());
      sum->set_kind(g.kind());
      *sum->mutable_seats() = g.seats();
      sum->set_ply(g.ply());
      *sum->mutable_result() = g.result();
      sum->set_ranked(g.ranked());
      *sum->mutable_created_time() = g.created_time();
      if (g.has_finished_time()) *sum->mutable_finished_time() = g.finished_time();
    }
    if (static_cast<int>(r.size()) > size) {
      resp->set_next_page_token(
          PageToken(r[size - 1][1].as<int64_t>(), r[size - 1][0].as<std::string>()));
    }
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::GetGameMoves(grpc::ServerContextBase*,
                                              const v1::GetGameMovesRequest* req,
                                              v1::GetGameMovesResponse* resp) {
  if (auto s = CheckId("game_id", req->game_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = commits_.Tx([&](pqxx::work& w) -> absl::Status {
    v1::Game g;
    if (auto st = LoadGame(w, req->game_id(), &g); !st.ok()) return st;
    resp->set_game_id(g.id());
    resp->set_kind(g.kind());
    *resp->mutable_options() = g.options();
    *resp->mutable_seats() = g.seats();
    resp->set_first_seat(g.first_seat());
    *resp->mutable_result() = g.result();
    pqxx::result init =
        w.exec_params("SELECT initial_position FROM games WHERE id = $1", req->game_id());
    resp->set_initial_position(init[0][0].as<std::string>());
    for (const auto& m : w.exec_params(
             "SELECT ply, seat, move, us(created_at), by_cpu, events, position FROM moves WHERE "
             "game_id = $1 ORDER BY ply",
             req->game_id())) {
      v1::GameMove* gm = resp->add_moves();
      gm->set_ply(m[0].as<int>());
      gm->set_seat(m[1].as<int>());
      *gm->mutable_move() = Parse<v1::Move>(m[2]);
      *gm->mutable_time() = ToTimestamp(m[3].as<int64_t>());
      gm->set_by_cpu(m[4].as<bool>());
      *gm->mutable_events() = Parse<v1::GameActionResponse>(m[5]).events();
      gm->set_position(m[6].as<std::string>());
    }
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::ExportPgn(grpc::ServerContextBase* ctx,
                                           const v1::ExportPgnRequest* req,
                                           v1::ExportPgnResponse* resp) {
  if (auto s = CheckId("game_id", req->game_id()); !s.ok()) return ToGrpc(s);
  v1::Game g;
  std::string state;
  absl::Status s = commits_.Tx([&](pqxx::work& w) -> absl::Status {
    if (auto st = LoadGame(w, req->game_id(), &g); !st.ok()) return st;
    pqxx::result r = w.exec_params("SELECT state FROM games WHERE id = $1", req->game_id());
    state = FieldBytes(r[0][0]);
    return absl::OkStatus();
  });
  if (!s.ok()) return ToGrpc(s);
  if (g.kind() != v1::GAME_KIND_CHESS) {
    return ToGrpc(absl::FailedPreconditionError("only chess games export as PGN"));
  }
  v1::ExportRequest er;
  er.set_kind(g.kind());
  er.set_state(state);
  er.set_format("pgn");
  auto& tags = *er.mutable_tags();
  tags["Event"] = g.ranked() ? "tablero ranked game" : "tablero casual game";
  tags["Site"] = "tablero";
  tags["Date"] = absl::FormatTime("%Y.%m.%d", absl::FromUnixSeconds(g.created_time().seconds()),
                                  absl::UTCTimeZone());
  tags.insert({"Round", "-"});
  if (g.seats_size() == 2) {
    tags["White"] = g.seats(0).display_name();
    tags["Black"] = g.seats(1).display_name();
  }
  auto out = backends_.Export(er, service::RequestId(*ctx));
  if (!out.ok()) return ToGrpc(out.status());
  resp->set_pgn(out->text());
  return grpc::Status::OK;
}

}  // namespace tablero::matchmaking
