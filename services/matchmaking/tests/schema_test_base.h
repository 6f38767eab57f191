// A matchmaking schema of a test's own, migrated in the test database, for tests that
// call the SQL (and the C++ over it) directly: created before each test, dropped after.
#ifndef TABLERO_SERVICES_MATCHMAKING_TESTS_SCHEMA_TEST_BASE_H_
#define TABLERO_SERVICES_MATCHMAKING_TESTS_SCHEMA_TEST_BASE_H_

#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "libs/pg/migrate.h"
#include "libs/pg/pool.h"
#include "tests/support/process.h"

namespace tablero::pg {
const std::vector<Migration>& MatchmakingMigrations();
}

namespace tablero::matchmaking {

class SchemaTestBase : public ::testing::Test {
 protected:
  explicit SchemaTestBase(std::string schema) : schema_(std::move(schema)) {}
  void SetUp() override {
    url_ = tablero::testing::TestDatabaseUrl();
    ASSERT_FALSE(url_.empty())
        << "TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh";
    auto c = pg::Connect(url_);
    ASSERT_TRUE(c.ok()) << c.status();
    conn_ = std::move(*c);
    Exec("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    auto m = pg::Migrate(*conn_, schema_, pg::MatchmakingMigrations());
    ASSERT_TRUE(m.ok()) << m.status();
    Exec("SET search_path = " + schema_);
  }
  void TearDown() override {
    if (conn_ != nullptr) Exec("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
  }
  pqxx::result Exec(const std::string& sql) { return pqxx::nontransaction(*conn_).exec(sql); }
  std::string Text(const std::string& sql) { return Exec(sql)[0][0].as<std::string>(); }

  const std::string schema_;
  std::string url_;
  std::unique_ptr<pqxx::connection> conn_;
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_TESTS_SCHEMA_TEST_BASE_H_
