// Quick-match pairing: per pool, one replica at a time (an advisory lock on the pool key,
// then the waiting tickets' row locks) reads the candidates, lets PairTickets (pairing.h)
// decide the groups, then creates a ranked quick-match room per group, starts its game and
// marks the tickets matched in the same transaction: a ticket is never paired twice.
#include "libs/games/kinds.h"
#include "services/matchmaking/background.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/pairing.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/sql_values.h"
#include "services/matchmaking/ticket_watch.h"

namespace tablero::matchmaking {

void Background::MatchQueue() {
  // One matcher at a time across replicas; the others skip this round.
  std::vector<std::string> keys, changed;  // changed: tickets whose streams to wake
  const double present = absl::ToDoubleSeconds(TicketPresence(config_.ticket_abandon));
  absl::Status s = commits_->Tx([&](pqxx::work& w) {
    keys.clear();
    changed.clear();
    for (const auto& r : w.exec_params(
             "UPDATE tickets SET status = $2, cancel_reason = 'abandoned' WHERE status = $3 AND "
             "polled_at < now() - make_interval(secs => $1) RETURNING id",
             absl::ToDoubleSeconds(config_.ticket_abandon), kTicketCancelled, kTicketWaiting)) {
      changed.push_back(r[0].as<std::string>());
    }
    // Only the tickets whose players are there (TicketPresence) are paired.
    for (const auto& r : w.exec_params(
             "SELECT pool_key FROM tickets WHERE status = $1 AND polled_at > now() - "
             "make_interval(secs => $2) GROUP BY pool_key, player_count HAVING count(*) >= "
             "player_count",
             kTicketWaiting, present)) {
      keys.push_back(r[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return;
  for (const std::string& id : changed) commits_->Publish(TicketWatch::WakeName(id));
  for (const std::string& key : keys) {
    std::vector<double> waits;  // of the tickets matched, observed once committed
    int matched_kind = 0;
    std::vector<std::string> matched;
    absl::Status done = commits_->Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
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
               "player_count, kind, options FROM tickets WHERE status = $2 AND pool_key = $1 "
               "AND polled_at > now() - make_interval(secs => $3) ORDER BY created_at FOR UPDATE",
               key, kTicketWaiting, present)) {
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
          w.exec_params("INSERT INTO members (room_id, player_id, role) VALUES ($1, $2, $3)",
                        room_id, players[g], kRolePlayer);
          seats.push_back(players[g]);
        }
        v1::Room room;
        if (auto st = LoadRoom(w, room_id, &room, true); !st.ok()) return st;
        for (const auto& m : room.members())
          *ev.emplace_back().mutable_member_joined()->mutable_member() = m;
        if (auto seq = AppendEvents(w, room_id, &ev, &pub); !seq.ok()) return seq.status();
        v1::Game game;
        if (auto st = start_game_(w, pub, room, seats, 0, &game); !st.ok()) return st;
        for (size_t g : group) {
          w.exec_params("UPDATE tickets SET status = $4, room_id = $2, game_id = $3 WHERE id = $1",
                        ids[g], room_id, game.id(), kTicketMatched);
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
      for (const std::string& id : matched) commits_->Publish(TicketWatch::WakeName(id));
    }
  }
}

}  // namespace tablero::matchmaking
