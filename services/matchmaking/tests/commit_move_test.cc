// The commit_move database function (matchmaking migration 0003) against a real
// PostgreSQL: a move's whole commit in one call, or nothing at all when the room got other
// events first ('seq') or the game moved on ('stale').
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "services/matchmaking/tests/schema_test_base.h"

namespace tablero::matchmaking {
namespace {

class CommitMoveTest : public SchemaTestBase {
 protected:
  CommitMoveTest() : SchemaTestBase("commit_move_test") {}
  void SetUp() override {
    SchemaTestBase::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // A chess game: seat 0 a guest, seat 1 the CPU; ply 4, version 7; the room's seq 10.
    Exec("INSERT INTO players (id, display_name, token_hash) VALUES ('p', 'P', '\\x00')");
    Exec(
        "INSERT INTO rooms (id, kind, invite_code, host_id, settings, seq) "
        "VALUES ('r', 1, 'CODE', 'p', '', 10)");
    Exec(
        "INSERT INTO games (id, room_id, kind, options, seat_count, first_seat, turn_limit, "
        "cpu_level, grace_seconds, ranked, ply, version, to_move, state, view, result, "
        "initial_position) VALUES ('g', 'r', 1, '', 2, 0, 30, 3, 60, false, 4, 7, 0, 's0', "
        "'v0', 'r0', 'start')");
    Exec(
        "INSERT INTO seats (game_id, seat, player_id, display_name, team) VALUES "
        "('g', 0, 'p', 'P', 0), ('g', 1, NULL, 'CPU', 1)");
  }
  // Seat `seat` plays at (ply, version), numbering two events from `seq`; the next seat is
  // `to_move` with the given deadline (NULL for none).
  std::string Call(int ply, int64_t version, int64_t seq, int seat, int to_move,
                   const std::string& deadline) {
    return Text("SELECT commit_move('g', " + std::to_string(ply) + ", " + std::to_string(version) +
                ", 'r', " + std::to_string(seq) + ", " + std::to_string(ply + 1) + ", " +
                std::to_string(to_move) + ", 's1', 'v1', 'r1', " + deadline + ", " +
                std::to_string(seat) +
                ", 'm', 'e', 'pos', false, ARRAY['\\x0a'::bytea, '\\x0b'::bytea])");
  }
  // Everything the function writes, to show that a refused call wrote nothing.
  std::string Snapshot() {
    return Text(
        "SELECT concat_ws('|', (SELECT concat_ws(',', ply, version, to_move, state, "
        "turn_deadline IS NOT NULL, cpu_due IS NOT NULL) FROM games), (SELECT seq FROM rooms), "
        "(SELECT count(*) FROM moves), (SELECT count(*) FROM events))");
  }
};

TEST_F(CommitMoveTest, RefusesAStaleSeqOrVersionAndWritesNothing) {
  const std::string before = Snapshot();
  EXPECT_EQ(Call(4, 7, 9, 0, 1, "NULL"), "seq");     // the room has an event more than we knew
  EXPECT_EQ(Call(4, 6, 10, 0, 1, "NULL"), "stale");  // another move came first
  EXPECT_EQ(Call(3, 7, 10, 0, 1, "NULL"), "stale");
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(CommitMoveTest, CommitsTheMoveItsEventsAndTheRoomSeqTogether) {
  ASSERT_EQ(Call(4, 7, 10, 0, 1, "NULL"), "ok");
  // The CPU seat is next: cpu_due is now, and no turn deadline runs.
  EXPECT_EQ(Text("SELECT concat_ws(',', ply, version, to_move, convert_from(state, 'UTF8'), "
                 "turn_deadline IS NULL, cpu_due <= now()) FROM games"),
            "5,8,1,s1,t,t");
  EXPECT_EQ(Text("SELECT seq FROM rooms"), "12");
  EXPECT_EQ(Text("SELECT string_agg(seq || ':' || encode(body, 'hex'), ' ' ORDER BY seq) "
                 "FROM events WHERE room_id = 'r'"),
            "11:0a 12:0b");
  EXPECT_EQ(Text("SELECT concat_ws(',', ply, seat, position, by_cpu) FROM moves"), "4,0,pos,f");
  // The same call again lost its race: nothing more is written.
  const std::string after = Snapshot();
  EXPECT_EQ(Call(4, 7, 12, 0, 1, "NULL"), "stale");
  EXPECT_EQ(Snapshot(), after);
  // The CPU answers, handing a timed turn to the guest: cpu_due is the deadline.
  ASSERT_EQ(Call(5, 8, 12, 1, 0, "now() + interval '30 seconds'"), "ok");
  EXPECT_EQ(Text("SELECT (cpu_due = turn_deadline AND turn_deadline > now())::text FROM games"),
            "true");
}

}  // namespace
}  // namespace tablero::matchmaking
