// tablero: the command-line client of the tablero game site. Talks to the matchmaking
// service (default 127.0.0.1:50052, --server or TABLERO_SERVER) and the rating service
// (default 127.0.0.1:50053, --rating_server or TABLERO_RATING_SERVER). Run `tablero help`.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "tools/tablero/args.h"
#include "tools/tablero/board.h"
#include "tools/tablero/client.h"
#include "tools/tablero/play.h"

namespace tablero::cli {
namespace {

const char* kUsage = R"(usage: tablero [--server HOST:PORT] [--rating_server HOST:PORT] COMMAND ...

Identity (kept in $XDG_CONFIG_HOME/tablero/identity or ~/.config/tablero/identity):
  guest [--name NAME]          create or show your guest identity
  rename NAME                  change your display name
  me                           your rooms and running games
Rooms:
  create KIND [SETTINGS]       create a room (KIND: chess, shogi4, checkers); prints its code
  join CODE                    join a room by invite code, then play in it
  room CODE                    show a room
  settings CODE [SETTINGS]     change the room's settings (host, between games)
  start CODE                   start the game (host)
  leave CODE                   leave the room (the CPU plays your seat)
Playing:
  play KIND [--cpu N] [SETTINGS]  a game against the computer in one command
  quick KIND [--players N]     quick match: a ranked game with players of similar rating
  play CODE                    open the room: board, live moves, type your moves
  watch CODE                   follow a room live as a spectator
  move GAME MOVE               play one move;   legal GAME [SQUARE]: legal moves
  board GAME                   draw a game's position
History and ratings:
  games [--player ID]          your (or a player's) games
  pgn GAME                     a chess game as PGN
  ratings [PLAYER]             ratings in every pool
  leaderboard [POOL]           chess (default), shogi4, shogi4-pairs, checkers
SETTINGS: --ranked --cpu N (1-10) --seats N --turn 0|30|60 --first SEAT --opt NAME=VALUE ...
CODE may be an invite code, an invite link /join/CODE or a room id.
--help lists every flag; --version prints the client's version.
)";

std::string Env(const char* name, const std::string& def) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : def;
}

// The game named `name` into *kind; false (with a message) for a name no game has.
bool KindArg(const std::string& name, v1::GameKind* kind) {
  *kind = ParseKind(name);
  if (*kind != v1::GAME_KIND_UNSPECIFIED) return true;
  std::cerr << "error: unknown game " << name << " (" << KindNames() << ")\n";
  return false;
}

// Every --opt NAME=VALUE into `options`. False (with a message) on one without '='.
bool ApplyOpts(const Args& a, google::protobuf::Map<std::string, std::string>* options) {
  for (const std::string& o : a.opts) {
    size_t eq = o.find('=');
    if (eq == std::string::npos) {
      std::cerr << "error: --opt wants NAME=VALUE, got " << o << "\n";
      return false;
    }
    (*options)[o.substr(0, eq)] = o.substr(eq + 1);
  }
  return true;
}

// Applies SETTINGS flags on top of `s`. False (with a message) on bad values.
bool ApplySettings(const Args& a, v1::RoomSettings* s) {
  auto num = [&](const char* k, auto set) {
    auto it = a.flags.find(k);
    if (it != a.flags.end()) set(std::atoi(it->second.c_str()));
  };
  if (a.flags.count("ranked")) s->set_ranked(true);
  if (a.flags.count("unranked")) s->set_ranked(false);
  num("cpu", [&](int v) { s->set_cpu_level(v); });
  num("seats", [&](int v) { s->set_seat_count(v); });
  num("turn", [&](int v) { s->set_turn_time_limit_seconds(v); });
  num("first", [&](int v) { s->set_first_seat(v); });
  return ApplyOpts(a, s->mutable_options());
}

void PrintRoom(const v1::Room& r) {
  static const char* kState[] = {"?", "lobby", "playing", "finished"};
  std::cout << "Room " << r.id() << " (" << KindName(r.kind()) << ", "
            << kState[r.state() >= 0 && r.state() <= 3 ? r.state() : 0] << ")\n"
            << "Invite code: " << r.invite_code() << "\n"
            << "Invite link: " << r.invite_url() << "\n"
            << "Settings: ranked=" << (r.settings().ranked() ? "yes" : "no")
            << " cpu_level=" << r.settings().cpu_level() << " seats=" << r.settings().seat_count()
            << " turn_limit=" << r.settings().turn_time_limit_seconds() << "s";
  if (r.kind() != v1::GAME_KIND_CHESS) std::cout << " first_seat=" << r.settings().first_seat();
  for (const auto& [k, v] : r.settings().options()) std::cout << " " << k << "=" << v;
  std::cout << "\nMembers:";
  for (const auto& m : r.members()) {
    std::cout << " " << m.display_name() << (m.player_id() == r.host_player_id() ? " (host)" : "")
              << (m.role() == v1::Member::ROLE_SPECTATOR ? " (spectator)" : "") << ";";
  }
  std::cout << "\n";
  if (!r.current_game_id().empty()) std::cout << "Game: " << r.current_game_id() << "\n";
}

int NeedArgs(const Args& a, size_t n) {
  if (a.pos.size() < n) {
    std::cerr << kUsage;
    return 2;
  }
  return 0;
}

int Main(int argc, char** argv) {
  Args a = ParseArgs(argc, argv, kUsage);
  if (a.pos.empty() || a.pos[0] == "help") {
    std::cout << kUsage;
    return a.pos.empty() ? 2 : 0;
  }
  std::string server =
      a.flags.count("server") ? a.flags["server"] : Env("TABLERO_SERVER", "127.0.0.1:50052");
  std::string rating = a.flags.count("rating_server")
                           ? a.flags["rating_server"]
                           : Env("TABLERO_RATING_SERVER", "127.0.0.1:50053");
  Client c(server, rating);
  const std::string cmd = a.pos[0];
  grpc::Status s;

  // Read-only commands that need no identity.
  if (cmd == "pgn" || cmd == "board" || cmd == "legal" || cmd == "room") {
    if (int rc = NeedArgs(a, 2)) return rc;
    if (cmd == "room") {
      v1::Room r;
      s = c.FindRoom(a.pos[1], &r);
      if (!s.ok()) return Fail(s);
      PrintRoom(r);
      return 0;
    }
    if (cmd == "pgn") {
      v1::ExportPgnRequest q;
      q.set_game_id(a.pos[1]);
      v1::ExportPgnResponse r;
      s = c.mm()->ExportPgn(c.Ctx(false).get(), q, &r);
      if (!s.ok()) return Fail(s);
      std::cout << r.pgn() << (r.pgn().empty() || r.pgn().back() != '\n' ? "\n" : "");
      return 0;
    }
    if (cmd == "legal") {
      v1::ListLegalMovesRequest q;
      q.set_game_id(a.pos[1]);
      if (a.pos.size() > 2) q.set_from_square(a.pos[2]);
      v1::ListLegalMovesResponse r;
      s = c.mm()->ListLegalMoves(c.Ctx(false).get(), q, &r);
      if (!s.ok()) return Fail(s);
      for (const auto& m : r.moves()) std::cout << m.display() << " (" << m.notation() << ")\n";
      return 0;
    }
    v1::GetGameRequest q;
    q.set_game_id(a.pos[1]);
    v1::Game g;
    s = c.mm()->GetGame(c.Ctx(false).get(), q, &g);
    if (!s.ok()) return Fail(s);
    std::cout << DrawBoard(g.kind(), g.view(), -1) << StatusLine(g, "") << "\n";
    return 0;
  }
  if (cmd == "leaderboard") {
    const std::string pool = a.pos.size() > 1 ? a.pos[1] : "chess";
    v1::GetLeaderboardRequest q;
    q.set_pool(ParsePool(pool));
    if (q.pool() == v1::RATING_POOL_UNSPECIFIED) {
      std::cerr << "error: unknown rating pool " << pool << " (" << PoolNames() << ")\n";
      return 2;
    }
    v1::GetLeaderboardResponse r;
    s = c.rating()->GetLeaderboard(c.Ctx(false).get(), q, &r);
    if (!s.ok()) return Fail(s);
    v1::GetPlayersRequest pq;
    for (const auto& e : r.entries()) pq.add_player_ids(e.player_id());
    v1::GetPlayersResponse pr;
    std::map<std::string, std::string> names;
    if (c.mm()->GetPlayers(c.Ctx(false).get(), pq, &pr).ok())
      for (const auto& p : pr.players()) names[p.player_id()] = p.display_name();
    std::cout << "Leaderboard (" << pool << "): " << r.entries_size() << " players\n";
    for (const auto& e : r.entries()) {
      std::cout << e.rank() << ". "
                << (names.count(e.player_id()) ? names[e.player_id()] : e.player_id()) << "  "
                << static_cast<int>(e.rating() + 0.5) << " (RD " << static_cast<int>(e.rd() + 0.5)
                << ", " << e.games() << " games)\n";
    }
    return 0;
  }

  if (!c.EnsureGuest(a.flags.count("name") ? a.flags["name"] : "")) return 1;
  const Identity& me = c.me();

  if (cmd == "guest") {
    std::cout << "You are " << me.name << " (player " << me.player_id << ") on " << server
              << "\nIdentity: " << IdentityPath() << "\n";
    return 0;
  }
  if (cmd == "rename") {
    if (int rc = NeedArgs(a, 2)) return rc;
    v1::UpdateGuestRequest q;
    q.set_display_name(a.pos[1]);
    v1::Player p;
    s = c.mm()->UpdateGuest(c.Ctx().get(), q, &p);
    if (!s.ok()) return Fail(s);
    Identity id = me;
    id.name = p.display_name();
    SaveIdentity(id);
    std::cout << "You are now " << p.display_name() << "\n";
    return 0;
  }
  if (cmd == "me") {
    v1::GetMeResponse r;
    s = c.mm()->GetMe(c.Ctx().get(), v1::GetMeRequest(), &r);
    if (!s.ok()) return Fail(s);
    std::cout << "You are " << r.player().display_name() << " (player " << r.player().player_id()
              << ")\n";
    for (const auto& id : r.room_ids()) {
      v1::Room room;
      if (c.FindRoom(id, &room).ok())
        std::cout << "room " << room.invite_code() << " (" << KindName(room.kind()) << ") " << id
                  << "\n";
    }
    for (const auto& id : r.playing_game_ids()) std::cout << "playing game " << id << "\n";
    return 0;
  }
  if (cmd == "create" ||
      (cmd == "play" && a.pos.size() > 1 && ParseKind(a.pos[1]) != v1::GAME_KIND_UNSPECIFIED)) {
    if (int rc = NeedArgs(a, 2)) return rc;
    v1::CreateRoomRequest q;
    v1::GameKind kind;
    if (!KindArg(a.pos[1], &kind) || !ApplySettings(a, q.mutable_settings())) return 2;
    q.set_kind(kind);
    if (cmd == "play" && q.settings().seat_count() == 0)  // one human and the CPU
      q.mutable_settings()->set_seat_count(q.kind() == v1::GAME_KIND_SHOGI4 ? 4 : 2);
    v1::Room room;
    s = c.mm()->CreateRoom(c.Ctx().get(), q, &room);
    if (!s.ok()) return Fail(s);
    if (cmd == "create") {
      PrintRoom(room);
      std::cout << "Share the code; start with `tablero start " << room.invite_code()
                << "`, play with `tablero play " << room.invite_code() << "`.\n";
      return 0;
    }
    v1::StartGameRequest sq;
    sq.set_room_id(room.id());
    v1::Game g;
    s = c.mm()->StartGame(c.Ctx().get(), sq, &g);
    if (!s.ok()) return Fail(s);
    return RunRoom(c, room.id(), false);
  }

  if (cmd == "quick") {  // quick match: a ranked game with players of similar rating
    if (int rc = NeedArgs(a, 2)) return rc;
    v1::JoinQueueRequest q;
    v1::GameKind kind;
    if (!KindArg(a.pos[1], &kind) || !ApplyOpts(a, q.mutable_options())) return 2;
    q.set_kind(kind);
    if (a.flags.count("players")) q.set_player_count(std::atoi(a.flags["players"].c_str()));
    v1::Ticket t;
    s = c.mm()->JoinQueue(c.Ctx().get(), q, &t);
    if (!s.ok()) return Fail(s);
    std::cout << "Waiting for opponents (rating " << static_cast<int>(t.rating() + 0.5)
              << ")... Ctrl-C to stop waiting\n";
    // The match is pushed on WatchTicket (the stream ends right after MATCHED or
    // CANCELLED); a stream that breaks is opened again.
    while (t.status() == v1::Ticket::STATUS_WAITING) {
      auto ctx = c.Ctx(true, 24 * 3600);
      v1::WatchTicketRequest wq;
      wq.set_ticket_id(t.ticket_id());
      auto reader = c.mm()->WatchTicket(ctx.get(), wq);
      while (reader->Read(&t)) {
      }
      s = reader->Finish();
      if (!s.ok() && s.error_code() != grpc::StatusCode::UNAVAILABLE) return Fail(s);
      if (!s.ok()) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (t.status() != v1::Ticket::STATUS_MATCHED) {
      std::cerr << "the ticket was " << t.cancel_reason() << "\n";
      return 1;
    }
    return RunRoom(c, t.room_id(), false);
  }
  if (cmd == "games") {
    v1::ListPlayerGamesRequest q;
    if (a.flags.count("player")) q.set_player_id(a.flags["player"]);
    v1::ListPlayerGamesResponse r;
    s = c.mm()->ListPlayerGames(c.Ctx().get(), q, &r);
    if (!s.ok()) return Fail(s);
    for (const auto& g : r.games()) {
      std::cout << g.game_id() << "  " << KindName(g.kind()) << "  ply " << g.ply()
                << (g.ranked() ? "  ranked" : "") << "  "
                << (g.result().over() ? g.result().reason() : "running") << "  ";
      for (const auto& st : g.seats()) std::cout << st.display_name() << "; ";
      std::cout << "\n";
    }
    return 0;
  }
  if (cmd == "ratings") {
    v1::GetRatingsRequest q;
    q.set_player_id(a.pos.size() > 1 ? a.pos[1] : me.player_id);
    v1::GetRatingsResponse r;
    s = c.rating()->GetRatings(c.Ctx(false).get(), q, &r);
    if (!s.ok()) return Fail(s);
    for (const auto& p : r.ratings()) {
      std::cout << PoolName(p.pool()) << ": " << static_cast<int>(p.rating() + 0.5)
                << (p.provisional() ? "?" : "") << " (RD " << static_cast<int>(p.rd() + 0.5) << ", "
                << p.games() << " games)\n";
    }
    return 0;
  }
  if (int rc = NeedArgs(a, 2)) return rc;
  if (cmd == "move") {
    if (int rc = NeedArgs(a, 3)) return rc;
    v1::GetGameRequest gq;
    gq.set_game_id(a.pos[1]);
    v1::Game g;
    s = c.mm()->GetGame(c.Ctx(false).get(), gq, &g);
    if (!s.ok()) return Fail(s);
    v1::MakeMoveRequest q;
    q.set_game_id(g.id());
    q.set_expected_ply(a.flags.count("ply") ? std::atoi(a.flags["ply"].c_str()) : g.ply());
    q.set_move_text(a.pos[2]);
    v1::MakeMoveResponse r;
    s = c.mm()->MakeMove(c.Ctx().get(), q, &r);
    if (!s.ok()) return Fail(s);
    std::cout << "played " << r.move().display() << "\n"
              << DrawBoard(g.kind(), r.game().view(), r.move().seat())
              << StatusLine(r.game(), me.player_id) << "\n";
    return 0;
  }

  // Commands on a room.
  v1::Room room;
  s = c.FindRoom(a.pos[1], &room);
  if (!s.ok()) return Fail(s);
  if (cmd == "join" || cmd == "play") {
    v1::JoinRoomRequest q;
    q.set_invite_code(room.invite_code());
    v1::JoinRoomResponse r;
    s = c.mm()->JoinRoom(c.Ctx().get(), q, &r);
    if (!s.ok()) return Fail(s);
    std::cout << "Joined room " << room.invite_code() << " as "
              << (r.role() == v1::Member::ROLE_PLAYER ? "player" : "spectator") << "\n";
    return RunRoom(c, room.id(), r.role() != v1::Member::ROLE_PLAYER);
  }
  if (cmd == "watch") return RunRoom(c, room.id(), true);
  if (cmd == "start") {
    v1::StartGameRequest q;
    q.set_room_id(room.id());
    v1::Game g;
    s = c.mm()->StartGame(c.Ctx().get(), q, &g);
    if (!s.ok()) return Fail(s);
    std::cout << "Game " << g.id() << " started.\n"
              << DrawBoard(g.kind(), g.view(), -1) << StatusLine(g, me.player_id) << "\n";
    return 0;
  }
  if (cmd == "leave") {
    v1::LeaveRoomRequest q;
    q.set_room_id(room.id());
    v1::LeaveRoomResponse r;
    s = c.mm()->LeaveRoom(c.Ctx().get(), q, &r);
    if (!s.ok()) return Fail(s);
    std::cout << "Left room " << room.invite_code() << "\n";
    return 0;
  }
  if (cmd == "settings") {
    v1::UpdateRoomSettingsRequest q;
    q.set_room_id(room.id());
    *q.mutable_settings() = room.settings();
    if (!ApplySettings(a, q.mutable_settings())) return 2;
    q.mutable_expected_settings_version()->set_value(room.settings_version());
    v1::Room r;
    s = c.mm()->UpdateRoomSettings(c.Ctx().get(), q, &r);
    if (!s.ok()) return Fail(s);
    PrintRoom(r);
    return 0;
  }
  std::cerr << "unknown command " << cmd << "\n" << kUsage;
  return 2;
}

}  // namespace
}  // namespace tablero::cli

int main(int argc, char** argv) { return tablero::cli::Main(argc, argv); }
