// Whole games through the matchmaking service, as processes with the rules and bot
// services and a real Postgres: chess to checkmate via an invite code, CPU seats in shogi
// and Chinese Checkers, refusals, racing moves, the CPU taking over an absent player, turn
// timers, a replica killed mid-game, rematch, replay and PGN.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>

#include "tests/matchmaking_test_util.h"

namespace tablero::testing {
namespace {

class MatchmakingGameTest : public DatabaseTest {};

void JoinAs(v1::Matchmaking::Stub* mm, const Guest& g, const std::string& code,
            v1::Member::Role want) {
  v1::JoinRoomResponse resp;
  grpc::Status s = Join(mm, g, code, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), want);
}

bool HasGameOver(const std::vector<v1::RoomEvent>& ev) {
  return !ev.empty() && ev.back().has_game_over();
}

// Plays the human's turns with the first legal move until the game ends.
void PlayUntilOver(v1::Matchmaking::Stub* mm, const std::string& game_id,
                   const std::vector<std::pair<int, Guest>>& humans, double seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    v1::Game g = GetGame(mm, game_id);
    if (g.result().over()) return;
    const Guest* mover = nullptr;
    for (const auto& [seat, guest] : humans) {
      if (seat == g.to_move() && !g.seats(seat).controlled_by_cpu_now()) mover = &guest;
    }
    if (mover == nullptr) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    v1::ListLegalMovesRequest lr;
    lr.set_game_id(game_id);
    v1::ListLegalMovesResponse legal;
    ASSERT_TRUE(MM_CALL(mm, ListLegalMoves, nullptr, lr, &legal).ok());
    if (legal.ply() != g.ply() || legal.moves_size() == 0) continue;
    grpc::Status s = Move(mm, mover, game_id, g.ply(), legal.moves(0).notation());
    ASSERT_TRUE(s.ok() || s.error_code() == Code::ABORTED) << s.error_message();
  }
  FAIL() << "game " << game_id << " did not end in time";
}

