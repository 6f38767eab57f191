// The "CPU moves next" rule (games.cpu_due, the SQL function cpu_due_at of migration 0005)
// at every site that writes it, against a real PostgreSQL: a move committed in one call
// (commit_move) or in a transaction (Commit), a seat taken over by the CPU, a seat handed
// back to its returning player. Each site must give the same answer: now when the seat to
// move is played by the CPU, else the turn's deadline, NULL once the game is over.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "services/matchmaking/play.h"
#include "services/matchmaking/seating.h"
#include "services/matchmaking/sql_values.h"
#include "services/matchmaking/tests/schema_test_base.h"

namespace tablero::matchmaking {
namespace {

constexpr char kSchema[] = "cpu_due_test";

class CpuDueTest : public SchemaTestBase {
 protected:
  CpuDueTest() : SchemaTestBase(kSchema) {}
  void SetUp() override {
    SchemaTestBase::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    pool_ = std::make_unique<pg::Pool>(WithSearchPath(url_, kSchema), 2);
    Exec(
        "INSERT INTO players (id, display_name, token_hash) VALUES ('p', 'P', '\\x00'), "
        "('q', 'Q', '\\x01')");
    Exec("INSERT INTO replicas (id, expires_at) VALUES ('r', now() + interval '1 minute')");
  }
  void TearDown() override {
    pool_.reset();
    SchemaTestBase::TearDown();
  }

  // A playing room `id` with chess game `id` at ply 0, seat 0 ('p') to move, a 30 s turn
  // limit; seat 1 is 'q' (human) or the CPU. Both players are connected (not away).
  void NewGame(const std::string& id, bool cpu_second) {
    Exec(absl::StrCat(
        "INSERT INTO rooms (id, kind, invite_code, host_id, settings, state, current_game_id) "
        "VALUES ('",
        id, "', 1, '", id, "', 'p', '', ", static_cast<int>(v1::Room::STATE_PLAYING), ", '", id,
        "')"));
    Exec(absl::StrCat(
        "INSERT INTO games (id, room_id, kind, options, seat_count, first_seat, turn_limit, "
        "cpu_level, grace_seconds, ranked, ply, to_move, state, view, result, initial_position, "
        "turn_deadline) VALUES ('",
        id, "', '", id,
        "', 1, '', 2, 0, 30, 3, 60, false, 0, 0, 's0', '', '', 'start', "
        "now() + interval '30 seconds')"));
    Exec(absl::StrCat("INSERT INTO seats (game_id, seat, player_id, display_name, team) VALUES ('",
                      id, "', 0, 'p', 'P', 0), ('", id, "', 1, ",
                      cpu_second ? "NULL, 'CPU'" : "'q', 'Q'", ", 1)"));
    Exec(absl::StrCat("INSERT INTO members (room_id, player_id, role) VALUES ('", id,
                      "', 'p', 1), ('", id, "', 'q', 1)"));
    for (const char* player : {"p", "q"}) {
      Exec(absl::StrCat("INSERT INTO connections (id, room_id, player_id, replica) VALUES ('", id,
                        player, "', '", id, "', '", player, "', 'r')"));
    }
  }

  // Seat 0's first move, handing the turn to seat 1 (`over`: the move ends the game),
  // committed by `path`.
  void MoveOfSeat0(const std::string& id, CommitPath path, bool over = false) {
    auto g = ReadGame(*pool_, id);
    ASSERT_TRUE(g.ok()) << g.status();
    Applied a;
    a.state = "s1";
    a.view.set_ply(1);
    a.view.set_to_move(over ? -1 : 1);
    a.result.set_over(over);
    a.moved = true;
    a.move.set_notation("e2e4");
    v1::Game out;
    if (path == CommitPath::kOneCall) {
      std::vector<v1::RoomEvent> appended;
      auto took = CommitPlay(*pool_, PlayConfig{}, *g, 0, a, false, &out, &appended);
      ASSERT_TRUE(took.ok()) << took.status();
      ASSERT_EQ(*took, over ? CommitPath::kTransaction : CommitPath::kOneCall);
    } else {
      absl::Status s = pool_->Tx(
          [&](pqxx::work& w) { return Commit(w, PlayConfig{}, *g, 0, a, false, &out).status(); });
      ASSERT_TRUE(s.ok()) << s;
    }
  }

