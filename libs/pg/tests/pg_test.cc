// Against the real PostgreSQL started by the test command (TABLERO_TEST_DATABASE_URL).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "libs/pg/migrate.h"
#include "libs/pg/pool.h"

namespace tablero::pg {
const std::vector<Migration>& TestMigrations();
namespace {

std::string Url() {
  const char* url = std::getenv("TABLERO_TEST_DATABASE_URL");
  return url == nullptr ? "" : url;
}

std::string FreshSchema() {
  std::random_device rd;
  return absl::StrCat("mig_test_", rd(), "_", rd() % 100000);
}

class PgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(Url().empty()) << "TABLERO_TEST_DATABASE_URL is not set: run the tests with "
                                   "scripts/test.sh, which starts a throwaway PostgreSQL";
    auto c = Connect(Url());
    ASSERT_TRUE(c.ok()) << c.status();
    conn_ = std::move(*c);
    schema_ = FreshSchema();
  }
  void TearDown() override {
    if (conn_) {
      pqxx::nontransaction n(*conn_);
      n.exec("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    }
  }
  int Count(const std::string& sql) {
    pqxx::nontransaction n(*conn_);
    return n.exec(sql)[0][0].as<int>();
  }
  std::unique_ptr<pqxx::connection> conn_;
  std::string schema_;
};

TEST(MigrationFiles, EmbeddedAndParsed) {
  const auto& ms = TestMigrations();
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms[0].version, 1);
  EXPECT_EQ(ms[0].name, "create_items");
  EXPECT_NE(ms[1].sql.find("ADD COLUMN note"), std::string::npos);
  EXPECT_FALSE(MigrationFromFile("create.sql", "").ok());
  EXPECT_FALSE(MigrationFromFile("0001_x.txt", "").ok());
  EXPECT_FALSE(CheckMigrations({{1, "a", ""}, {1, "b", ""}}).ok());
}

TEST_F(PgTest, AppliesOnceThenNoOp) {
  auto first = Migrate(*conn_, schema_, TestMigrations());
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(*first, 2);
  EXPECT_EQ(*SchemaVersion(*conn_, schema_), 2);
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".items"), 2);
  auto second = Migrate(*conn_, schema_, TestMigrations());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(*second, 0);
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".items"), 2);
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".schema_version"), 2);
}

TEST_F(PgTest, AppliesOnlyWhatIsMissing) {
  std::vector<Migration> only_first = {TestMigrations()[0]};
  ASSERT_EQ(*Migrate(*conn_, schema_, only_first), 1);
  ASSERT_EQ(*Migrate(*conn_, schema_, TestMigrations()), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".items WHERE note = 'second'"), 1);
}

TEST_F(PgTest, ConcurrentRunnersApplyEachMigrationExactlyOnce) {
  constexpr int kRunners = 4;
  std::vector<int> applied(kRunners, -1);
  std::vector<std::thread> threads;
  for (int i = 0; i < kRunners; ++i) {
    threads.emplace_back([&, i] {
      auto c = Connect(Url());
      if (!c.ok()) return;
      auto r = Migrate(**c, schema_, TestMigrations());
      applied[i] = r.ok() ? *r : -100;
    });
  }
  for (auto& t : threads) t.join();
  int total = 0;
  for (int a : applied) {
    EXPECT_GE(a, 0) << "a runner failed";
    total += a;
  }
  EXPECT_EQ(total, 2);
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".items"), 2);
}

TEST_F(PgTest, NewerDatabaseIsRefused) {
  ASSERT_TRUE(Migrate(*conn_, schema_, TestMigrations()).ok());
  {
    pqxx::work w(*conn_);
    w.exec("INSERT INTO " + schema_ + ".schema_version (version, name) VALUES (7, 'future')");
    w.commit();
  }
  auto r = Migrate(*conn_, schema_, TestMigrations());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("version 7"), absl::string_view::npos) << r.status();
  EXPECT_NE(r.status().message().find("newer"), absl::string_view::npos);
}