TEST_F(MatchmakingGameTest, ChessThroughInviteCodeToCheckmateThenRematch) {
  Stack stack;
  stack.AddReplica();
  auto* mm = stack.mm();
  Guest white = NewGuest(mm, "White"), black = NewGuest(mm, "Black"), fan = NewGuest(mm, "Fan");
  v1::Room room = NewRoom(mm, white, v1::GAME_KIND_CHESS);
  JoinAs(mm, black, room.invite_code(), v1::Member::ROLE_PLAYER);
  JoinAs(mm, fan, room.invite_code(), v1::Member::ROLE_SPECTATOR);
  Watcher ww(mm, room.id(), 0, &white), wb(mm, room.id(), 0, &black), wf(mm, room.id(), 0, &fan);
  Watcher anon(mm, room.id(), 0, nullptr);

  v1::Game game;
  EXPECT_EQ(Start(mm, black, room.id(), &game).error_code(), Code::PERMISSION_DENIED);
  ASSERT_TRUE(Start(mm, white, room.id(), &game).ok());
  EXPECT_EQ(Start(mm, white, room.id(), &game).error_code(), Code::FAILED_PRECONDITION);
  ASSERT_EQ(game.seats_size(), 2);
  EXPECT_EQ(game.seats(0).player_id(), white.id);
  EXPECT_EQ(game.seats(1).player_id(), black.id);
  EXPECT_EQ(game.to_move(), 0);
  EXPECT_EQ(game.ply(), 0);
  const std::string gid = game.id();

  // Refusals, each changing nothing.
  Guest forged{white.id, "forged", ""};
  EXPECT_EQ(Move(mm, &forged, gid, 0, "e2e4").error_code(), Code::UNAUTHENTICATED);
  EXPECT_EQ(Move(mm, nullptr, gid, 0, "e2e4").error_code(), Code::UNAUTHENTICATED);
  EXPECT_EQ(Move(mm, &fan, gid, 0, "e2e4").error_code(), Code::PERMISSION_DENIED);
  EXPECT_EQ(Move(mm, &black, gid, 0, "e7e5").error_code(), Code::FAILED_PRECONDITION);
  EXPECT_EQ(Move(mm, &white, gid, 3, "e2e4").error_code(), Code::ABORTED);
  EXPECT_EQ(Move(mm, &white, gid, 0, "e2e5").error_code(), Code::FAILED_PRECONDITION);
  EXPECT_EQ(Move(mm, &white, gid, 0, "hello").error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(Move(mm, &white, gid, 0, "").error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(Move(mm, &white, gid, 0, std::string(5000, 'e')).error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(Move(mm, &white, "no-such-game", 0, "e2e4").error_code(), Code::NOT_FOUND);
  v1::UpdateRoomSettingsRequest us;
  us.set_room_id(room.id());
  v1::Room r;
  EXPECT_EQ(MM_CALL(mm, UpdateRoomSettings, &white, us, &r).error_code(),
            Code::FAILED_PRECONDITION);
  EXPECT_EQ(GetGame(mm, gid).ply(), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.moves WHERE game_id = '" + gid + "'"), 0);

  // A rename shows in the room; a game's seats keep the names of its start (UpdateGuest).
  v1::UpdateGuestRequest rename;
  rename.set_display_name("Noir");
  v1::Player renamed;
  ASSERT_TRUE(MM_CALL(mm, UpdateGuest, &black, rename, &renamed).ok());
  EXPECT_EQ(GetGame(mm, gid).seats(1).display_name(), "Black");
  v1::GetRoomRequest gr;
  gr.set_room_id(room.id());
  v1::Room named;
  ASSERT_TRUE(MM_CALL(mm, GetRoom, nullptr, gr, &named).ok());
  EXPECT_EQ(named.members(1).display_name(), "Noir");
  rename.set_display_name("Black");
  ASSERT_TRUE(MM_CALL(mm, UpdateGuest, &black, rename, &renamed).ok());

  // Fool's mate, in both notations.
  v1::MakeMoveResponse mr;
  ASSERT_TRUE(Move(mm, &white, gid, 0, "f2f3", &mr).ok());
  EXPECT_EQ(mr.move().display(), "f3");
  EXPECT_EQ(mr.game().ply(), 1);
  EXPECT_EQ(mr.game().to_move(), 1);
  // The answer's snapshot (built from the commit, not read back) is the stored game.
  {
    v1::Game stored = GetGame(mm, gid);
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(mr.game(), stored))
        << mr.game().DebugString() << "\n"
        << stored.DebugString();
  }
  EXPECT_EQ(Move(mm, &black, gid, 0, "e7e5").error_code(), Code::ABORTED);  // stale
  ASSERT_TRUE(Move(mm, &black, gid, 1, "e5").ok());
  ASSERT_TRUE(Move(mm, &white, gid, 2, "g2g4").ok());
  ASSERT_TRUE(Move(mm, &black, gid, 3, "Qh4", &mr).ok());
  EXPECT_EQ(mr.move().display(), "Qh4#");
  EXPECT_TRUE(mr.game().result().over());
  EXPECT_EQ(mr.game().result().reason(), "checkmate");
  EXPECT_EQ(mr.game().result().places(0), 2);
  EXPECT_EQ(mr.game().result().places(1), 1);
  EXPECT_EQ(mr.game().to_move(), -1);
  {
    v1::Game stored = GetGame(mm, gid);
    EXPECT_TRUE(mr.game().has_finished_time());
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(mr.game(), stored))
        << mr.game().DebugString() << "\n"
        << stored.DebugString();
  }
  EXPECT_EQ(Move(mm, &white, gid, 4, "e2e4").error_code(), Code::FAILED_PRECONDITION);
  {
    // Three moves committed in one database call each; the mate (the game's end) in a
    // transaction.
    auto metrics = HttpGet("127.0.0.1", stack.replica().metrics_port, "/metrics");
    ASSERT_TRUE(metrics.has_value());
    EXPECT_EQ(MetricValue(*metrics, "tablero_matchmaking_move_commits_total{path=\"one_call\"}"), 3)
        << *metrics;
    EXPECT_EQ(MetricValue(*metrics, "tablero_matchmaking_move_commits_total{path=\"transaction\"}"),
              1);
  }

  // Everyone, spectators and anonymous watchers included, saw the same events.
  for (Watcher* w : {&ww, &wb, &wf, &anon}) ASSERT_TRUE(w->WaitFor(HasGameOver));
  auto ev = anon.events();
  EXPECT_TRUE(Contiguous(ev));
  for (Watcher* w : {&ww, &wb, &wf}) {
    auto other = w->events();
    // Every stream carries the same log (maps serialize in any order: compare messages).
    ASSERT_EQ(ev.size(), other.size());
    for (size_t i = 0; i < ev.size(); ++i) {
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(ev[i], other[i])) << i;
    }
  }
  std::vector<std::string> kinds;
  for (const auto& e : ev) {
    if (e.game_id() != gid || e.has_presence_changed()) continue;
    kinds.push_back(e.has_game_started()   ? "start"
                    : e.has_turn_changed() ? "turn"
                    : e.has_move_played()  ? "move"
                    : e.has_check()        ? "check"
                    : e.has_game_over()    ? "over"
                                           : "other");
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"start", "turn", "move", "turn", "move", "turn",
                                             "move", "turn", "move", "check", "over"}));
  for (const auto& e : ev) {
    if (e.has_move_played() && e.move_played().ply() == 4) {
      EXPECT_EQ(e.move_played().move().display(), "Qh4#");
      EXPECT_EQ(e.move_played().seat(), 1);
      EXPECT_FALSE(e.move_played().by_cpu());
    }
  }

  // Replay, PGN, history.
  v1::GetGameMovesRequest gm;
  gm.set_game_id(gid);
  v1::GetGameMovesResponse moves;
  ASSERT_TRUE(MM_CALL(mm, GetGameMoves, nullptr, gm, &moves).ok());
  ASSERT_EQ(moves.moves_size(), 4);
  EXPECT_EQ(moves.moves(3).ply(), 3);
  EXPECT_EQ(moves.moves(3).move().notation(), "d8h4");
  EXPECT_EQ(moves.initial_position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_TRUE(moves.result().over());
  v1::ExportPgnRequest pr;
  pr.set_game_id(gid);
  v1::ExportPgnResponse pgn;
  ASSERT_TRUE(MM_CALL(mm, ExportPgn, nullptr, pr, &pgn).ok());
  EXPECT_NE(pgn.pgn().find("[White \"White\"]"), std::string::npos) << pgn.pgn();
  EXPECT_NE(pgn.pgn().find("[Black \"Black\"]"), std::string::npos) << pgn.pgn();
  EXPECT_NE(pgn.pgn().find("Qh4#"), std::string::npos) << pgn.pgn();
  EXPECT_NE(pgn.pgn().find("0-1"), std::string::npos) << pgn.pgn();
  v1::ListPlayerGamesRequest lg;
  v1::ListPlayerGamesResponse list;
  ASSERT_TRUE(MM_CALL(mm, ListPlayerGames, &black, lg, &list).ok());
  ASSERT_EQ(list.games_size(), 1);
  EXPECT_EQ(list.games(0).game_id(), gid);
  EXPECT_EQ(list.games(0).ply(), 4);
  EXPECT_EQ(MM_CALL(mm, ListPlayerGames, nullptr, lg, &list).error_code(), Code::UNAUTHENTICATED);
  // Another player's games, without a token; an unknown player is not an empty list.
  lg.set_player_id(black.id);
  ASSERT_TRUE(MM_CALL(mm, ListPlayerGames, nullptr, lg, &list).ok());
  EXPECT_EQ(list.games_size(), 1);
  lg.set_player_id("no-such-player");
  EXPECT_EQ(MM_CALL(mm, ListPlayerGames, nullptr, lg, &list).error_code(), Code::NOT_FOUND);
  lg.set_kind(v1::GAME_KIND_SHOGI4);  // a known player with no such game: empty
  lg.set_player_id(black.id);
  ASSERT_TRUE(MM_CALL(mm, ListPlayerGames, nullptr, lg, &list).ok());
  EXPECT_EQ(list.games_size(), 0);
  lg.clear_kind();
  lg.clear_player_id();

  // Rematch: colours swap.
  v1::RematchRequest rq;
  rq.set_room_id(room.id());
  v1::Game second;
  EXPECT_EQ(MM_CALL(mm, Rematch, &black, rq, &second).error_code(), Code::PERMISSION_DENIED);
  ASSERT_TRUE(MM_CALL(mm, Rematch, &white, rq, &second).ok());
  EXPECT_NE(second.id(), gid);
  EXPECT_EQ(second.seats(0).player_id(), black.id);
  EXPECT_EQ(second.seats(1).player_id(), white.id);
  EXPECT_EQ(second.ply(), 0);
  EXPECT_EQ(Move(mm, &white, second.id(), 0, "e2e4").error_code(), Code::FAILED_PRECONDITION);
  ASSERT_TRUE(Move(mm, &black, second.id(), 0, "e2e4").ok());
  ASSERT_TRUE(MM_CALL(mm, ListPlayerGames, &white, lg, &list).ok());
  ASSERT_EQ(list.games_size(), 2);
  EXPECT_EQ(list.games(0).game_id(), second.id());  // newest first
  lg.set_page_size(1);
  ASSERT_TRUE(MM_CALL(mm, ListPlayerGames, &white, lg, &list).ok());
  ASSERT_EQ(list.games_size(), 1);
  ASSERT_FALSE(list.next_page_token().empty());
  lg.set_page_token(list.next_page_token());
  ASSERT_TRUE(MM_CALL(mm, ListPlayerGames, &white, lg, &list).ok());
  ASSERT_EQ(list.games_size(), 1);
  EXPECT_EQ(list.games(0).game_id(), gid);
  EXPECT_TRUE(list.next_page_token().empty());
  lg.set_page_token("garbage!");
  EXPECT_EQ(MM_CALL(mm, ListPlayerGames, &white, lg, &list).error_code(), Code::INVALID_ARGUMENT);

  // Draw offer and answer, then resignation.
  ASSERT_TRUE(Move(mm, &white, second.id(), 1, "e7e5").ok());
  v1::OfferDrawRequest od;
  od.set_game_id(second.id());
  v1::GameActionResponse ar;
  EXPECT_EQ(MM_CALL(mm, OfferDraw, &fan, od, &ar).error_code(), Code::PERMISSION_DENIED);
  ASSERT_TRUE(MM_CALL(mm, OfferDraw, &white, od, &ar).ok());
  EXPECT_TRUE(ar.game().view().has_draw_offer_by());
  v1::RespondDrawRequest rd;
  rd.set_game_id(second.id());
  rd.set_accept(false);
  EXPECT_EQ(MM_CALL(mm, RespondDraw, &white, rd, &ar).error_code(), Code::FAILED_PRECONDITION);
  ASSERT_TRUE(MM_CALL(mm, RespondDraw, &black, rd, &ar).ok());
  EXPECT_FALSE(ar.game().view().has_draw_offer_by());
  v1::ClaimDrawRequest cd;
  cd.set_game_id(second.id());
  EXPECT_EQ(MM_CALL(mm, ClaimDraw, &black, cd, &ar).error_code(), Code::FAILED_PRECONDITION);
  v1::ResignRequest rs;
  rs.set_game_id(second.id());
  ASSERT_TRUE(MM_CALL(mm, Resign, &white, rs, &ar).ok());
  EXPECT_TRUE(ar.game().result().over());
  EXPECT_EQ(ar.game().result().reason(), "resignation");
  EXPECT_EQ(ar.game().result().places(0), 1);  // black (seat 0 now) wins
  ASSERT_TRUE(ww.WaitFor([](const auto& e) {
    int overs = 0;
    for (const auto& x : e) overs += x.has_game_over();
    return overs == 2;
  }));
  bool saw_offer = false, saw_decline = false, saw_resign = false;
  for (const auto& e : ww.events()) {
    saw_offer |= e.has_draw_offered();
    saw_decline |= e.has_draw_declined();
    saw_resign |= e.has_resigned() && e.resigned().seat() == 1;
  }
  EXPECT_TRUE(saw_offer && saw_decline && saw_resign);
}

