// Matchmaking as a real process over gRPC with a real Postgres: guests and tokens, rooms
// and invite codes, settings, the event stream (resume, fan-out across replicas, close).
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <signal.h>

#include "tests/matchmaking_test_util.h"

namespace tablero::testing {
namespace {

class MatchmakingTest : public DatabaseTest {};

TEST_F(MatchmakingTest, GuestsTokensAndNames) {
  Stack stack;
  stack.AddReplica();
  auto* mm = stack.mm();
  Guest a = NewGuest(mm, "  Ana  ");
  EXPECT_EQ(a.name, "Ana");
  EXPECT_GE(a.token.size(), 40u);
  Guest b = NewGuest(mm);
  EXPECT_EQ(b.name.rfind("Guest ", 0), 0u) << b.name;
  EXPECT_NE(a.id, b.id);
  // Only the SHA-256 of the token is stored.
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.players WHERE token_hash = sha256('" + a.token +
                  "'::bytea) AND id = '" + a.id + "'"),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.players WHERE display_name = '" + a.token +
                  "' OR encode(token_hash, 'escape') LIKE '%" + a.token + "%'"),
            0);

  v1::GetMeResponse me;
  ASSERT_TRUE(MM_CALL(mm, GetMe, &a, v1::GetMeRequest(), &me).ok());
  EXPECT_EQ(me.player().player_id(), a.id);
  EXPECT_EQ(me.player().display_name(), "Ana");

  // Missing, malformed and wrong tokens.
  EXPECT_EQ(MM_CALL(mm, GetMe, nullptr, v1::GetMeRequest(), &me).error_code(),
            Code::UNAUTHENTICATED);
  Guest wrong{a.id, a.token + "x", ""};
  EXPECT_EQ(MM_CALL(mm, GetMe, &wrong, v1::GetMeRequest(), &me).error_code(),
            Code::UNAUTHENTICATED);
  {
    grpc::ClientContext ctx;
    Deadline(&ctx);
    ctx.AddMetadata("authorization", "Basic " + a.token);
    EXPECT_EQ(mm->GetMe(&ctx, v1::GetMeRequest(), &me).error_code(), Code::UNAUTHENTICATED);
  }
  v1::UpdateGuestRequest up;
  up.set_display_name("Hacker");
  v1::Player p;
  EXPECT_EQ(MM_CALL(mm, UpdateGuest, &wrong, up, &p).error_code(), Code::UNAUTHENTICATED);

