// The scheduler's probe (Background::ProbeSql) runs on every tick of every replica, so it
// must read indexes, not tables that grow with every game played. Against a real
// PostgreSQL: the plan of the prepared statement (the generic plan, as a replica runs it)
// on a site's tables, and what the probe answers.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "services/matchmaking/background.h"
#include "services/matchmaking/tests/schema_test_base.h"

namespace tablero::matchmaking {
namespace {

constexpr char kSchema[] = "probe_plan_test";

class ProbePlanTest : public SchemaTestBase {
 protected:
  ProbePlanTest() : SchemaTestBase(kSchema) {}
  void SetUp() override {
    SchemaTestBase::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    Exec("INSERT INTO players (id, display_name, token_hash) VALUES ('p', 'P', '\\x00')");
    Exec(
        "INSERT INTO rooms (id, kind, invite_code, host_id, settings) VALUES ('r', 1, 'r', 'p', "
        "'')");
    // Games being played (2,000, each with a turn deadline, so a CPU due time) and a few
    // finished ones, rows of about 1 KB as a game's state and view are. The statistics
    // are those of a while ago, when these due times were still to come, as they always
    // are on a running site: the generic plan then believes most games are due.
    Exec("ALTER TABLE games SET (autovacuum_enabled = false)");
    Exec(
        "INSERT INTO games (id, room_id, kind, options, seat_count, first_seat, turn_limit, "
        "cpu_level, grace_seconds, ranked, ply, to_move, state, view, result, over, "
        "initial_position, turn_deadline, cpu_due) SELECT 'g' || i, 'r', 1, '', 2, 0, 30, 3, 60, "
        "false, 10, 0, convert_to(repeat('s', 500), 'UTF8'), convert_to(repeat('v', 500), "
        "'UTF8'), '', i > 2000, 'start', d, d FROM generate_series(1, 2100) AS i, LATERAL "
        "(SELECT CASE WHEN i <= 2000 THEN now() - interval '10 minutes' + i * interval '10 ms' "
        "END AS d) AS due");
    // Each game's second seat was away then (its player gone, within the grace period).
    Exec("ALTER TABLE seats SET (autovacuum_enabled = false)");
    Exec(
        "INSERT INTO seats (game_id, seat, player_id, display_name, team, away_since) SELECT "
        "'g' || i, s, 'p', 'P', s, CASE WHEN s = 1 THEN now() - interval '10 seconds' END FROM "
        "generate_series(1, 2100) AS i, generate_series(0, 1) AS s");
    Exec("ANALYZE");
    Exec("UPDATE games SET cpu_due = now() + interval '30 seconds' WHERE cpu_due IS NOT NULL");
    Exec("UPDATE seats SET away_since = NULL");
    pqxx::nontransaction(*conn_).exec(
        absl::StrCat("PREPARE probe(int) AS ", Background::ProbeSql()));
    Exec("SET plan_cache_mode = force_generic_plan");
  }

  std::string Plan() {
    std::string plan;
    for (const auto& row : Exec("EXPLAIN EXECUTE probe(2)")) {
      plan += row[0].as<std::string>() + "\n";
    }
    return plan;
  }
};

TEST_F(ProbePlanTest, ReadsTheDueGamesAndAwaySeatsThroughTheirIndexes) {
  const std::string plan = Plan();
  EXPECT_EQ(plan.find("Seq Scan on games"), std::string::npos) << plan;
  EXPECT_NE(plan.find("games_cpu_due"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("Seq Scan on seats"), std::string::npos) << plan;
}

TEST_F(ProbePlanTest, CountsTheDueUnclaimedGamesUpToTheWorkers) {
  EXPECT_EQ(Exec("EXECUTE probe(2)")[0][0].as<int>(), 0);
  Exec("UPDATE games SET cpu_due = now() - interval '1 second' WHERE id IN ('g1', 'g2', 'g3')");
  EXPECT_EQ(Exec("EXECUTE probe(5)")[0][0].as<int>(), 3);
  EXPECT_EQ(Exec("EXECUTE probe(2)")[0][0].as<int>(), 2);
  // A game another replica holds the lease of is not due here.
  Exec("UPDATE games SET cpu_lease_until = now() + interval '10 seconds' WHERE id = 'g1'");
  EXPECT_EQ(Exec("EXECUTE probe(5)")[0][0].as<int>(), 2);
}

TEST_F(ProbePlanTest, SaysWhenASeatIsAwayPastItsGracePeriod) {
  auto takeovers = [&] { return Exec("EXECUTE probe(2)")[0][3].as<bool>(); };
  EXPECT_FALSE(takeovers());
  // Games' grace is 60 s: away for 10 s is not due, away for 2 minutes is.
  Exec("UPDATE seats SET away_since = now() - interval '10 seconds' WHERE game_id = 'g5'");
  EXPECT_FALSE(takeovers());
  Exec("UPDATE seats SET away_since = now() - interval '2 minutes' WHERE game_id = 'g6'");
  EXPECT_TRUE(takeovers());
  // Not for a finished game, nor a seat the CPU already plays.
  Exec("UPDATE games SET over = true WHERE id = 'g6'");
  EXPECT_FALSE(takeovers());
  Exec("UPDATE games SET over = false WHERE id = 'g6'");
  Exec("UPDATE seats SET cpu_now = true WHERE game_id = 'g6'");
  EXPECT_FALSE(takeovers());
}

}  // namespace
}  // namespace tablero::matchmaking