TEST_F(MatchmakingGameTest, ShogiOneHumanThreeCpuPlayedToTheEnd) {
  Stack stack;
  stack.AddReplica();
  auto* mm = stack.mm();
  Guest me = NewGuest(mm, "Solo");
  v1::RoomSettings st;
  (*st.mutable_options())["move_limit"] = "60";
  st.set_cpu_level(1);
  st.set_first_seat(2);
  v1::Room room = NewRoom(mm, me, v1::GAME_KIND_SHOGI4, st);
  Watcher w(mm, room.id(), 0, &me);
  v1::Game game;
  ASSERT_TRUE(Start(mm, me, room.id(), &game).ok());
  ASSERT_EQ(game.seats_size(), 4);
  EXPECT_EQ(game.seats(0).player_id(), me.id);
  for (int i = 1; i < 4; ++i) {
    EXPECT_TRUE(game.seats(i).is_cpu());
    EXPECT_EQ(game.seats(i).display_name(), "CPU (level 1)");
  }
  EXPECT_EQ(game.first_seat(), 2);
  EXPECT_EQ(game.seats(2).team(), 2);
  v1::ResignRequest rs;
  rs.set_game_id(game.id());
  v1::GameActionResponse ar;
  EXPECT_EQ(MM_CALL(mm, Resign, &me, rs, &ar).error_code(), Code::FAILED_PRECONDITION);
  PlayUntilOver(mm, game.id(), {{0, me}}, 120);
  ASSERT_TRUE(w.WaitFor(HasGameOver));
  v1::Game end = GetGame(mm, game.id());
  EXPECT_TRUE(end.result().over());
  ASSERT_EQ(end.result().places_size(), 4);
  for (int p : end.result().places()) EXPECT_GE(p, 1);
  int cpu_moves = 0, my_moves = 0;
  for (const auto& e : w.events()) {
    // A mated seat's Eliminated event carries its final place, even when the game went
    // on after it (when the random play mates anyone).
    if (e.has_elimination()) {
      EXPECT_GE(e.elimination().place(), 1);
      EXPECT_EQ(e.elimination().place(), end.result().places(e.elimination().seat()));
    }
    if (!e.has_move_played()) continue;
    (e.move_played().by_cpu() ? cpu_moves : my_moves)++;
    EXPECT_EQ(e.move_played().by_cpu(), e.move_played().seat() != 0);
  }
  EXPECT_GT(cpu_moves, 0);
  EXPECT_GT(my_moves, 0);
  EXPECT_EQ(cpu_moves + my_moves, end.ply());
  EXPECT_TRUE(Contiguous(w.events()));
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.moves WHERE game_id = '" + game.id() + "'"),
            end.ply());
  v1::ExportPgnRequest pr;
  pr.set_game_id(game.id());
  v1::ExportPgnResponse pgn;
  EXPECT_EQ(MM_CALL(mm, ExportPgn, nullptr, pr, &pgn).error_code(), Code::FAILED_PRECONDITION);
  v1::GetGameMovesRequest gm;
  gm.set_game_id(game.id());
  v1::GetGameMovesResponse moves;
  ASSERT_TRUE(MM_CALL(mm, GetGameMoves, nullptr, gm, &moves).ok());
  EXPECT_EQ(moves.moves_size(), end.ply());
  EXPECT_EQ(moves.first_seat(), 2);
  EXPECT_EQ(moves.options().at("move_limit"), "60");

  // Rematch: same seats, the first turn one seat further on.
  v1::RematchRequest rq;
  rq.set_room_id(room.id());
  v1::Game next;
  ASSERT_TRUE(MM_CALL(mm, Rematch, &me, rq, &next).ok());
  EXPECT_EQ(next.first_seat(), 3);
  EXPECT_EQ(next.seats(0).player_id(), me.id);
  EXPECT_EQ(next.to_move(), 3);
  v1::GetMeResponse mine;
  ASSERT_TRUE(MM_CALL(mm, GetMe, &me, v1::GetMeRequest(), &mine).ok());
  ASSERT_EQ(mine.playing_game_ids_size(), 1);
  EXPECT_EQ(mine.playing_game_ids(0), next.id());
}

