// Quick match: tickets wait in the database. Per pool, one replica at a time (an advisory
// lock on the pool key, then the waiting tickets' row locks) reads the candidates, lets
// PairTickets (pairing.h) decide the groups, then creates a ranked quick-match room per
// group, starts its game and marks the tickets matched in the same transaction: a ticket
// is never paired twice.
#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "libs/service/request_id.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/pairing.h"
#include "services/matchmaking/request_ids.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/store.h"

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

double MatchmakingService::RatingOf(const std::string& player, v1::RatingPool pool) {
  if (rating_ == nullptr) return 1500;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  service::Outgoing(&ctx, "");
  v1::GetRatingsRequest req;
  req.set_player_id(player);
  v1::GetRatingsResponse resp;
  if (!rating_->GetRatings(&ctx, req, &resp).ok()) return 1500;  // unrated: the default
  for (const auto& r : resp.ratings()) {
    if (r.pool() == pool) return r.rating();
  }
  return 1500;
}

grpc::Status MatchmakingService::JoinQueue(grpc::ServerContextBase* ctx,
                                           const v1::JoinQueueRequest* req, v1::Ticket* resp) {
  auto caller = Authenticate(ctx, true);
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
  if (!settings.ok()) return ToGrpc(settings.status());
  v1::RoomSettings opts;
  *opts.mutable_options() = settings->options();
  // The options must allow this many seats (Japanese Chinese Checkers: 2-3).
  v1::NewGameRequest probe;
  probe.set_kind(req->kind());
  *probe.mutable_options() = opts.options();
  probe.set_seats(count);
  auto created = RulesNewGame(probe);
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
  double rating = RatingOf(caller->id, PoolOf(req->kind(), opts));
  std::string id = NewId();
  absl::Status s = Tx([&](pqxx::work& w) -> absl::Status {
    resp->Clear();
    auto again = ReplayIn(w, *retry, resp);  // a concurrent call with the id won
    if (!again.ok()) return again.status();
    if (*again) return absl::OkStatus();
    pqxx::result existing =
        w.exec_params("SELECT id FROM tickets WHERE player_id = $1 AND status = 1", caller->id);
    if (!existing.empty()) {
      const std::string ticket = existing[0][0].as<std::string>();
      return service::WithReason(
          absl::AlreadyExistsError(absl::StrCat("you already have a waiting ticket: ", ticket)),
          service::reason::kAlreadyQueued, {{"ticket_id", ticket}});
    }
    w.exec_params(
        "INSERT INTO tickets (id, player_id, kind, player_count, pool_key, options, rating, "
        "status) VALUES ($1, $2, $3, $4, $5, $6, $7, 1)",
        id, caller->id, static_cast<int>(req->kind()), count, key, Bytes(opts), rating);
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
  auto caller = Authenticate(ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("ticket_id", req->ticket_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = Tx([&](pqxx::work& w) -> absl::Status {
    pqxx::result r = w.exec_params(
        absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = $1"), req->ticket_id());
    if (r.empty()) return absl::NotFoundError("ticket not found");
    if (r[0][1].as<std::string>() != caller->id) {
      return absl::PermissionDeniedError("not your ticket");
    }
    w.exec_params("UPDATE tickets SET polled_at = now() WHERE id = $1 AND status = 1",
                  req->ticket_id());
    FillTicket(r[0], resp);
    return absl::OkStatus();
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::CancelQueue(grpc::ServerContextBase* ctx,
                                             const v1::CancelQueueRequest* req, v1::Ticket* resp) {
  auto caller = Authenticate(ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("ticket_id", req->ticket_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = Tx([&](pqxx::work& w) -> absl::Status {
    pqxx::result r = w.exec_params("SELECT player_id, status FROM tickets WHERE id = $1 FOR UPDATE",
                                   req->ticket_id());
    if (r.empty()) return absl::NotFoundError("ticket not found");
    if (r[0][0].as<std::string>() != caller->id) {
      return absl::PermissionDeniedError("not your ticket");
    }
    if (r[0][1].as<int>() == v1::Ticket::STATUS_MATCHED) {
      return absl::FailedPreconditionError("already matched: the game has started");
    }
    w.exec_params(
        "UPDATE tickets SET status = 3, cancel_reason = 'cancelled' WHERE id = $1 AND status = 1",
        req->ticket_id());
    pqxx::result t = w.exec_params(
        absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = $1"), req->ticket_id());
    FillTicket(t[0], resp);
    return absl::OkStatus();
  });
  if (s.ok()) hub_.Publish(TicketWatch::WakeName(req->ticket_id()));  // its WatchTicket streams
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
    auto caller = AuthenticateHeader(authorization, true);
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
  (void)Tx([&](pqxx::work& w) {
    out.clear();
    const std::string array = TextArray(ids);
    // Watched is as good as polled: a watched ticket is not abandoned.
    w.exec_params("UPDATE tickets SET polled_at = now() WHERE id = ANY($1::text[]) AND status = 1",
                  array);
    for (const auto& r : w.exec_params(
             absl::StrCat("SELECT ", kTicketCols, " FROM tickets WHERE id = ANY($1::text[])"),
             array)) {
      FillTicket(r, &out.emplace_back());
    }
    return absl::OkStatus();
  });
  return out;
}

void MatchmakingService::MatchQueue() {
  // One matcher at a time across replicas; the others skip this round.
  std::vector<std::string> keys, changed;  // changed: tickets whose streams to wake
  absl::Status s = Tx([&](pqxx::work& w) {
    keys.clear();
    changed.clear();
    for (const auto& r : w.exec_params(
             "UPDATE tickets SET status = 3, cancel_reason = 'abandoned' WHERE status = 1 AND "
             "polled_at < now() - make_interval(secs => $1) RETURNING id",
             absl::ToDoubleSeconds(config_.ticket_abandon))) {
      changed.push_back(r[0].as<std::string>());
    }
    for (const auto& r :
         w.exec("SELECT pool_key FROM tickets WHERE status = 1 GROUP BY pool_key, player_count "
                "HAVING count(*) >= player_count")) {
      keys.push_back(r[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return;
  for (const std::string& id : changed) hub_.Publish(TicketWatch::WakeName(id));
  for (const std::string& key : keys) {
    std::vector<double> waits;  // of the tickets matched, observed once committed
    int matched_kind = 0;
    std::vector<std::string> matched;
    absl::Status done = Tx([&](pqxx::work& w) -> absl::Status {
      waits.clear();
      matched.clear();
      // The pool's matcher lock; the candidates' row locks (FOR UPDATE) also keep out a
      // concurrent CancelQueue until the tickets are marked matched.
      pqxx::result lock = w.exec_params("SELECT pg_try_advisory_xact_lock(hashtext($1))",
                                        "tablero.matchmaking.queue." + key);
      if (!lock[0][0].as<bool>()) return absl::OkStatus();
      std::vector<WaitingTicket> waiting;  // oldest first
      std::vector<std::string> ids, players;
      int count = 0, kind = 0;
      v1::RoomSettings opts;
      for (const auto& r : w.exec_params(
               "SELECT id, player_id, rating, extract(epoch FROM now() - created_at)::float8, "
               "player_count, kind, options FROM tickets WHERE status = 1 AND pool_key = $1 "
               "ORDER BY created_at FOR UPDATE",
               key)) {
        ids.push_back(r[0].as<std::string>());
        players.push_back(r[1].as<std::string>());
        waiting.push_back(WaitingTicket{r[2].as<double>(), r[3].as<double>()});
        count = r[4].as<int>();
        kind = r[5].as<int>();
        matched_kind = kind;
        opts = Parse<v1::RoomSettings>(r[6]);
      }
      for (const std::vector<size_t>& group : PairTickets(waiting, count)) {
        for (size_t g : group) waits.push_back(waiting[g].waited_seconds);
        // A quick-match room: ranked, fixed settings, everyone a PLAYER member.
        std::string room_id = NewId();
        v1::RoomSettings settings = opts;
        settings.set_ranked(true);
        settings.set_cpu_level(3);
        for (int attempt = 0;; ++attempt) {
          pqxx::result ins = w.exec_params(
              "INSERT INTO rooms (id, kind, invite_code, host_id, settings, quick_match) VALUES "
              "($1, $2, $3, $4, $5, true) ON CONFLICT (invite_code) DO NOTHING RETURNING id",
              room_id, kind, NewInviteCode(), players[group[0]], Bytes(settings));
          if (!ins.empty()) break;
          if (attempt == 10) return absl::InternalError("could not allocate an invite code");
        }
        std::vector<v1::RoomEvent> ev;
        std::vector<std::string> seats;
        for (size_t g : group) {
          w.exec_params("INSERT INTO members (room_id, player_id, role) VALUES ($1, $2, 1)",
                        room_id, players[g]);
          seats.push_back(players[g]);
        }
        v1::Room room;
        if (auto st = LoadRoom(w, room_id, &room, true); !st.ok()) return st;
        for (const auto& m : room.members())
          *ev.emplace_back().mutable_member_joined()->mutable_member() = m;
        if (auto seq = AppendEvents(w, room_id, &ev); !seq.ok()) return seq.status();
        v1::Game game;
        if (auto st = StartIn(w, room, seats, 0, &game); !st.ok()) return st;
        for (size_t g : group) {
          w.exec_params("UPDATE tickets SET status = 2, room_id = $2, game_id = $3 WHERE id = $1",
                        ids[g], room_id, game.id());
          matched.push_back(ids[g]);
        }
      }
      return absl::OkStatus();
    });
    if (done.ok() && games::ProtoKind(matched_kind)) {
      for (double wait : waits) metrics_->queue_wait[matched_kind]->Observe(wait);
    }
    // The match pushed to the players' WatchTicket streams, on every replica.
    if (done.ok()) {
      for (const std::string& id : matched) hub_.Publish(TicketWatch::WakeName(id));
    }
  }
}

}  // namespace tablero::matchmaking
