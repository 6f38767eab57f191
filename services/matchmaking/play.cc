#include "services/matchmaking/play.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "libs/games/kinds.h"
#include "libs/pg/prepared.h"
#include "libs/service/status.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/room_store.h"
#include "services/matchmaking/seating.h"
#include "services/matchmaking/sql_values.h"
#include "tablero/v1/rating.pb.h"

namespace tablero::matchmaking {

absl::Status CheckSeated(const GameRow& g, int seat) {
  if (seat < 0) {
    return service::WithReason(absl::PermissionDeniedError("you hold no seat in this game"),
                               service::reason::kNotSeated);
  }
  if (g.over) {
    return service::WithReason(absl::FailedPreconditionError("the game is over"),
                               service::reason::kGameOver);
  }
  return absl::OkStatus();
}

absl::Status StalePly(absl::string_view message) {
  return service::WithReason(absl::AbortedError(message), service::reason::kStalePly);
}

int GameRow::SeatOf(const std::string& player_id) const {
  if (player_id.empty()) return -1;
  for (const SeatRow& s : seats) {
    if (s.player_id == player_id) return s.seat;
  }
  return -1;
}

absl::StatusOr<GameRow> ReadGame(pqxx::transaction_base& t, const std::string& id) {
  // One statement, one row per seat: a consistent read in a single round trip.
  pqxx::result r = pg::ExecPrepared(
      t, "read_game",
      "SELECT g.id, g.room_id, g.kind, g.state, g.ply, g.to_move, g.version, g.over, g.ranked, "
      "g.turn_limit, g.cpu_level, g.options, coalesce(g.turn_deadline <= now(), false), s.seat, "
      "coalesce(s.player_id, ''), s.cpu_now, coalesce(s.cpu_reason, ''), "
      "s.away_since IS NOT NULL, g.first_seat, us(g.created_at), s.display_name, s.team, "
      "s.player_id IS NULL OR player_connected(g.room_id, s.player_id), "
      "(SELECT seq FROM rooms WHERE id = g.room_id) "
      "FROM games g JOIN seats s ON s.game_id = g.id WHERE g.id = $1 ORDER BY s.seat",
      id);
  if (r.empty()) return absl::NotFoundError("game not found");
  GameRow g;
  const pqxx::row& row = r[0];
  g.id = row[0].as<std::string>();
  g.room_id = row[1].as<std::string>();
  g.kind = games::ProtoKind(row[2].as<int>()).value_or(v1::GAME_KIND_UNSPECIFIED);
  g.state = FieldBytes(row[3]);
  g.ply = row[4].as<int>();
  g.to_move = row[5].as<int>();
  g.version = row[6].as<int64_t>();
  g.over = row[7].as<bool>();
  g.ranked = row[8].as<bool>();
  g.turn_limit = row[9].as<int>();
  g.cpu_level = row[10].as<int>();
  g.options = Parse<v1::RoomSettings>(row[11]);
  auto it = g.options.options().find("show_legal_moves");
  g.show_legal_moves = it == g.options.options().end() || it->second != "off";
  g.deadline_passed = row[12].as<bool>();
  g.first_seat = row[18].as<int>();
  g.created_us = row[19].as<int64_t>();
  g.room_seq = row[23].is_null() ? 0 : row[23].as<int64_t>();
  for (const auto& s : r) {
    g.seats.push_back(SeatRow{s[13].as<int>(), s[14].as<std::string>(), s[15].as<bool>(),
                              s[16].as<std::string>(), s[17].as<bool>(), s[20].as<std::string>(),
                              s[21].as<int>(), s[22].as<bool>()});
  }
  return g;
}

absl::StatusOr<GameRow> ReadGame(pg::Pool& pool, const std::string& id) {
  absl::StatusOr<GameRow> g;
  absl::Status s = pool.Read([&](pqxx::transaction_base& t) {
    g = ReadGame(t, id);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return g;
}

namespace {

// The turn's deadline: only a human seat's turn runs out.
std::string DeadlineSql(const PlayConfig& play, int turn_limit) {
  return absl::StrCat("now() + interval '", turn_limit * play.turn_time_scale, " seconds'");
}

bool HumanSeat(const std::vector<SeatRow>& seats, int seat) {
  return seat >= 0 && seat < static_cast<int>(seats.size()) && !seats[seat].player_id.empty();
}

v1::RatingPool Pool(v1::GameKind kind, const google::protobuf::Map<std::string, std::string>& o) {
  switch (kind) {
    case v1::GAME_KIND_CHESS:
      return v1::RATING_POOL_CHESS;
    case v1::GAME_KIND_CHECKERS:
      return v1::RATING_POOL_CHECKERS;
    case v1::GAME_KIND_SHOGI4: {
      auto it = o.find("format");
      return it != o.end() && it->second == "pairs" ? v1::RATING_POOL_SHOGI4_PAIRS
                                                    : v1::RATING_POOL_SHOGI4_SINGLES;
    }
    default:
      return v1::RATING_POOL_UNSPECIFIED;
  }
}

// The end of a game: the room is FINISHED and a ranked game goes to the rating outbox
// in the same transaction (so it is reported exactly when it is over).
void Finish(pqxx::transaction_base& t, const v1::Game& game) {
  t.exec_params("UPDATE rooms SET state = $2 WHERE id = $1 AND current_game_id = $3",
                game.room_id(), static_cast<int>(v1::Room::STATE_FINISHED), game.id());
  // No grace clock runs in a finished game: its seats leave the take-over sweep's index.
  t.exec_params("UPDATE seats SET away_since = NULL WHERE game_id = $1 AND away_since IS NOT NULL",
                game.id());
  if (!game.ranked()) return;
  v1::ReportGameRequest report;
  report.set_game_id(game.id());
  report.set_kind(game.kind());
  report.set_pool(Pool(game.kind(), game.options()));
  report.set_ranked(true);
  for (const v1::Seat& s : game.seats()) {
    v1::ReportSeat* rs = report.add_seats();
    rs->set_player_id(s.player_id());
    rs->set_place(s.seat() < game.result().places_size() ? game.result().places(s.seat()) : 0);
    rs->set_team(s.team());
  }
  *report.mutable_finished_time() = game.finished_time();
  t.exec_params("INSERT INTO outbox (game_id, request) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                game.id(), Bytes(report));
}

v1::RoomEvent TurnEvent(const v1::Game& game, bool cpu_to_play) {
  v1::RoomEvent e;
  e.set_game_id(game.id());
  auto* tc = e.mutable_turn_changed();
  tc->set_to_move(game.to_move());
  tc->set_ply(game.ply());
  if (game.has_turn_deadline()) *tc->mutable_turn_deadline() = game.turn_deadline();
  tc->set_cpu_to_play(cpu_to_play);
  return e;
}

bool CpuToPlay(const v1::Game& game) {
  if (game.to_move() < 0 || game.to_move() >= game.seats_size()) return false;
  const v1::Seat& s = game.seats(game.to_move());
  return s.is_cpu() || s.controlled_by_cpu_now();
}

// The play events of a move as its row in `moves` keeps them.
pqxx::binarystring MoveRecordEvents(const Applied& a) {
  v1::GameActionResponse evs;
  for (const auto& pe : a.events) *evs.add_events() = pe;
  return Bytes(evs);
}

// The room events of what `a` did, before the last (game over, or whose turn it is): the
// move with its view, checks, resignations and draw offers, eliminations.
void PlayEvents(int seat, const Applied& a, bool by_cpu, int to_move,
                std::vector<v1::RoomEvent>* out) {
  std::vector<v1::RoomEvent>& ev = *out;
  if (a.moved) {
    v1::RoomEvent e;
    auto* mp = e.mutable_move_played();
    mp->set_seat(seat);
    *mp->mutable_move() = a.move;
    mp->set_ply(a.view.ply());
    for (const auto& pe : a.events) *mp->add_events() = pe;
    mp->set_to_move(to_move);
    mp->set_by_cpu(by_cpu);
    *mp->mutable_view() = a.view;
    ev.push_back(e);
    if (a.view.in_check_size() > 0) {
      v1::RoomEvent c;
      for (int s : a.view.in_check()) c.mutable_check()->add_seats(s);
      ev.push_back(c);
    }
  }
  for (const auto& pe : a.events) {
    v1::RoomEvent e;
    switch (pe.type()) {
      case v1::PlayEvent::TYPE_RESIGNED:
        e.mutable_resigned()->set_seat(pe.seat());
        break;
      case v1::PlayEvent::TYPE_DRAW_OFFERED:
        e.mutable_draw_offered()->set_seat(pe.seat());
        break;
      case v1::PlayEvent::TYPE_DRAW_DECLINED:
        e.mutable_draw_declined()->set_seat(pe.seat());
        break;
      default:
        continue;
    }
    ev.push_back(e);
  }
  for (const auto& pe : a.events) {
    if (pe.type() != v1::PlayEvent::TYPE_ELIMINATION) continue;
    v1::RoomEvent e;
    auto* el = e.mutable_elimination();
    el->set_seat(pe.seat());
    el->set_by_seat(pe.other());
    el->set_place(pe.seat() >= 0 && pe.seat() < a.result.places_size() ? a.result.places(pe.seat())
                                                                       : 0);
    ev.push_back(e);
  }
}

// The game as LoadGame would read it right after Commit's update, built from the row read
// before (its version check passed, so nothing of it changed but what the update wrote)
// and the update's RETURNING: one statement fewer per move. Seats' connected flags are
// those of the read, a few milliseconds old.
void SnapshotAfterCommit(const GameRow& g, const Applied& a, int to_move,
                         std::optional<int64_t> deadline_us, std::optional<int64_t> finished_us,
                         int64_t seq, v1::Game* out) {
  out->Clear();
  out->set_id(g.id);
  out->set_room_id(g.room_id);
  out->set_kind(g.kind);
  *out->mutable_options() = g.options.options();
  out->set_first_seat(g.first_seat);
  out->set_turn_time_limit_seconds(g.turn_limit);
  out->set_cpu_level(g.cpu_level);
  out->set_ranked(g.ranked);
  out->set_ply(a.view.ply());
  out->set_to_move(to_move);
  *out->mutable_view() = a.view;
  *out->mutable_result() = a.result;
  if (deadline_us) *out->mutable_turn_deadline() = ToTimestamp(*deadline_us);
  *out->mutable_created_time() = ToTimestamp(g.created_us);
  if (finished_us) *out->mutable_finished_time() = ToTimestamp(*finished_us);
  out->set_seq(seq);
  for (const SeatRow& s : g.seats) {
    v1::Seat* seat = out->add_seats();
    seat->set_seat(s.seat);
    seat->set_player_id(s.player_id);
    seat->set_is_cpu(s.player_id.empty());
    seat->set_display_name(s.display_name);
    seat->set_team(s.team);
    seat->set_controlled_by_cpu_now(s.cpu_now);
    seat->set_connected(s.connected);
  }
}

}  // namespace

absl::StatusOr<std::vector<v1::RoomEvent>> Commit(pqxx::transaction_base& t, const PlayConfig& play,
                                                  const GameRow& g, int seat, const Applied& a,
                                                  bool by_cpu, v1::Game* out) {
  // The room's row lock first (one lock order for every writer); its seq is where this
  // commit's events start.
  pqxx::result room = pg::ExecPrepared(t, "room_seq_lock",
                                       "SELECT seq FROM rooms WHERE id = $1 FOR UPDATE", g.room_id);
  if (room.empty()) return absl::NotFoundError("room not found");
  const int64_t seq0 = room[0][0].as<int64_t>();
  bool over = a.result.over();
  int to_move = over ? -1 : a.view.to_move();
  bool timed = !over && g.turn_limit > 0 && HumanSeat(g.seats, to_move);
  const double deadline = timed ? g.turn_limit * play.turn_time_scale : 0;  // seconds; 0: none
  // The version check: two moves read at the same ply can never both pass. cpu_due by
  // the one rule, cpu_due_at (migration 0005), from the new turn's deadline.
  static const std::string kDeadline =
      "CASE WHEN $10::float8 > 0 THEN now() + $10::float8 * interval '1 second' END";
  static const std::string kUpdate = absl::StrCat(
      "UPDATE games SET ply = $4, version = version + 1, to_move = $5, state = $6, view = $7, "
      "result = $8, over = $9, finished_at = CASE WHEN $9 THEN now() END, turn_deadline = ",
      kDeadline, ", cpu_due = cpu_due_at($1, $5, $9, ", kDeadline,
      "), cpu_lease_until = NULL WHERE id = $1 AND ply = $2 AND version = $3 AND NOT over "
      "RETURNING id, us(turn_deadline) AS deadline, us(finished_at) AS finished");
  // The move row only if the version check passed: one statement, one round trip.
  static const std::string kUpdateAndMove = absl::StrCat(
      "WITH u AS (", kUpdate,
      "), m AS (INSERT INTO moves (game_id, ply, seat, move, events, position, by_cpu) "
      "SELECT id, $2, $11, $12, $13, $14, $15 FROM u) SELECT deadline, finished FROM u");
  pqxx::result r;
  if (a.moved) {
    r = pg::ExecPrepared(t, "commit_move", kUpdateAndMove, g.id, g.ply, g.version, a.view.ply(),
                         to_move, Bytes(a.state), Bytes(a.view), Bytes(a.result), over, deadline,
                         seat, Bytes(a.move), MoveRecordEvents(a), a.view.position(), by_cpu);
  } else {
    static const std::string kUpdateOnly =
        absl::StrCat("WITH u AS (", kUpdate, ") SELECT deadline, finished FROM u");
    r = pg::ExecPrepared(t, "commit_action", kUpdateOnly, g.id, g.ply, g.version, a.view.ply(),
                         to_move, Bytes(a.state), Bytes(a.view), Bytes(a.result), over, deadline);
  }
  if (r.empty()) {
    return StalePly("the game moved on meanwhile: re-read it (GetGame) and decide again");
  }
  std::vector<v1::RoomEvent> ev;
  // A player moving on a seat the CPU was holding takes it back (rare: then the snapshot
  // is read again, with the seat's new state).
  if (!by_cpu && seat >= 0 && g.seats[seat].cpu_now) {
    if (auto s = Reclaim(t, g.id, g.seats[seat].player_id, &ev); !s.ok()) return s;
    if (auto s = LoadGame(t, g.id, out); !s.ok()) return s;
  } else {
    auto opt = [](const pqxx::field& f) {
      return f.is_null() ? std::nullopt : std::optional<int64_t>(f.as<int64_t>());
    };
    SnapshotAfterCommit(g, a, to_move, opt(r[0][0]), opt(r[0][1]), seq0, out);
  }
  PlayEvents(seat, a, by_cpu, to_move, &ev);
  if (over) {
    Finish(t, *out);
    v1::RoomEvent e;
    *e.mutable_game_over()->mutable_result() = a.result;
    *e.mutable_game_over()->mutable_game() = *out;
    ev.push_back(e);
  } else {
    ev.push_back(TurnEvent(*out, CpuToPlay(*out)));
  }
  for (auto& e : ev) e.set_game_id(g.id);
  auto seq = AppendEvents(t, g.room_id, &ev, /*to_publish=*/nullptr, seq0);
  if (!seq.ok()) return seq.status();
  out->set_seq(*seq);
  return ev;
}

absl::Status CreateGame(pqxx::transaction_base& t, ToPublish& to_publish, const PlayConfig& play,
                        const v1::Room& room, const std::vector<std::string>& players,
                        int first_seat, const v1::NewGameResponse& created, v1::Game* out) {
  std::string id = NewId();
  const v1::RoomSettings& st = room.settings();
  v1::RoomSettings opts;
  *opts.mutable_options() = created.options();
  int n = static_cast<int>(players.size());
  int to_move = created.view().to_move();
  bool timed = st.turn_time_limit_seconds() > 0 && to_move >= 0 && !players[to_move].empty();
  bool ranked = st.ranked();
  v1::Result result;
  result.set_over(false);
  for (int i = 0; i < n; ++i) result.add_places(0);
  t.exec_params(
      absl::StrCat("INSERT INTO games (id, room_id, kind, options, seat_count, first_seat, "
                   "turn_limit, cpu_level, ranked, ply, to_move, state, view, result, "
                   "initial_position, grace_seconds, turn_deadline) VALUES ($1, $2, $3, $4, $5, "
                   "$6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, ",
                   timed ? DeadlineSql(play, st.turn_time_limit_seconds()) : "NULL", ")"),
      id, room.id(), static_cast<int>(room.kind()), Bytes(opts), n, first_seat,
      st.turn_time_limit_seconds(), st.cpu_level(), ranked, created.view().ply(), to_move,
      Bytes(created.state()), Bytes(created.view()), Bytes(result), created.view().position(),
      play.grace_seconds);
  bool pairs = room.kind() == v1::GAME_KIND_SHOGI4 && created.options().count("format") &&
               created.options().at("format") == "pairs";
  for (int i = 0; i < n; ++i) {
    int team = pairs ? i % 2 : i;
    if (players[i].empty()) {
      t.exec_params(
          "INSERT INTO seats (game_id, seat, player_id, display_name, team) VALUES ($1, $2, NULL, "
          "$3, $4)",
          id, i, absl::StrCat("CPU (level ", st.cpu_level(), ")"), team);
    } else {
      // A seated player without an open stream is away from the start: the grace clock runs.
      t.exec_params(
          "INSERT INTO seats (game_id, seat, player_id, display_name, team, away_since) "
          "SELECT $1, $2, p.id, p.display_name, $4, CASE WHEN player_connected($5, p.id) THEN "
          "NULL ELSE now() END FROM players p WHERE p.id = $3",
          id, i, players[i], team, room.id());
    }
  }
  t.exec_params(
      "UPDATE rooms SET state = $2, current_game_id = $3, games_played = games_played + 1 WHERE "
      "id = $1",
      room.id(), static_cast<int>(v1::Room::STATE_PLAYING), id);
  RefreshCpuDue(t, id);
  if (auto s = LoadGame(t, id, out); !s.ok()) return s;
  std::vector<v1::RoomEvent> ev(1);
  *ev[0].mutable_game_started()->mutable_game() = *out;
  ev.push_back(TurnEvent(*out, CpuToPlay(*out)));
  for (auto& e : ev) e.set_game_id(id);
  auto seq = AppendEvents(t, room.id(), &ev, &to_publish);
  if (!seq.ok()) return seq.status();
  out->set_seq(*seq);
  return absl::OkStatus();
}

namespace {

// CommitPlay's one-call path. nullopt: not a move it takes (the end of a game, a reclaim),
// or the room stayed too busy: take the transaction.
absl::StatusOr<std::optional<std::vector<v1::RoomEvent>>> CommitInOneCall(
    pg::Pool& pool, const PlayConfig& play, const GameRow& g, int seat, const Applied& a,
    bool by_cpu, v1::Game* out) {
  const int to_move = a.view.to_move();
  if (!a.moved || a.result.over() || to_move < 0 || seat < 0 ||
      seat >= static_cast<int>(g.seats.size()) || (!by_cpu && g.seats[seat].cpu_now)) {
    return std::nullopt;
  }
  const bool timed = g.turn_limit > 0 && HumanSeat(g.seats, to_move);
  std::optional<int64_t> deadline;  // this replica's clock: events and row agree on it
  if (timed) deadline = NowUs() + static_cast<int64_t>(g.turn_limit * play.turn_time_scale * 1e6);
  const pqxx::binarystring move = Bytes(a.move), events = MoveRecordEvents(a),
                           state = Bytes(a.state), view = Bytes(a.view), result = Bytes(a.result);
  int64_t seq0 = g.room_seq;
  v1::Game snap;
  SnapshotAfterCommit(g, a, to_move, deadline, std::nullopt, seq0, &snap);
  std::vector<v1::RoomEvent> ev;
  PlayEvents(seat, a, by_cpu, to_move, &ev);
  ev.push_back(TurnEvent(snap, CpuToPlay(snap)));
  for (auto& e : ev) e.set_game_id(g.id);
  for (int attempt = 0; attempt < 5; ++attempt) {
    const std::string bodies = NumberEvents(&ev, seq0);  // renumbered on each attempt
    std::string verdict;
    absl::Status s = pool.Autocommit([&](pqxx::transaction_base& t) {
      pqxx::result r = pg::ExecPrepared(
          t, "commit_move_fn",
          "SELECT commit_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
          "'epoch'::timestamptz + $11::bigint * interval '1 microsecond', "  // exact; NULL: none
          "$12, $13, $14, $15, $16, $17::bytea[])",
          g.id, g.ply, g.version, g.room_id, seq0, a.view.ply(), to_move, state, view, result,
          deadline, seat, move, events, a.view.position(), by_cpu, bodies);
      verdict = r[0][0].as<std::string>();
      if (verdict == "seq")
        seq0 =
            pg::ExecPrepared(t, "room_seq", "SELECT seq FROM rooms WHERE id = $1", g.room_id)[0][0]
                .as<int64_t>();
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    if (verdict == "seq") continue;  // other events came first: number ours after them
    if (verdict == "gone") return absl::NotFoundError("room not found");
    if (verdict != "ok") {
      return StalePly("the game moved on meanwhile: re-read it (GetGame) and decide again");
    }
    snap.set_seq(seq0 + static_cast<int64_t>(ev.size()));
    *out = std::move(snap);
    return std::optional<std::vector<v1::RoomEvent>>(std::move(ev));
  }
  return std::nullopt;  // the room kept busy: Commit locks it and waits
}

}  // namespace

absl::StatusOr<CommitPath> CommitPlay(pg::Pool& pool, const PlayConfig& play, const GameRow& g,
                                      int seat, const Applied& a, bool by_cpu, v1::Game* out,
                                      std::vector<v1::RoomEvent>* appended) {
  auto one = CommitInOneCall(pool, play, g, seat, a, by_cpu, out);
  if (!one.ok()) return one.status();
  if (one->has_value()) {
    *appended = std::move(**one);
    return CommitPath::kOneCall;
  }
  absl::Status s = pool.Tx([&](pqxx::work& w) -> absl::Status {
    out->Clear();  // a retried attempt starts over
    auto ev = Commit(w, play, g, seat, a, by_cpu, out);
    if (!ev.ok()) return ev.status();
    *appended = std::move(*ev);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return CommitPath::kTransaction;
}

}  // namespace tablero::matchmaking