TEST_F(MatchmakingGameTest, ChineseCheckersSixSeatsWithCpu) {
  Stack stack;
  stack.AddReplica();
  auto* mm = stack.mm();
  Guest a = NewGuest(mm, "A"), b = NewGuest(mm, "B");
  v1::RoomSettings st;
  st.set_seat_count(6);
  (*st.mutable_options())["move_limit"] = "8";
  (*st.mutable_options())["show_legal_moves"] = "off";
  v1::Room room = NewRoom(mm, a, v1::GAME_KIND_CHECKERS, st);
  JoinAs(mm, b, room.invite_code(), v1::Member::ROLE_PLAYER);
  Watcher w(mm, room.id(), 0, nullptr);
  v1::Game game;
  ASSERT_TRUE(Start(mm, a, room.id(), &game).ok());
  ASSERT_EQ(game.seats_size(), 6);
  EXPECT_EQ(game.seats(1).player_id(), b.id);
  for (int i = 2; i < 6; ++i) EXPECT_TRUE(game.seats(i).is_cpu());
  // show_legal_moves off: listing is refused.
  v1::ListLegalMovesRequest lr;
  lr.set_game_id(game.id());
  v1::ListLegalMovesResponse legal;
  EXPECT_EQ(MM_CALL(mm, ListLegalMoves, nullptr, lr, &legal).error_code(), Code::PERMISSION_DENIED);
  // Seat 1 resigns at once (6 players: they take the last place and the others play on).
  v1::ResignRequest rs;
  rs.set_game_id(game.id());
  v1::GameActionResponse ar;
  ASSERT_TRUE(MM_CALL(mm, Resign, &b, rs, &ar).ok());
  EXPECT_FALSE(ar.game().result().over());
  EXPECT_EQ(ar.game().result().places(1), 6);
  EXPECT_EQ(MM_CALL(mm, Resign, &b, rs, &ar).error_code(), Code::FAILED_PRECONDITION);
  // Seat 0 hands its turns to the CPU by leaving the room: the CPU finishes the game.
  v1::LeaveRoomRequest lv;
  lv.set_room_id(room.id());
  v1::LeaveRoomResponse lresp;
  ASSERT_TRUE(MM_CALL(mm, LeaveRoom, &a, lv, &lresp).ok());
  ASSERT_TRUE(w.WaitFor(HasGameOver, 120));
  v1::Game end = GetGame(mm, game.id());
  EXPECT_TRUE(end.result().over());
  EXPECT_EQ(end.result().places(1), 6);
  bool eliminated = false;
  for (const auto& e : w.events()) {
    if (e.has_elimination()) {
      eliminated = true;
      EXPECT_EQ(e.elimination().seat(), 1);
      EXPECT_EQ(e.elimination().place(), 6);
    }
  }
  EXPECT_TRUE(eliminated);
  EXPECT_TRUE(Contiguous(w.events()));
}

}  // namespace
}  // namespace tablero::testing
