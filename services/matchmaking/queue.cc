// Quick match, the handlers: JoinQueue, GetTicket, CancelQueue, WatchTicket. Tickets wait
// in the database; the background pairs them (matcher.cc, pairing.h).
#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "libs/service/request_id.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/pairing.h"
#include "services/matchmaking/request_ids.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

namespace {

v1::RatingPool PoolOf(v1::GameKind kind, const v1::RoomSettings& opts) {
  if (kind == v1::GAME_KIND_CHESS) return v1::RATING_POOL_CHESS;
  if (kind == v1::GAME_KIND_CHECKERS) return v1::RATING_POOL_CHECKERS;
  auto it = opts.options().find("format");
  return it != opts.options().end() && it->second == "pairs" ? v1::RATING_POOL_SHOGI4_PAIRS
                                                             : v1::RATING_POOL_SHOGI4_SINGLES;
}

void FillTicket(const pqxx::row& r, v1::Ticket* t) {
  // id, player_id, kind, player_count, options, rating, status, room_id, game_id,
  // cancel_reason, us(created_at), waited seconds
  t->set_ticket_id(r[0].as<std::string>());
  t->set_player_id(r[1].as<std::string>());
  t->set_kind(games::ProtoKind(r[2].as<int>()).value_or(v1::GAME_KIND_UNSPECIFIED));
  t->set_player_count(r[3].as<int>());
  *t->mutable_options() = Parse<v1::RoomSettings>(r[4]).options();
  double rating = r[5].as<double>();
  t->set_rating(rating);
  t->set_status(static_cast<v1::Ticket::Status>(r[6].as<int>()));
  t->set_room_id(r[7].is_null() ? "" : r[7].as<std::string>());
  t->set_game_id(r[8].is_null() ? "" : r[8].as<std::string>());
  t->set_cancel_reason(r[9].as<std::string>());
  *t->mutable_created_time() = ToTimestamp(r[10].as<int64_t>());
  double w = RatingWindow(r[11].as<double>());
  t->set_rating_low(rating - w);
  t->set_rating_high(rating + w);
}

constexpr char kTicketCols[] =
    "id, player_id, kind, player_count, options, rating, status, room_id, game_id, "
    "cancel_reason, us(created_at), extract(epoch FROM now() - created_at)::float8";

}  // namespace

