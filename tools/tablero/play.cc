#include "tools/tablero/play.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

#include "tools/tablero/board.h"

namespace tablero::cli {
namespace {

const char* kHelp =
    "commands: <move> (e.g. e2e4, Nf3, 7g7f, P*5e, a hole path e4-f5)  moves [square]  board\n"
    "          start  rematch  resign  draw  accept  decline  leave (give the seat to the CPU)\n"
    "          quit (keep the seat: reopen with `tablero play <code>`)  help\n";

std::string SeatName(const v1::Game& g, int seat) {
  if (seat < 0 || seat >= g.seats_size()) return "?";
  std::string n = g.seats(seat).display_name();
  if (g.kind() == v1::GAME_KIND_CHESS)
    n += seat == 0 ? " (White)" : " (Black)";
  else
    n += " (seat " + std::to_string(seat) + ")";
  return n;
}

bool IsCpuSeat(const v1::Game& g, int seat) {
  return seat >= 0 && seat < g.seats_size() && g.seats(seat).is_cpu();
}

int MySeat(const v1::Game& g, const std::string& me) {
  for (const auto& s : g.seats())
    if (!me.empty() && s.player_id() == me) return s.seat();
  return -1;
}

// Everything the two threads share, behind one mutex.
struct Session {
  std::mutex mu;
  Client* client = nullptr;
  std::string room_id;
  v1::Game game;  // empty id before the first game
  int64_t seq = 0;
  std::atomic<bool> done{false};
  grpc::ClientContext* watch_ctx = nullptr;

  void Out(const std::string& s) { std::cout << s << std::flush; }
  // Caller holds mu.
  void Draw() {
    if (game.id().empty()) {
      Out("No game yet. The host starts it with `start`.\n");
      return;
    }
    int seat = MySeat(game, client->me().player_id);
    std::string s = "\n" + DrawBoard(game.kind(), game.view(), seat);
    s += StatusLine(game, client->me().player_id) + "\n";
    Out(s);
  }
};

std::string ResultText(const v1::Game& g) {
  std::string s = "Game over (" + g.result().reason() + "):";
  for (int i = 0; i < g.result().places_size(); ++i)
    s += " " + SeatName(g, i) + " place " + std::to_string(g.result().places(i)) + ";";
  return s;
}

void OnEvent(Session& ss, const v1::RoomEvent& e) {
  std::lock_guard<std::mutex> lock(ss.mu);
  if (e.seq() == 0) return;  // heartbeat
  ss.seq = e.seq();
  v1::Game& g = ss.game;
  switch (e.event_case()) {
    case v1::RoomEvent::kGameStarted:
      g = e.game_started().game();
      ss.Out("\nGame started.\n");
      ss.Draw();
      break;
    case v1::RoomEvent::kMovePlayed: {
      if (e.game_id() != g.id()) break;
      const auto& mp = e.move_played();
      *g.mutable_view() = mp.view();
      g.set_ply(mp.ply());
      g.set_to_move(mp.to_move());
      ss.Out("\n" + SeatName(g, mp.seat()) +
             (mp.by_cpu() && !IsCpuSeat(g, mp.seat()) ? " [CPU]" : "") + " played " +
             mp.move().display() + "\n");
      ss.Draw();
      break;
    }
    case v1::RoomEvent::kCheck:
      for (int s : e.check().seats()) ss.Out("Check: " + SeatName(g, s) + "\n");
      break;
    case v1::RoomEvent::kElimination:
      ss.Out(SeatName(g, e.elimination().seat()) + " is out (place " +
             std::to_string(e.elimination().place()) + ")\n");
      break;
    case v1::RoomEvent::kGameOver:
      g = e.game_over().game();
      ss.Out("\n" + ResultText(g) + "\n");
      break;
    case v1::RoomEvent::kResigned:
      ss.Out(SeatName(g, e.resigned().seat()) + " resigned\n");
      break;
    case v1::RoomEvent::kDrawOffered:
      ss.Out(SeatName(g, e.draw_offered().seat()) + " offers a draw (accept / decline)\n");
      break;
    case v1::RoomEvent::kDrawDeclined:
      ss.Out(SeatName(g, e.draw_declined().seat()) + " declined the draw\n");
      break;
    case v1::RoomEvent::kMemberJoined:
      ss.Out(e.member_joined().member().display_name() + " joined the room\n");
      break;
    case v1::RoomEvent::kMemberLeft:
      ss.Out("a member left the room\n");
      break;
    case v1::RoomEvent::kSettingsChanged:
      ss.Out("the host changed the settings\n");
      break;
    case v1::RoomEvent::kPresenceChanged: {
      const auto& p = e.presence_changed();
      if (p.seat() >= 0 && p.seat() < g.seats_size()) {
        g.mutable_seats(p.seat())->set_controlled_by_cpu_now(p.cpu_controlled());
        ss.Out(SeatName(g, p.seat()) +
               (p.cpu_controlled() ? ": the CPU plays this seat now\n"
                                   : (p.connected() ? ": connected\n" : ": disconnected\n")));
      }
      break;
    }
    default:
      break;
  }
}

void WatchLoop(Session& ss) {
  while (!ss.done) {
    grpc::ClientContext ctx;
    if (!ss.client->me().token.empty())
      ctx.AddMetadata("authorization", "Bearer " + ss.client->me().token);
    v1::WatchRequest req;
    {
      std::lock_guard<std::mutex> lock(ss.mu);
      req.set_room_id(ss.room_id);
      req.set_after_seq(ss.seq);
      ss.watch_ctx = &ctx;
    }
    if (ss.done) break;
    auto reader = ss.client->mm()->WatchBatches(&ctx, req);
    v1::RoomEventBatch batch;
    while (reader->Read(&batch)) {
      for (const v1::RoomEvent& e : batch.events()) OnEvent(ss, e);
    }
    grpc::Status s = reader->Finish();
    {
      std::lock_guard<std::mutex> lock(ss.mu);
      ss.watch_ctx = nullptr;
    }
    if (ss.done) break;
    if (s.ok() || s.error_code() == grpc::StatusCode::NOT_FOUND) {
      ss.Out("\nThe room is closed.\n");
      break;
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));  // reconnect after last seq
  }
}

}  // namespace