  // cpu_due as the rule says it should be: "now" (set within this test), "deadline"
  // (equal to the turn's deadline, which runs) or "none".
  std::string Due(const std::string& id) {
    return Text(absl::StrCat(
        "SELECT CASE WHEN cpu_due IS NULL THEN 'none' WHEN turn_deadline IS NOT NULL AND "
        "cpu_due = turn_deadline AND cpu_due > now() + interval '10 seconds' THEN 'deadline' "
        "WHEN cpu_due <= now() AND cpu_due > now() - interval '1 minute' THEN 'now' "
        "ELSE 'other ' || cpu_due::text END FROM games WHERE id = '",
        id, "'"));
  }

  void InTx(const std::function<void(pqxx::work&)>& fn) {
    ASSERT_TRUE(pool_
                    ->Tx([&](pqxx::work& w) {
                      fn(w);
                      return absl::OkStatus();
                    })
                    .ok());
  }

  std::unique_ptr<pg::Pool> pool_;
};

TEST_F(CpuDueTest, AfterAHumanMoveTheCpuSeatIsDueNowOnBothCommitPaths) {
  NewGame("one", true);
  NewGame("tx", true);
  MoveOfSeat0("one", CommitPath::kOneCall);
  MoveOfSeat0("tx", CommitPath::kTransaction);
  EXPECT_EQ(Due("one"), "now");
  EXPECT_EQ(Due("tx"), "now");
  // No turn clock runs for the CPU's turn.
  EXPECT_EQ(Text("SELECT count(*) FROM games WHERE turn_deadline IS NULL"), "2");
}

TEST_F(CpuDueTest, AfterAHumanMoveAHumanSeatIsDueAtItsDeadlineOnBothCommitPaths) {
  NewGame("one", false);
  NewGame("tx", false);
  MoveOfSeat0("one", CommitPath::kOneCall);
  MoveOfSeat0("tx", CommitPath::kTransaction);
  EXPECT_EQ(Due("one"), "deadline");
  EXPECT_EQ(Due("tx"), "deadline");
}

TEST_F(CpuDueTest, AGameOverIsNeverDue) {
  NewGame("end", true);
  MoveOfSeat0("end", CommitPath::kOneCall, /*over=*/true);  // the end takes the transaction
  EXPECT_EQ(Due("end"), "none");
}

TEST_F(CpuDueTest, TakeOverMakesTheSeatDueNowAndTheReturnGivesBackItsDeadline) {
  NewGame("away", false);
  MoveOfSeat0("away", CommitPath::kTransaction);
  ASSERT_EQ(Due("away"), "deadline");
  // The grace period ran out for 'q' (as the take-over sweep does it).
  InTx([](pqxx::work& w) {
    w.exec("UPDATE seats SET cpu_now = true, cpu_reason = 'absent' WHERE seat = 1");
    RefreshCpuDue(w, "away");
  });
  EXPECT_EQ(Due("away"), "now");
  // 'q' is back: the seat is theirs again, and its turn's deadline counts.
  InTx([](pqxx::work& w) {
    std::vector<v1::RoomEvent> ev;
    ASSERT_TRUE(Presence(w, "away", "q", true, &ev).ok());
  });
  EXPECT_EQ(Text("SELECT cpu_now::text FROM seats WHERE game_id = 'away' AND seat = 1"), "false");
  EXPECT_EQ(Due("away"), "deadline");
}

TEST_F(CpuDueTest, LeavingTheRoomMakesTheSeatDueNow) {
  NewGame("left", false);
  MoveOfSeat0("left", CommitPath::kOneCall);
  ASSERT_EQ(Due("left"), "deadline");
  InTx([](pqxx::work& w) {
    std::vector<v1::RoomEvent> ev;
    ASSERT_TRUE(LeftSeat(w, "left", "q", &ev, nullptr).ok());
  });
  EXPECT_EQ(Due("left"), "now");
}

}  // namespace
}  // namespace tablero::matchmaking