grpc::Status MatchmakingService::JoinQueue(grpc::ServerContextBase* ctx,
                                           const v1::JoinQueueRequest* req, v1::Ticket* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  // A retry of an answered call: the ticket it created (not ALREADY_EXISTS).
  auto retry = RetryKeyOf("JoinQueue", caller->id, *req, req->request_id());
  if (!retry.ok()) return ToGrpc(retry.status());
  auto replayed = Replay(pool_, *retry, resp);
  if (!replayed.ok()) return ToGrpc(replayed.status());
  if (*replayed) return grpc::Status::OK;
  auto range = Seats(req->kind());
  if (!range.ok()) return ToGrpc(range.status());
  int count = req->player_count() == 0 ? range->min : req->player_count();
  if (count < range->min || count > range->max) {
    return ToGrpc(absl::InvalidArgumentError(
        absl::StrCat("player_count: must be ", range->min, "..", range->max)));
  }
  // Room-level options are the room's business: ignored here.
  auto info = games::Info(games::EngineKind(req->kind()).value_or(game::Kind::kUnknown));
  v1::RoomSettings given;
  for (const auto& [k, v] : req->options()) {
    bool room_level = false;
    for (const auto& spec : (*info)->options) room_level |= spec.name == k && spec.room_level;
    if (!room_level) (*given.mutable_options())[k] = v;
  }
  auto settings = ResolveSettings(req->kind(), given);
  if (!settings.ok()) {
    // ResolveSettings names a room's field ("settings.options"); this request's is "options".
    absl::string_view msg = settings.status().message();
    absl::ConsumePrefix(&msg, "settings.");
    return ToGrpc(absl::Status(settings.status().code(), msg));
  }
  v1::RoomSettings opts;
  *opts.mutable_options() = settings->options();
  // The options must allow this many seats (Japanese Chinese Checkers: 2-3).
  v1::NewGameRequest probe;
  probe.set_kind(req->kind());
  *probe.mutable_options() = opts.options();
  probe.set_seats(count);
  auto created = backends_.NewGame(probe);
  if (!created.ok()) {
    if (created.status().code() == absl::StatusCode::kInvalidArgument) {
      return ToGrpc(absl::FailedPreconditionError(absl::StrCat(
          "these options allow no game for ", count, " players: ", created.status().message())));
    }
    return ToGrpc(created.status());
  }
  const std::string key = PoolKey(
      static_cast<int>(req->kind()), count,
      std::map<std::string, std::string>(settings->options().begin(), settings->options().end()));
  double rating = backends_.RatingOf(caller->id, PoolOf(req->kind(), opts));
  std::string id = NewId();
  absl::Status s = commits_.Tx([&](pqxx::work& w) -> absl::Status {
    resp->Clear();
    auto again = ReplayIn(w, *retry, resp);  // a concurrent call with the id won
    if (!again.ok()) return again.status();
    if (*again) return absl::OkStatus();
    pqxx::result existing = w.exec_params(
        "SELECT id FROM tickets WHERE player_id = $1 AND status = $2", caller->id, kTicketWaiting);
    if (!existing.empty()) {
      const std::string ticket = existing[0][0].as<std::string>();
      return service::WithReason(
          absl::AlreadyExistsError(absl::StrCat("you already have a waiting ticket: ", ticket)),
          service::reason::kAlreadyQueued, {{"ticket_id", ticket}});
    }
    w.exec_params(
        "INSERT INTO tickets (id, player_id, kind, player_count, pool_key, options, rating, "
        "status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        id, caller->id, static_cast<int>(req->kind()), count, key, Bytes(opts), rating,
        kTicketWaiting);
    pqxx::result r =
        w.exec_params(absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = $1"), id);
    FillTicket(r[0], resp);
    if (*retry) StoreAnswer(w, **retry, resp->SerializeAsString(), config_.request_id_ttl);
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::GetTicket(grpc::ServerContextBase* ctx,
                                           const v1::GetTicketRequest* req, v1::Ticket* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("ticket_id", req->ticket_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = commits_.Tx([&](pqxx::work& w) -> absl::Status {
    pqxx::result r = w.exec_params(
        absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = $1"), req->ticket_id());
    if (r.empty()) return absl::NotFoundError("ticket not found");
    if (r[0][1].as<std::string>() != caller->id) {
      return absl::PermissionDeniedError("not your ticket");
    }
    w.exec_params("UPDATE tickets SET polled_at = now() WHERE id = $1 AND status = $2",
                  req->ticket_id(), kTicketWaiting);
    FillTicket(r[0], resp);
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::CancelQueue(grpc::ServerContextBase* ctx,
                                             const v1::CancelQueueRequest* req, v1::Ticket* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("ticket_id", req->ticket_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = commits_.Tx([&](pqxx::work& w) -> absl::Status {
    pqxx::result r = w.exec_params("SELECT player_id, status FROM tickets WHERE id = $1 FOR UPDATE",
                                   req->ticket_id());
    if (r.empty()) return absl::NotFoundError("ticket not found");
    if (r[0][0].as<std::string>() != caller->id) {
      return absl::PermissionDeniedError("not your ticket");
    }
    if (r[0][1].as<int>() == kTicketMatched) {
      return absl::FailedPreconditionError("already matched: the game has started");
    }
    w.exec_params(
        "UPDATE tickets SET status = $2, cancel_reason = 'cancelled' WHERE id = $1 AND status = $3",
        req->ticket_id(), kTicketCancelled, kTicketWaiting);
    pqxx::result t = w.exec_params(
        absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = $1"), req->ticket_id());
    FillTicket(t[0], resp);
    return absl::OkStatus();
  });
  if (s.ok()) commits_.Publish(TicketWatch::WakeName(req->ticket_id()));  // its WatchTicket streams
  return ToGrpc(s);
}

grpc::ServerWriteReactor<v1::Ticket>* MatchmakingService::WatchTicket(
    grpc::CallbackServerContext* ctx, const v1::WatchTicketRequest* req) {
  TicketStreamPtr stream = TicketWatch::NewStream();
  absl::Status bad = CheckId("ticket_id", req->ticket_id());
  if (bad.ok() && draining_) bad = absl::UnavailableError("server shutting down: reconnect");
  if (!bad.ok()) {
    stream->End(ToGrpc(bad));
    return stream.get();
  }
  // What the opening work needs is copied: it runs on a watch worker.
  std::optional<std::string> authorization;
  const auto& md = ctx->client_metadata();
  if (auto it = md.find("authorization"); it != md.end()) {
    authorization = std::string(it->second.data(), it->second.size());
  }
  watch_work_.Post([this, stream, id = req->ticket_id(), authorization] {
    auto caller = auth_.AuthenticateHeader(authorization, true);
    absl::Status s = caller.status();
    v1::Ticket ticket;
    if (s.ok()) {
      s = pool_.Read([&](pqxx::transaction_base& t) -> absl::Status {
        pqxx::result r =
            t.exec_params(absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = $1"), id);
        if (r.empty()) return absl::NotFoundError("ticket not found");
        if (r[0][1].as<std::string>() != caller->id) {
          return absl::PermissionDeniedError("not your ticket");
        }
        FillTicket(r[0], &ticket);
        return absl::OkStatus();
      });
    }
    if (s.ok()) s = tickets_.Follow(stream, ticket);
    if (!s.ok()) {
      const bool db = s.code() == absl::StatusCode::kUnavailable ||
                      s.code() == absl::StatusCode::kDeadlineExceeded;
      stream->End(
          ToGrpc(db ? absl::UnavailableError("database unavailable: retry WatchTicket") : s));
    }
  });
  return stream.get();
}

std::vector<v1::Ticket> MatchmakingService::ReadWatchedTickets(
    const std::vector<std::string>& ids) {
  std::vector<v1::Ticket> out;
  (void)commits_.Tx([&](pqxx::work& w) {
    out.clear();
    const std::string array = TextArray(ids);
    // Watched is as good as polled: a watched ticket is not abandoned.
    w.exec_params("UPDATE tickets SET polled_at = now() WHERE id = ANY($1::text[]) AND status = $2",
                  array, kTicketWaiting);
    for (const auto& r : w.exec_params(
             absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = ANY($1::text[])"),
             array)) {
      FillTicket(r, &out.emplace_back());
    }
    return absl::OkStatus();
  });
  return out;
}

void MatchmakingService::MarkTicketAway(const std::string& id) {
  (void)commits_.Tx([&](pqxx::work& w) {
    w.exec_params(
        "UPDATE tickets SET polled_at = least(polled_at, now() - make_interval(secs => $2)) "
        "WHERE id = $1 AND status = $3",
        id, absl::ToDoubleSeconds(TicketPresence(config_.ticket_abandon)), kTicketWaiting);
    return absl::OkStatus();
  });
}

}  // namespace tablero::matchmaking