std::string StatusLine(const v1::Game& g, const std::string& me) {
  if (g.result().over()) return ResultText(g);
  int mine = MySeat(g, me);
  std::string s =
      "Move " + std::to_string(g.ply() + 1) + ": " + SeatName(g, g.to_move()) + " to move.";
  if (mine >= 0) {
    s += " You are " + SeatName(g, mine) + ".";
    if (g.to_move() == mine) s += " Your move:";
  }
  return s;
}

int RunRoom(Client& client, const std::string& room_id, bool spectator) {
  Session ss;
  ss.client = &client;
  ss.room_id = room_id;
  v1::Room room;
  v1::GetRoomRequest rq;
  rq.set_room_id(room_id);
  // With our token: the invite code is shown to members only.
  grpc::Status s = client.mm()->GetRoom(client.Ctx(true).get(), rq, &room);
  if (!s.ok()) return Fail(s);
  ss.seq = room.seq();
  if (room.invite_code().empty()) {
    std::cout << "Room " << room.id() << " (" << KindName(room.kind()) << ")\n";
  } else {
    std::cout << "Room " << room.invite_code() << " (" << KindName(room.kind()) << "), invite link "
              << room.invite_url() << "\n";
  }
  if (!room.current_game_id().empty()) {
    v1::GetGameRequest gq;
    gq.set_game_id(room.current_game_id());
    s = client.mm()->GetGame(client.Ctx(false).get(), gq, &ss.game);
    if (!s.ok()) return Fail(s);
    ss.seq = std::max(ss.seq, ss.game.seq());
  }
  {
    std::lock_guard<std::mutex> lock(ss.mu);
    ss.Draw();
    if (!spectator) ss.Out(kHelp);
  }
  std::thread watcher([&] { WatchLoop(ss); });
  std::string line;
  int rc = 0;
  while (!ss.done && std::getline(std::cin, line)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    while (!line.empty() && line.front() == ' ') line.erase(0, 1);
    if (line.empty()) continue;
    std::string game_id;
    int ply;
    {
      std::lock_guard<std::mutex> lock(ss.mu);
      game_id = ss.game.id();
      ply = ss.game.ply();
    }
    std::string cmd = line.substr(0, line.find(' '));
    std::string arg = line.size() > cmd.size() ? line.substr(cmd.size() + 1) : "";
    if (cmd == "quit" || cmd == "exit") break;
    if (cmd == "help") {
      ss.Out(kHelp);
    } else if (cmd == "board") {
      std::lock_guard<std::mutex> lock(ss.mu);
      ss.Draw();
    } else if (cmd == "leave") {
      v1::LeaveRoomRequest q;
      q.set_room_id(room_id);
      v1::LeaveRoomResponse r;
      s = client.mm()->LeaveRoom(client.Ctx().get(), q, &r);
      if (!s.ok()) {
        Fail(s);
        continue;
      }
      ss.Out("You left the room; the CPU plays your seat. Join again with `tablero join " +
             room.invite_code() + "`.\n");
      break;
    } else if (cmd == "start" || cmd == "rematch") {
      v1::Game g;
      if (cmd == "start") {
        v1::StartGameRequest q;
        q.set_room_id(room_id);
        s = client.mm()->StartGame(client.Ctx().get(), q, &g);
      } else {
        v1::RematchRequest q;
        q.set_room_id(room_id);
        s = client.mm()->Rematch(client.Ctx().get(), q, &g);
      }
      if (!s.ok()) Fail(s);
    } else if (game_id.empty()) {
      ss.Out("No game yet.\n");
    } else if (cmd == "moves") {
      v1::ListLegalMovesRequest q;
      q.set_game_id(game_id);
      q.set_from_square(arg);
      v1::ListLegalMovesResponse r;
      s = client.mm()->ListLegalMoves(client.Ctx(false).get(), q, &r);
      if (!s.ok()) {
        Fail(s);
        continue;
      }
      std::string out = "Legal moves (" + std::to_string(r.moves_size()) + "):";
      for (const auto& m : r.moves()) out += " " + m.display();
      ss.Out(out + "\n");
    } else if (cmd == "resign" || cmd == "draw" || cmd == "accept" || cmd == "decline") {
      v1::GameActionResponse r;
      if (cmd == "resign") {
        v1::ResignRequest q;
        q.set_game_id(game_id);
        s = client.mm()->Resign(client.Ctx().get(), q, &r);
      } else if (cmd == "draw") {
        v1::OfferDrawRequest q;
        q.set_game_id(game_id);
        s = client.mm()->OfferDraw(client.Ctx().get(), q, &r);
      } else {
        v1::RespondDrawRequest q;
        q.set_game_id(game_id);
        q.set_accept(cmd == "accept");
        s = client.mm()->RespondDraw(client.Ctx().get(), q, &r);
      }
      if (!s.ok()) Fail(s);
    } else {
      v1::MakeMoveRequest q;
      q.set_game_id(game_id);
      q.set_expected_ply(ply);
      q.set_move_text(line);
      v1::MakeMoveResponse r;
      s = client.mm()->MakeMove(client.Ctx().get(), q, &r);
      if (!s.ok()) Fail(s);
    }
  }
  // A spectator whose input ended (e.g. `tablero watch CODE < /dev/null`) keeps
  // following the room until it closes or the user interrupts.
  if (spectator && std::cin.eof()) watcher.join();
  ss.done = true;
  {
    std::lock_guard<std::mutex> lock(ss.mu);
    if (ss.watch_ctx != nullptr) ss.watch_ctx->TryCancel();
  }
  if (watcher.joinable()) watcher.join();
  return rc;
}

}  // namespace tablero::cli