TEST_F(PgTest, PoolRunsTransactionsAndRollsBack) {
  ASSERT_TRUE(Migrate(*conn_, schema_, TestMigrations()).ok());
  Pool pool(Url(), 2);
  ASSERT_TRUE(pool.Ping().ok());
  absl::Status s = pool.Tx([&](pqxx::work& w) {
    w.exec("INSERT INTO " + schema_ + ".items (name) VALUES ('rolled back')");
    return absl::FailedPreconditionError("no");
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".items WHERE name = 'rolled back'"), 0);
  ASSERT_TRUE(pool.Tx([&](pqxx::work& w) {
                    w.exec("INSERT INTO " + schema_ + ".items (name) VALUES ('kept')");
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".items WHERE name = 'kept'"), 1);
  // SQL errors become statuses, not exceptions.
  absl::Status bad = pool.Tx([&](pqxx::work& w) {
    w.exec("SELECT * FROM no_such_table_here");
    return absl::OkStatus();
  });
  EXPECT_EQ(bad.code(), absl::StatusCode::kInternal);
  EXPECT_NE(bad.message().find("42P01"), absl::string_view::npos) << bad;
}

TEST_F(PgTest, DeadlockIsRetriedByTx) {
  ASSERT_TRUE(Migrate(*conn_, schema_, TestMigrations()).ok());
  // Two transactions lock rows 1 and 2 in opposite orders; Postgres aborts one with a
  // deadlock, which Tx must see as ABORTED and retry, so both end up committed.
  Pool pool(Url(), 4);
  std::atomic<int> attempts{0};
  auto worker = [&](int first, int second) {
    return pool.Tx([&, first, second](pqxx::work& w) {
      ++attempts;
      w.exec("SELECT * FROM " + schema_ + ".items WHERE id = " + std::to_string(first) +
             " FOR UPDATE");
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      w.exec("SELECT * FROM " + schema_ + ".items WHERE id = " + std::to_string(second) +
             " FOR UPDATE");
      w.exec("INSERT INTO " + schema_ + ".items (name) VALUES ('deadlock survivor')");
      return absl::OkStatus();
    });
  };
  absl::Status a, b;
  std::thread t1([&] { a = worker(1, 2); });
  std::thread t2([&] { b = worker(2, 1); });
  t1.join();
  t2.join();
  EXPECT_TRUE(a.ok()) << a;
  EXPECT_TRUE(b.ok()) << b;
  EXPECT_GE(attempts.load(), 3);  // one of them ran twice
  EXPECT_EQ(Count("SELECT count(*) FROM " + schema_ + ".items WHERE name = 'deadlock survivor'"),
            2);
}

TEST_F(PgTest, PoolCountsConnectionsInUseAndWaits) {
  Pool pool(Url(), 1);
  EXPECT_EQ(pool.stats().size, 1);
  EXPECT_EQ(pool.stats().in_use, 0);
  {
    auto held = pool.Acquire();
    ASSERT_TRUE(held.ok()) << held.status();
    EXPECT_EQ(pool.stats().in_use, 1);
    EXPECT_EQ(pool.stats().open, 1);
    auto none = pool.Acquire(absl::Milliseconds(50));
    EXPECT_EQ(none.status().code(), absl::StatusCode::kDeadlineExceeded);
    Pool::Stats s = pool.stats();
    EXPECT_EQ(s.waits, 1);
    EXPECT_EQ(s.timeouts, 1);
    EXPECT_GE(s.wait_seconds, 0.04);
  }
  Pool::Stats s = pool.stats();
  EXPECT_EQ(s.in_use, 0);
  EXPECT_EQ(s.open, 1) << "returned to the pool, still open";
  auto again = pool.Acquire();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(pool.stats().waits, 1) << "a free connection is no wait";
}

TEST(PgPool, UnreachableDatabaseIsUnavailable) {
  Pool pool("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", 1);
  absl::Status s = pool.Ping();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("cannot connect"), absl::string_view::npos) << s;
}

}  // namespace
}  // namespace tablero::pg
