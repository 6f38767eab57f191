// Shared by the rating service tests: the service as a real process per test against the
// test run's PostgreSQL (TABLERO_TEST_DATABASE_URL), with client helpers and the values
// the Glicko-2 library computes for comparison.
#ifndef TABLERO_TESTS_RATING_TEST_UTIL_H_
#define TABLERO_TESTS_RATING_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/glicko2/glicko2.h"
#include "libs/pg/pool.h"
#include "tablero/v1/rating.grpc.pb.h"
#include "tests/support/grpc_util.h"
#include "tests/support/process.h"

namespace tablero::testing {

struct S {
  std::string player;
  int place = 1;
  int team = 0;
};

inline bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline bool SameValue(const v1::RatingValue& a, const v1::RatingValue& b) {
  return SameBits(a.rating(), b.rating()) && SameBits(a.rd(), b.rd()) &&
         SameBits(a.volatility(), b.volatility());
}

inline bool SameValue(const v1::RatingValue& a, const glicko2::Player& b) {
  return SameBits(a.rating(), b.rating) && SameBits(a.rd(), b.rd) &&
         SameBits(a.volatility(), b.vol);
}

// The value of one sample line ("name{labels} value") of a /metrics page; -1 if absent.
inline double Metric(const std::string& page, const std::string& sample) {
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(sample + " ", 0) == 0) return std::stod(line.substr(sample.size() + 1));
  }
  return -1;
}

// The test database URL with another database name.
inline std::string WithDatabase(const std::string& url, const std::string& db) {
  size_t q = url.find('?');
  size_t slash = url.rfind('/', q == std::string::npos ? url.size() : q);
  return url.substr(0, slash + 1) + db + (q == std::string::npos ? "" : url.substr(q));
}

class RatingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(TestDatabaseUrl().empty())
        << "TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh";
    // Every test uses its own ids, so tests may share (and re-run against) one database.
    prefix_ = absl::StrCat("t", getpid(), "-",
                           std::chrono::steady_clock::now().time_since_epoch().count(), "-");
  }

  void TearDown() override {
    stub_.reset();
    // SIGKILL (graceful shutdown is service_test's subject): stopping the metrics
    // exposer alone takes seconds.
    procs_.clear();
    if (!own_db_.empty()) {
      auto c = pg::Connect(TestDatabaseUrl());
      if (c.ok()) {
        pqxx::nontransaction n(**c);
        n.exec("DROP DATABASE IF EXISTS " + own_db_ + " WITH (FORCE)");
      }
    }
  }

  // A fresh database of this test's own (for global views such as leaderboards).
  std::string OwnDatabase() {
    own_db_ = absl::StrCat("rating_test_", getpid());
    auto c = pg::Connect(TestDatabaseUrl());
    EXPECT_TRUE(c.ok()) << c.status();
    pqxx::nontransaction n(**c);
    n.exec("DROP DATABASE IF EXISTS " + own_db_ + " WITH (FORCE)");
    n.exec("CREATE DATABASE " + own_db_);
    return WithDatabase(TestDatabaseUrl(), own_db_);
  }

  // Starts a rating service; returns its stub (also kept in stub_ for the first one).
  std::unique_ptr<v1::Rating::Stub> Start(const std::string& db,
                                          std::map<std::string, std::string> env = {}) {
    int port = FreePort();
    metrics_port_ = FreePort();
    std::string addr = absl::StrCat("127.0.0.1:", port);
    env["TABLERO_DATABASE_URL"] = db;
    env["TABLERO_DB_POOL_SIZE"] = "8";
    procs_.push_back(std::make_unique<Process>(
        BinPath("rating"),
        std::vector<std::string>{"--listen=" + addr,
                                 absl::StrCat("--metrics_listen=127.0.0.1:", metrics_port_)},
        env));
    EXPECT_EQ(WaitHealth(addr, "SERVING", 30), "SERVING") << procs_.back()->log();
    return v1::Rating::NewStub(grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  }

  void StartShared() { stub_ = Start(TestDatabaseUrl()); }

  std::string Id(const std::string& s) const { return prefix_ + s; }

  v1::ReportGameRequest Req(const std::string& game, v1::GameKind kind, v1::RatingPool pool,
                            const std::vector<S>& seats, int64_t finished_sec = 0) const {
    v1::ReportGameRequest r;
    r.set_game_id(Id(game));
    r.set_kind(kind);
    r.set_pool(pool);
    r.set_ranked(true);
    for (const S& s : seats) {
      v1::ReportSeat* seat = r.add_seats();
      seat->set_player_id(s.player.empty() ? "" : Id(s.player));
      seat->set_place(s.place);
      seat->set_team(s.team);
    }
    if (finished_sec != 0) r.mutable_finished_time()->set_seconds(finished_sec);
    return r;
  }

  v1::ReportGameRequest Chess(const std::string& game, const std::string& white,
                              const std::string& black, int white_place, int black_place,
                              int64_t finished_sec = 0) const {
    return Req(game, v1::GAME_KIND_CHESS, v1::RATING_POOL_CHESS,
               {{white, white_place}, {black, black_place}}, finished_sec);
  }

  grpc::Status Report(const v1::ReportGameRequest& req, v1::ReportGameResponse* resp,
                      v1::Rating::Stub* stub = nullptr) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    ctx.AddMetadata("x-tablero-service-key", kTestServiceKey);  // an internal method
    return (stub ? stub : stub_.get())->ReportGame(&ctx, req, resp);
  }

  v1::ReportGameResponse MustReport(const v1::ReportGameRequest& req) {
    v1::ReportGameResponse resp;
    grpc::Status s = Report(req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }

  v1::PoolRating Rating(const std::string& player, v1::RatingPool pool) {
    grpc::ClientContext ctx;
    v1::GetRatingsRequest req;
    req.set_player_id(Id(player));
    v1::GetRatingsResponse resp;
    grpc::Status s = stub_->GetRatings(&ctx, req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(resp.ratings_size(), 4);
    for (const auto& r : resp.ratings()) {
      if (r.pool() == pool) return r;
    }
    return {};
  }

  grpc::Status History(const std::string& player, v1::RatingPool pool, int page_size,
                       const std::string& token, v1::GetHistoryResponse* resp) {
    grpc::ClientContext ctx;
    v1::GetHistoryRequest req;
    req.set_player_id(Id(player));
    req.set_pool(pool);
    req.set_page_size(page_size);
    req.set_page_token(token);
    return stub_->GetHistory(&ctx, req, resp);
  }

  std::vector<v1::HistoryEntry> AllHistory(const std::string& player, v1::RatingPool pool) {
    std::vector<v1::HistoryEntry> out;
    std::string token;
    do {
      v1::GetHistoryResponse resp;
      grpc::Status s = History(player, pool, 100, token, &resp);
      EXPECT_TRUE(s.ok()) << s.error_message();
      if (!s.ok()) break;
      out.insert(out.end(), resp.entries().begin(), resp.entries().end());
      token = resp.next_page_token();
    } while (!token.empty());
    return out;
  }

  std::string Metrics() { return HttpGet("127.0.0.1", metrics_port_, "/metrics").value_or(""); }

  // What the service should compute, from the library directly.
  static std::vector<glicko2::Player> Expected(const std::vector<glicko2::Seat>& seats) {
    auto r = glicko2::RateGame(seats, glicko2::Config{});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : std::vector<glicko2::Player>{};
  }

  std::string prefix_;
  std::string own_db_;
  int metrics_port_ = 0;
  std::vector<std::unique_ptr<Process>> procs_;
  std::unique_ptr<v1::Rating::Stub> stub_;
};

inline const glicko2::Player kNew{1500, 350, 0.06};

}  // namespace tablero::testing

#endif  // TABLERO_TESTS_RATING_TEST_UTIL_H_