  // Names: too long (25 code points), control characters, empty rename. (Invalid UTF-8
  // cannot even be sent in a proto3 string; the server checks it all the same.)
  v1::CreateGuestRequest bad;
  v1::CreateGuestResponse r;
  bad.set_display_name(std::string(25, 'x'));
  EXPECT_EQ(MM_CALL(mm, CreateGuest, nullptr, bad, &r).error_code(), Code::INVALID_ARGUMENT);
  bad.set_display_name(std::string(100000, 'x'));
  EXPECT_EQ(MM_CALL(mm, CreateGuest, nullptr, bad, &r).error_code(), Code::INVALID_ARGUMENT);
  bad.set_display_name("a\nb");
  EXPECT_EQ(MM_CALL(mm, CreateGuest, nullptr, bad, &r).error_code(), Code::INVALID_ARGUMENT);
  bad.set_display_name(
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
  EXPECT_TRUE(MM_CALL(mm, CreateGuest, nullptr, bad, &r).ok());  // 24 code points, 48 bytes
  // A right-to-left override would reorder the text around the name in any list.
  bad.set_display_name(
      "\xe2\x80\xae"
      "ecilA");  // U+202E
  grpc::Status refused = MM_CALL(mm, CreateGuest, nullptr, bad, &r);
  EXPECT_EQ(refused.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(refused.error_message(),
            "display_name: text-direction controls (U+202A-U+202E, U+2066-U+2069) are not "
            "allowed");
  bad.set_display_name("Bob\xe2\x81\xa6");  // U+2066, an isolate
  EXPECT_EQ(MM_CALL(mm, CreateGuest, nullptr, bad, &r).error_code(), Code::INVALID_ARGUMENT);
  // Names that show as nothing: zero-width spaces, a Hangul filler, ideographic spaces.
  for (const char* blank :
       {"\xe2\x80\x8b\xe2\x80\x8b", "\xe3\x85\xa4", "\xe3\x80\x80 \xe3\x80\x80"}) {
    bad.set_display_name(blank);
    refused = MM_CALL(mm, CreateGuest, nullptr, bad, &r);
    EXPECT_EQ(refused.error_code(), Code::INVALID_ARGUMENT) << blank;
    EXPECT_EQ(refused.error_message(), "display_name: needs at least one visible character");
  }
  // Joiners inside a name that shows are fine (an emoji sequence: woman, ZWJ, girl).
  bad.set_display_name("Ana \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7");
  ASSERT_TRUE(MM_CALL(mm, CreateGuest, nullptr, bad, &r).ok());
  EXPECT_EQ(r.display_name(), bad.display_name());
  up.set_display_name("");
  EXPECT_EQ(MM_CALL(mm, UpdateGuest, &a, up, &p).error_code(), Code::INVALID_ARGUMENT);
  up.set_display_name("Ana Maria");
  ASSERT_TRUE(MM_CALL(mm, UpdateGuest, &a, up, &p).ok());
  EXPECT_EQ(p.display_name(), "Ana Maria");

  v1::GetPlayersRequest gp;
  gp.add_player_ids(b.id);
  gp.add_player_ids("nobody");
  gp.add_player_ids(a.id);
  v1::GetPlayersResponse players;
  ASSERT_TRUE(MM_CALL(mm, GetPlayers, nullptr, gp, &players).ok());
  ASSERT_EQ(players.players_size(), 2);
  EXPECT_EQ(players.players(0).player_id(), b.id);
  EXPECT_EQ(players.players(1).display_name(), "Ana Maria");
  v1::GetPlayersRequest blank = gp;
  blank.add_player_ids("");
  grpc::Status s = MM_CALL(mm, GetPlayers, nullptr, blank, &players);
  EXPECT_EQ(s.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "player_ids[3]: empty");
  for (int i = 0; i < 100; ++i) gp.add_player_ids("x");
  EXPECT_EQ(MM_CALL(mm, GetPlayers, nullptr, gp, &players).error_code(), Code::INVALID_ARGUMENT);
}

TEST_F(MatchmakingTest, RoomsInviteCodesMembersAndSettings) {
  Stack stack;
  stack.AddReplica({"--member_limit=4"});
  auto* mm = stack.mm();
  Guest host = NewGuest(mm, "Host"), b = NewGuest(mm, "B"), c = NewGuest(mm, "C"),
        d = NewGuest(mm, "D"), e = NewGuest(mm, "E");
  v1::Room room = NewRoom(mm, host, v1::GAME_KIND_CHESS);
  ASSERT_EQ(room.invite_code().size(), 8u);
  for (char ch : room.invite_code()) {
    EXPECT_NE(std::string("ABCDEFGHJKLMNPQRSTUVWXYZ23456789").find(ch), std::string::npos);
  }
  EXPECT_EQ(room.invite_url(), "/join/" + room.invite_code());
  EXPECT_EQ(room.state(), v1::Room::STATE_LOBBY);
  EXPECT_EQ(room.host_player_id(), host.id);
  ASSERT_EQ(room.members_size(), 1);
  EXPECT_EQ(room.members(0).role(), v1::Member::ROLE_PLAYER);
  // Every option resolved, room-level ones included; cpu level default 3.
  EXPECT_EQ(room.settings().options().at("draw_mode"), "site");
  EXPECT_EQ(room.settings().options().at("show_legal_moves"), "on");
  EXPECT_EQ(room.settings().cpu_level(), 3);
  EXPECT_EQ(room.settings_version(), 1);

  // Codes are case-insensitive and ignore spaces and dashes.
  std::string messy = room.invite_code();
  for (char& ch : messy) ch = static_cast<char>(tolower(ch));
  messy.insert(4, "- ");
  v1::GetRoomRequest gr;
  gr.set_invite_code(messy);
  v1::Room got;
  ASSERT_TRUE(MM_CALL(mm, GetRoom, nullptr, gr, &got).ok());
  EXPECT_EQ(got.id(), room.id());

  v1::JoinRoomResponse jr;
  ASSERT_TRUE(Join(mm, b, messy, &jr).ok());
  EXPECT_EQ(jr.role(), v1::Member::ROLE_PLAYER);
  ASSERT_TRUE(Join(mm, c, room.invite_code(), &jr).ok());
  EXPECT_EQ(jr.role(), v1::Member::ROLE_SPECTATOR);        // chess has two seats
  ASSERT_TRUE(Join(mm, b, room.invite_code(), &jr).ok());  // idempotent
  EXPECT_EQ(jr.role(), v1::Member::ROLE_PLAYER);
  EXPECT_EQ(jr.room().members_size(), 3);
  ASSERT_TRUE(Join(mm, d, room.invite_code(), &jr).ok());
  EXPECT_EQ(Join(mm, e, room.invite_code(), &jr).error_code(), Code::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Join(mm, e, "ZZZZZZZZ", &jr).error_code(), Code::NOT_FOUND);
  EXPECT_EQ(Join(mm, e, "not a code at all", &jr).error_code(), Code::NOT_FOUND);
  Guest bad{e.id, "nope", ""};
  EXPECT_EQ(Join(mm, bad, room.invite_code(), &jr).error_code(), Code::UNAUTHENTICATED);

  // Settings: host only, validated, versioned.
  v1::UpdateRoomSettingsRequest us;
  us.set_room_id(room.id());
  us.mutable_settings()->set_turn_time_limit_seconds(30);
  (*us.mutable_settings()->mutable_options())["draw_mode"] = "fide";
  v1::Room after;
  EXPECT_EQ(MM_CALL(mm, UpdateRoomSettings, &b, us, &after).error_code(), Code::PERMISSION_DENIED);
  EXPECT_EQ(MM_CALL(mm, UpdateRoomSettings, nullptr, us, &after).error_code(),
            Code::UNAUTHENTICATED);
  us.mutable_expected_settings_version()->set_value(7);
  EXPECT_EQ(MM_CALL(mm, UpdateRoomSettings, &host, us, &after).error_code(), Code::ABORTED);
  us.mutable_expected_settings_version()->set_value(1);
  for (auto mutate : std::vector<std::function<void(v1::RoomSettings*)>>{
           [](v1::RoomSettings* s) { s->set_turn_time_limit_seconds(45); },
           [](v1::RoomSettings* s) { s->set_cpu_level(11); },
           [](v1::RoomSettings* s) { s->set_seat_count(3); },
           [](v1::RoomSettings* s) { s->set_first_seat(2); },
           [](v1::RoomSettings* s) { (*s->mutable_options())["no_such_option"] = "on"; },
           [](v1::RoomSettings* s) { (*s->mutable_options())["draw_mode"] = "sometimes"; }}) {
    v1::UpdateRoomSettingsRequest badreq = us;
    mutate(badreq.mutable_settings());
    EXPECT_EQ(MM_CALL(mm, UpdateRoomSettings, &host, badreq, &after).error_code(),
              Code::INVALID_ARGUMENT);
  }
  ASSERT_TRUE(MM_CALL(
                  mm, GetRoom, nullptr,
                  [&] {
                    v1::GetRoomRequest q;
                    q.set_room_id(room.id());
                    return q;
                  }(),
                  &got)
                  .ok());
  EXPECT_EQ(got.settings_version(), 1);  // nothing stored by the refused calls
  EXPECT_EQ(got.settings().turn_time_limit_seconds(), 0);
  ASSERT_TRUE(MM_CALL(mm, UpdateRoomSettings, &host, us, &after).ok());
  EXPECT_EQ(after.settings_version(), 2);
  EXPECT_EQ(after.settings().options().at("draw_mode"), "fide");
  EXPECT_EQ(after.settings().turn_time_limit_seconds(), 30);

  // Leaving: the host's role passes to the longest-standing member; the last one closes.
  v1::LeaveRoomRequest lr;
  lr.set_room_id(room.id());
  v1::LeaveRoomResponse lresp;
  EXPECT_EQ(MM_CALL(mm, LeaveRoom, &e, lr, &lresp).error_code(), Code::FAILED_PRECONDITION);
  ASSERT_TRUE(MM_CALL(mm, LeaveRoom, &host, lr, &lresp).ok());
  v1::GetRoomRequest byid;
  byid.set_room_id(room.id());
  ASSERT_TRUE(MM_CALL(mm, GetRoom, nullptr, byid, &got).ok());
  EXPECT_EQ(got.host_player_id(), b.id);
  EXPECT_EQ(got.members_size(), 3);
  for (const Guest* g : {&b, &c, &d}) ASSERT_TRUE(MM_CALL(mm, LeaveRoom, g, lr, &lresp).ok());
  EXPECT_EQ(MM_CALL(mm, GetRoom, nullptr, byid, &got).error_code(), Code::NOT_FOUND);
  EXPECT_EQ(Join(mm, e, room.invite_code(), &jr).error_code(), Code::NOT_FOUND);

  v1::CreateRoomRequest cr;
  v1::Room r2;
  EXPECT_EQ(MM_CALL(mm, CreateRoom, &host, cr, &r2).error_code(), Code::INVALID_ARGUMENT);
  cr.set_kind(v1::GAME_KIND_CHECKERS);
  cr.mutable_settings()->set_seat_count(7);
  EXPECT_EQ(MM_CALL(mm, CreateRoom, &host, cr, &r2).error_code(), Code::INVALID_ARGUMENT);
  cr.mutable_settings()->set_seat_count(6);
  EXPECT_EQ(MM_CALL(mm, CreateRoom, nullptr, cr, &r2).error_code(), Code::UNAUTHENTICATED);
  ASSERT_TRUE(MM_CALL(mm, CreateRoom, &host, cr, &r2).ok());
  EXPECT_EQ(r2.settings().seat_count(), 6);
  // Oversized ids are refused as malformed; unknown ones are not found.
  v1::GetRoomRequest big;
  big.set_room_id(std::string(65, 'a'));
  EXPECT_EQ(MM_CALL(mm, GetRoom, nullptr, big, &got).error_code(), Code::INVALID_ARGUMENT);
  big.set_room_id("");
  EXPECT_EQ(MM_CALL(mm, GetRoom, nullptr, big, &got).error_code(), Code::INVALID_ARGUMENT);
  big.set_room_id(std::string(64, 'a'));
  EXPECT_EQ(MM_CALL(mm, GetRoom, nullptr, big, &got).error_code(), Code::NOT_FOUND);
  v1::GetGameRequest gg;
  gg.set_game_id(std::string(1000, 'g'));
  v1::Game game;
  EXPECT_EQ(MM_CALL(mm, GetGame, nullptr, gg, &game).error_code(), Code::INVALID_ARGUMENT);

  // Options that do not allow the seat count: Japanese Chinese Checkers is for 2-3.
  v1::CreateRoomRequest jp;
  jp.set_kind(v1::GAME_KIND_CHECKERS);
  jp.mutable_settings()->set_seat_count(4);
  (*jp.mutable_settings()->mutable_options())["rules"] = "japanese";
  v1::Room r3;
  ASSERT_TRUE(MM_CALL(mm, CreateRoom, &d, jp, &r3).ok());
  v1::StartGameRequest sg;
  sg.set_room_id(r3.id());
  EXPECT_EQ(MM_CALL(mm, StartGame, &e, sg, &game).error_code(), Code::PERMISSION_DENIED);
  grpc::Status st = MM_CALL(mm, StartGame, &d, sg, &game);
  EXPECT_EQ(st.error_code(), Code::FAILED_PRECONDITION) << st.error_message();
  ASSERT_TRUE(MM_CALL(
                  mm, GetRoom, nullptr,
                  [&] {
                    v1::GetRoomRequest q;
                    q.set_room_id(r3.id());
                    return q;
                  }(),
                  &got)
                  .ok());
  EXPECT_EQ(got.state(), v1::Room::STATE_LOBBY);
  EXPECT_EQ(got.games_played(), 0);

  v1::GetMeResponse me;
  ASSERT_TRUE(MM_CALL(mm, GetMe, &host, v1::GetMeRequest(), &me).ok());
  ASSERT_EQ(me.room_ids_size(), 1);  // the closed room is gone from the list
  EXPECT_EQ(me.room_ids(0), r2.id());
}

TEST_F(MatchmakingTest, InviteCodeGuessingIsRateLimited) {
  Stack stack;
  stack.AddReplica({"--code_failures_per_minute=5"});
  auto* mm = stack.mm();
  Guest host = NewGuest(mm), g = NewGuest(mm);
  v1::Room room = NewRoom(mm, host, v1::GAME_KIND_SHOGI4);
  v1::JoinRoomResponse jr;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(Join(mm, g, "ABCDEFG" + std::string(1, "23456"[i]), &jr).error_code(),
              Code::NOT_FOUND);
  }
  EXPECT_EQ(Join(mm, g, room.invite_code(), &jr).error_code(), Code::RESOURCE_EXHAUSTED);
  v1::GetRoomRequest gr;
  gr.set_invite_code(room.invite_code());
  v1::Room got;
  // The guesser is refused by GetRoom too; someone else (here without a token, from the
  // same address) is not: the limit is the guesser's own (audit_test has more).
  EXPECT_EQ(MM_CALL(mm, GetRoom, &g, gr, &got).error_code(), Code::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(MM_CALL(mm, GetRoom, nullptr, gr, &got).ok());
  EXPECT_EQ(Count("SELECT count(*) FROM matchmaking.members WHERE room_id = '" + room.id() + "'"),
            1);
}

TEST_F(MatchmakingTest, WatchFansOutAcrossReplicasAndResumes) {
  Stack stack;
  stack.AddReplica();
  stack.AddReplica();
  Guest host = NewGuest(stack.mm(0), "Host");
  v1::Room room = NewRoom(stack.mm(0), host, v1::GAME_KIND_CHECKERS);
  EXPECT_EQ(room.seq(), 1);  // the host's member_joined

  Watcher w0(stack.mm(0), room.id(), 0, nullptr);
  Watcher w1(stack.mm(1), room.id(), 0, nullptr);
  std::vector<Guest> guests;
  for (int i = 0; i < 4; ++i) {
    guests.push_back(NewGuest(stack.mm(i % 2), "P" + std::to_string(i)));
    v1::JoinRoomResponse jr;
    ASSERT_TRUE(Join(stack.mm(i % 2), guests.back(), room.invite_code(), &jr).ok());
  }
  auto five = [](const std::vector<v1::RoomEvent>& ev) { return ev.size() >= 5; };
  ASSERT_TRUE(w0.WaitFor(five));
  ASSERT_TRUE(w1.WaitFor(five));
  auto e0 = w0.events(), e1 = w1.events();
  ASSERT_EQ(e0.size(), 5u);
  EXPECT_TRUE(Contiguous(e0));
  for (size_t i = 0; i < e0.size(); ++i) {
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(e0[i], e1[i])) << i;
    ASSERT_TRUE(e0[i].has_member_joined());
  }
  EXPECT_EQ(e0[0].member_joined().member().player_id(), host.id);
  EXPECT_EQ(e0[4].member_joined().member().player_id(), guests[3].id);

  // A dropped stream resumes exactly after the last seq it saw.
  Watcher partial(stack.mm(1), room.id(), 2, nullptr);
  ASSERT_TRUE(partial.WaitFor([](const auto& ev) { return ev.size() >= 3; }));
  partial.Cancel();
  auto seen = partial.events();
  EXPECT_TRUE(Contiguous(seen, 2));
  v1::UpdateRoomSettingsRequest us;
  us.set_room_id(room.id());
  us.mutable_settings()->set_cpu_level(7);
  v1::Room after;
  ASSERT_TRUE(MM_CALL(stack.mm(0), UpdateRoomSettings, &host, us, &after).ok());
  EXPECT_EQ(after.seq(), 6);
  Watcher resumed(stack.mm(1), room.id(), seen.back().seq(), nullptr);
  ASSERT_TRUE(resumed.WaitFor([](const auto& ev) { return !ev.empty() && ev.back().seq() == 6; }));
  auto rest = resumed.events();
  EXPECT_TRUE(Contiguous(rest, seen.back().seq()));
  EXPECT_TRUE(rest.back().has_settings_changed());
  EXPECT_EQ(rest.back().settings_changed().settings().cpu_level(), 7);

  // Beyond the latest seq: OUT_OF_RANGE; unknown room: NOT_FOUND.
  Watcher ahead(stack.mm(0), room.id(), 99, nullptr);
  ASSERT_TRUE(ahead.WaitDone());
  EXPECT_EQ(ahead.status().error_code(), Code::OUT_OF_RANGE);
  Watcher nowhere(stack.mm(0), "no-such-room", 0, nullptr);
  ASSERT_TRUE(nowhere.WaitDone());
  EXPECT_EQ(nowhere.status().error_code(), Code::NOT_FOUND);
  Guest wrong{host.id, "bad", ""};
  Watcher badtoken(stack.mm(0), room.id(), 0, &wrong);
  ASSERT_TRUE(badtoken.WaitDone());
  EXPECT_EQ(badtoken.status().error_code(), Code::UNAUTHENTICATED);

  // A member's stream with a token makes them connected (a presence event, and the
  // snapshot says so); closing it says they left.
  {
    Watcher mine(stack.mm(1), room.id(), 6, &guests[0]);
    ASSERT_TRUE(mine.WaitFor([](const auto& ev) { return !ev.empty(); }));
    auto ev = mine.events();
    ASSERT_TRUE(ev[0].has_presence_changed());
    EXPECT_EQ(ev[0].presence_changed().player_id(), guests[0].id);
    EXPECT_TRUE(ev[0].presence_changed().connected());
    EXPECT_EQ(ev[0].presence_changed().seat(), -1);
    v1::GetRoomRequest gr;
    gr.set_room_id(room.id());
    v1::Room snap;
    ASSERT_TRUE(MM_CALL(stack.mm(0), GetRoom, nullptr, gr, &snap).ok());
    EXPECT_TRUE(snap.members(1).connected());
    EXPECT_FALSE(snap.members(2).connected());
  }
  ASSERT_TRUE(w0.WaitFor([](const auto& ev) {
    return !ev.empty() && ev.back().has_presence_changed() &&
           !ev.back().presence_changed().connected();
  }));

  // Everyone leaves: the room closes and open streams end with OK.
  v1::LeaveRoomRequest lr;
  lr.set_room_id(room.id());
  v1::LeaveRoomResponse lresp;
  ASSERT_TRUE(MM_CALL(stack.mm(0), LeaveRoom, &host, lr, &lresp).ok());
  for (const Guest& g : guests) ASSERT_TRUE(MM_CALL(stack.mm(1), LeaveRoom, &g, lr, &lresp).ok());
  ASSERT_TRUE(w0.WaitDone());
  ASSERT_TRUE(w1.WaitDone());
  EXPECT_TRUE(w0.status().ok()) << w0.status().error_message();
  EXPECT_TRUE(w1.status().ok());
  EXPECT_EQ(w0.events().size(), w1.events().size());
  EXPECT_TRUE(Contiguous(w1.events()));
  EXPECT_TRUE(w1.events().back().has_member_left());
}

TEST_F(MatchmakingTest, WatchSendsHeartbeatsAndEndsUnavailableOnShutdown) {
  Stack stack;
  stack.AddReplica({"--heartbeat_seconds=0.3", "--drain_seconds=5"});
  Guest host = NewGuest(stack.mm(), "Host");
  v1::Room room = NewRoom(stack.mm(), host, v1::GAME_KIND_CHESS);
  Watcher w(stack.mm(), room.id(), 0, &host);
  ASSERT_TRUE(w.WaitFor([](const auto& ev) { return ev.size() >= 2; }));  // joined, presence
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_GE(w.heartbeats(), 2);
  EXPECT_EQ(w.events().size(), 2u);  // heartbeats carry no seq and are not events
  stack.replica().proc->Signal(SIGTERM);
  ASSERT_TRUE(w.WaitDone(10));
  EXPECT_EQ(w.status().error_code(), Code::UNAVAILABLE) << w.status().error_message();
  // The client is told why: not the database (the generic UNAVAILABLE text).
  EXPECT_NE(w.status().error_message().find("server shutting down"), std::string::npos)
      << w.status().error_message();
  EXPECT_EQ(stack.replica().proc->Wait(10), std::optional<int>(0)) << stack.replica().proc->log();
}

}  // namespace
}  // namespace tablero::testing
