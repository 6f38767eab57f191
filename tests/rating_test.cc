// The rating service as a real process over gRPC, against the test run's PostgreSQL
// (TABLERO_TEST_DATABASE_URL): results applied and read back bit for bit, exactly-once
// reports (replays, racing replicas), 100 concurrent overlapping reports, unranked and
// invalid reports, leaderboards, histories and metrics.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "libs/glicko2/glicko2.h"
#include "libs/pg/pool.h"
#include "tablero/v1/rating.grpc.pb.h"
#include "tests/support/grpc_util.h"
#include "tests/support/process.h"

namespace tablero::testing {
namespace {

namespace v1 = tablero::v1;

struct S {
  std::string player;
  int place = 1;
  int team = 0;
};

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool SameValue(const v1::RatingValue& a, const v1::RatingValue& b) {
  return SameBits(a.rating(), b.rating()) && SameBits(a.rd(), b.rd()) &&
         SameBits(a.volatility(), b.volatility());
}

bool SameValue(const v1::RatingValue& a, const glicko2::Player& b) {
  return SameBits(a.rating(), b.rating) && SameBits(a.rd(), b.rd) &&
         SameBits(a.volatility(), b.vol);
}

// The value of one sample line ("name{labels} value") of a /metrics page; -1 if absent.
double Metric(const std::string& page, const std::string& sample) {
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(sample + " ", 0) == 0) return std::stod(line.substr(sample.size() + 1));
  }
  return -1;
}

// The test database URL with another database name.
std::string WithDatabase(const std::string& url, const std::string& db) {
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

const glicko2::Player kNew{1500, 350, 0.06};

TEST_F(RatingTest, RankedChessWinAppliedAndReadBackBitForBit) {
  StartShared();
  v1::ReportGameResponse r1 = MustReport(Chess("g1", "alice", "bob", 1, 2, 1700000000));
  ASSERT_TRUE(r1.applied_now());
  ASSERT_EQ(r1.changes_size(), 2);
  auto want = Expected({{kNew, 1}, {kNew, 2}});
  const v1::RatingChange &a = r1.changes(0), &b = r1.changes(1);
  EXPECT_EQ(a.player_id(), Id("alice"));
  EXPECT_EQ(a.seat(), 0);
  EXPECT_EQ(b.seat(), 1);
  EXPECT_TRUE(SameValue(a.before(), kNew));
  EXPECT_TRUE(SameValue(a.after(), want[0]));
  EXPECT_TRUE(SameValue(b.after(), want[1]));
  EXPECT_GT(a.after().rating(), 1500);
  EXPECT_LT(b.after().rating(), 1500);
  EXPECT_EQ(a.score(), 1.0);
  EXPECT_EQ(b.score(), 0.0);
  EXPECT_TRUE(a.provisional());

  // Read back from the database: the very same doubles.
  v1::PoolRating ra = Rating("alice", v1::RATING_POOL_CHESS);
  EXPECT_TRUE(SameBits(ra.rating(), a.after().rating()));
  EXPECT_TRUE(SameBits(ra.rd(), a.after().rd()));
  EXPECT_TRUE(SameBits(ra.volatility(), a.after().volatility()));
  EXPECT_EQ(ra.games(), 1);
  EXPECT_TRUE(ra.provisional());
  EXPECT_EQ(ra.last_game_time().seconds(), 1700000000);
  v1::PoolRating other = Rating("alice", v1::RATING_POOL_CHECKERS);
  EXPECT_EQ(other.games(), 0);
  EXPECT_EQ(other.rating(), 1500);
  EXPECT_EQ(other.rd(), 350);
  EXPECT_FALSE(other.has_last_game_time());

  // The next game starts from the stored values, bit for bit, and rates as the library.
  v1::ReportGameResponse r2 = MustReport(Chess("g2", "bob", "alice", 1, 2, 1700000100));
  ASSERT_EQ(r2.changes_size(), 2);
  EXPECT_TRUE(SameValue(r2.changes(0).before(), b.after()));
  EXPECT_TRUE(SameValue(r2.changes(1).before(), a.after()));
  glicko2::Player pa{a.after().rating(), a.after().rd(), a.after().volatility()};
  glicko2::Player pb{b.after().rating(), b.after().rd(), b.after().volatility()};
  auto want2 = Expected({{pb, 1}, {pa, 2}});
  EXPECT_TRUE(SameValue(r2.changes(0).after(), want2[0]));
  EXPECT_TRUE(SameValue(r2.changes(1).after(), want2[1]));
  EXPECT_EQ(Rating("bob", v1::RATING_POOL_CHESS).games(), 2);
}

TEST_F(RatingTest, DrawScoresHalfEach) {
  StartShared();
  v1::ReportGameResponse r = MustReport(Chess("d1", "carol", "dave", 1, 1));
  ASSERT_EQ(r.changes_size(), 2);
  for (const auto& c : r.changes()) {
    EXPECT_EQ(c.score(), 0.5);
    EXPECT_DOUBLE_EQ(c.after().rating(), 1500.0);  // equal players, a draw: no gain
    EXPECT_LT(c.after().rd(), 350.0);
  }
  auto want = Expected({{kNew, 1}, {kNew, 1}});
  EXPECT_TRUE(SameValue(r.changes(0).after(), want[0]));
  EXPECT_TRUE(SameValue(r.changes(1).after(), want[1]));
  v1::PoolRating dave = Rating("dave", v1::RATING_POOL_CHESS);
  EXPECT_TRUE(SameBits(dave.rd(), want[1].rd));
  EXPECT_EQ(dave.games(), 1);
}

TEST_F(RatingTest, FourPlayerShogiSinglesAndPairs) {
  StartShared();
  v1::ReportGameResponse s =
      MustReport(Req("s1", v1::GAME_KIND_SHOGI4, v1::RATING_POOL_SHOGI4_SINGLES,
                     {{"p1", 2}, {"p2", 1}, {"p3", 4}, {"p4", 3}}));
  ASSERT_EQ(s.changes_size(), 4);
  const double scores[] = {2, 3, 0, 1};
  auto want = Expected({{kNew, 2}, {kNew, 1}, {kNew, 4}, {kNew, 3}});
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(s.changes(i).score(), scores[i]) << i;
    EXPECT_TRUE(SameValue(s.changes(i).after(), want[i])) << i;
    v1::PoolRating pr = Rating(absl::StrCat("p", i + 1), v1::RATING_POOL_SHOGI4_SINGLES);
    EXPECT_TRUE(SameBits(pr.rating(), want[i].rating)) << i;
    EXPECT_EQ(pr.games(), 1);
    EXPECT_EQ(Rating(absl::StrCat("p", i + 1), v1::RATING_POOL_SHOGI4_PAIRS).games(), 0);
  }
  EXPECT_GT(s.changes(1).after().rating(), s.changes(0).after().rating());
  EXPECT_GT(s.changes(0).after().rating(), s.changes(3).after().rating());
  EXPECT_GT(s.changes(3).after().rating(), s.changes(2).after().rating());

  // Pairs: seats 0 and 2 (team 0) beat seats 1 and 3; partners share the result.
  v1::ReportGameResponse p =
      MustReport(Req("s2", v1::GAME_KIND_SHOGI4, v1::RATING_POOL_SHOGI4_PAIRS,
                     {{"p1", 1, 0}, {"p2", 3, 1}, {"p3", 1, 0}, {"p4", 3, 1}}));
  ASSERT_EQ(p.changes_size(), 4);
  auto wantp = Expected({{kNew, 1, 0}, {kNew, 3, 1}, {kNew, 1, 0}, {kNew, 3, 1}});
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(SameValue(p.changes(i).before(), kNew)) << i;  // the pairs pool is separate
    EXPECT_TRUE(SameValue(p.changes(i).after(), wantp[i])) << i;
    EXPECT_EQ(p.changes(i).score(), i % 2 == 0 ? 2.0 : 0.0) << i;
  }
  EXPECT_TRUE(SameValue(p.changes(0).after(), p.changes(2).after()));
  EXPECT_TRUE(SameValue(p.changes(1).after(), p.changes(3).after()));
  EXPECT_GT(p.changes(0).after().rating(), 1500);
  EXPECT_EQ(Rating("p3", v1::RATING_POOL_SHOGI4_PAIRS).games(), 1);
  EXPECT_TRUE(SameBits(Rating("p4", v1::RATING_POOL_SHOGI4_PAIRS).rating(), wantp[3].rating));
}

TEST_F(RatingTest, SixPlayerChineseCheckersWithSharedPlace) {
  StartShared();
  std::vector<S> seats = {{"c1", 3}, {"c2", 1}, {"c3", 5}, {"c4", 2}, {"c5", 3}, {"c6", 6}};
  v1::ReportGameResponse r =
      MustReport(Req("cc", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS, seats));
  ASSERT_EQ(r.changes_size(), 6);
  std::vector<glicko2::Seat> gs;
  for (const S& s : seats) gs.push_back({kNew, s.place});
  auto want = Expected(gs);
  const double scores[] = {2.5, 5, 1, 4, 2.5, 0};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(r.changes(i).score(), scores[i]) << i;
    EXPECT_TRUE(SameValue(r.changes(i).after(), want[i])) << i;
    v1::PoolRating pr = Rating(seats[i].player, v1::RATING_POOL_CHECKERS);
    EXPECT_TRUE(SameBits(pr.rating(), want[i].rating)) << i;
    EXPECT_TRUE(SameBits(pr.rd(), want[i].rd)) << i;
    EXPECT_EQ(pr.games(), 1);
    auto h = AllHistory(seats[i].player, v1::RATING_POOL_CHECKERS);
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(h[0].place(), seats[i].place);
    EXPECT_EQ(h[0].seats(), 6);
  }
  EXPECT_TRUE(SameValue(r.changes(0).after(), r.changes(4).after()));  // shared 3rd place
  // Damping: winning against five equal players moves the rating like one win.
  auto one = Expected({{kNew, 1}, {kNew, 2}});
  EXPECT_NEAR(r.changes(1).after().rating(), one[0].rating, 1e-6);
}

TEST_F(RatingTest, SameReportTwiceAndFromTwoClientsAppliedOnce) {
  StartShared();
  auto req = Chess("r1", "eve", "frank", 2, 1);
  v1::ReportGameResponse first = MustReport(req);
  ASSERT_TRUE(first.applied_now());
  req.mutable_finished_time()->set_seconds(1);  // the finish time is not part of the content
  v1::ReportGameResponse again = MustReport(req);
  EXPECT_FALSE(again.applied_now());
  ASSERT_EQ(again.changes_size(), 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(again.changes(i).player_id(), first.changes(i).player_id());
    EXPECT_EQ(again.changes(i).seat(), i);
    EXPECT_TRUE(SameValue(again.changes(i).before(), first.changes(i).before()));
    EXPECT_TRUE(SameValue(again.changes(i).after(), first.changes(i).after()));
    EXPECT_EQ(again.changes(i).score(), first.changes(i).score());
    EXPECT_EQ(again.changes(i).provisional(), first.changes(i).provisional());
  }
  EXPECT_EQ(Rating("eve", v1::RATING_POOL_CHESS).games(), 1);
  EXPECT_EQ(AllHistory("frank", v1::RATING_POOL_CHESS).size(), 1u);

  // Two service replicas, a client on each, racing the same reports.
  auto second = Start(TestDatabaseUrl());
  const int kGames = 20;
  std::atomic<int> applied{0}, failed{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < 2; ++c) {
    threads.emplace_back([&, c] {
      v1::Rating::Stub* stub = c == 0 ? stub_.get() : second.get();
      for (int g = 0; g < kGames; ++g) {
        v1::ReportGameResponse resp;
        grpc::Status s = Report(Chess(absl::StrCat("race", g), "gina", "hank", 1, 2), &resp, stub);
        if (!s.ok()) ++failed;
        if (resp.applied_now()) ++applied;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(applied.load(), kGames);
  EXPECT_EQ(Rating("gina", v1::RATING_POOL_CHESS).games(), kGames);
  EXPECT_EQ(AllHistory("hank", v1::RATING_POOL_CHESS).size(), static_cast<size_t>(kGames));
}

TEST_F(RatingTest, HundredConcurrentOverlappingReportsNoDeadlockConsistentTotals) {
  StartShared();
  const int kReports = 100, kPlayers = 8;
  std::mt19937 rng(12345);
  std::vector<v1::ReportGameRequest> reqs;
  std::map<std::string, int> seats_of;  // player -> games expected (checkers pool)
  for (int i = 0; i < kReports; ++i) {
    int n = 2 + static_cast<int>(rng() % 5);  // 2..6 players out of 8
    std::vector<int> ids(kPlayers);
    for (int k = 0; k < kPlayers; ++k) ids[k] = k;
    std::shuffle(ids.begin(), ids.end(), rng);
    std::vector<S> seats;
    for (int k = 0; k < n; ++k) {
      std::string p = absl::StrCat("o", ids[k]);
      seats.push_back({p, 1 + static_cast<int>(rng() % n)});
      ++seats_of[p];
    }
    reqs.push_back(
        Req(absl::StrCat("c", i), v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS, seats));
  }
  std::vector<grpc::Status> status(kReports);
  std::vector<v1::ReportGameResponse> resp(kReports);
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < kReports; ++i) {
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::yield();
      status[i] = Report(reqs[i], &resp[i]);
    });
  }
  go = true;
  for (auto& t : threads) t.join();
  int applied = 0;
  for (int i = 0; i < kReports; ++i) {
    EXPECT_TRUE(status[i].ok()) << i << ": " << status[i].error_message();
    applied += resp[i].applied_now();
  }
  EXPECT_EQ(applied, kReports);

  int total_games = 0, total_seats = 0;
  for (const auto& [player, games] : seats_of) {
    v1::PoolRating pr = Rating(player, v1::RATING_POOL_CHECKERS);
    EXPECT_EQ(pr.games(), games) << player;
    total_games += pr.games();
    total_seats += games;
    // The player's updates form one chain from the initial value to the stored one: every
    // game started from the previous game's result (no lost or doubled update).
    auto h = AllHistory(player, v1::RATING_POOL_CHECKERS);
    ASSERT_EQ(h.size(), static_cast<size_t>(games));
    std::map<std::string, int> befores;
    auto key = [](const v1::RatingValue& v) {
      std::string k(3 * sizeof(double), '\0');
      double d[3] = {v.rating(), v.rd(), v.volatility()};
      std::memcpy(k.data(), d, sizeof d);
      return k;
    };
    for (const auto& e : h) ++befores[key(e.before())];
    for (const auto& [k, count] : befores) EXPECT_EQ(count, 1) << player;
    int ends = 0;
    for (const auto& e : h) {
      if (befores.count(key(e.after())) == 0) {
        ++ends;
        EXPECT_TRUE(SameBits(e.after().rating(), pr.rating())) << player;
      }
    }
    EXPECT_EQ(ends, 1) << player;
    v1::RatingValue initial;
    initial.set_rating(1500);
    initial.set_rd(350);
    initial.set_volatility(0.06);
    EXPECT_EQ(befores.count(key(initial)), 1u) << player;  // the chain starts at the default
  }
  EXPECT_EQ(total_games, total_seats);
  std::string m = Metrics();
  EXPECT_EQ(Metric(m, "tablero_rating_reports_total{result=\"applied\"}"), kReports) << m;
  EXPECT_EQ(Metric(m, "tablero_rating_updates_total{pool=\"checkers\"}"), kReports);
  // Postgres never had to break a deadlock (it would have aborted a transaction with
  // 40P01, counted here); retries of racing first games of new players are by design.
  EXPECT_EQ(Metric(m, "tablero_rating_tx_retries_total{reason=\"deadlock\"}"), 0) << m;
  EXPECT_GE(Metric(m, "tablero_rating_tx_retries_total{reason=\"new_player\"}"), 0) << m;
  EXPECT_EQ(Metric(m, "tablero_rating_reports_total{result=\"error\"}"), 0);
}

TEST_F(RatingTest, UnrankedGamesChangeNothing) {
  StartShared();
  auto req = Chess("u1", "ivan", "judy", 1, 2);
  req.set_ranked(false);
  v1::ReportGameResponse r = MustReport(req);
  EXPECT_FALSE(r.applied_now());
  EXPECT_EQ(r.changes_size(), 0);
  // CPU seats (no player id) are fine in an unranked game.
  auto cpu = Chess("u2", "ivan", "", 1, 2);
  cpu.set_ranked(false);
  EXPECT_EQ(MustReport(cpu).changes_size(), 0);
  EXPECT_EQ(Rating("ivan", v1::RATING_POOL_CHESS).games(), 0);
  EXPECT_EQ(Rating("ivan", v1::RATING_POOL_CHESS).rating(), 1500);
  EXPECT_TRUE(AllHistory("judy", v1::RATING_POOL_CHESS).empty());
  // Nothing was stored: the same game id can still be reported ranked.
  req.set_ranked(true);
  EXPECT_TRUE(MustReport(req).applied_now());
  std::string m = Metrics();
  EXPECT_EQ(Metric(m, "tablero_rating_reports_total{result=\"unranked\"}"), 2);
  EXPECT_EQ(Metric(m, "tablero_rating_reports_total{result=\"applied\"}"), 1);
}

TEST_F(RatingTest, InvalidReportsRefusedAndNothingStored) {
  StartShared();
  struct Case {
    v1::ReportGameRequest req;
    const char* message;
  };
  auto with = [](v1::ReportGameRequest r, auto fn) {
    fn(r);
    return r;
  };
  auto good = Chess("bad", "kim", "lee", 1, 2);
  const v1::GameKind shogi = v1::GAME_KIND_SHOGI4;
  std::vector<Case> cases = {
      {with(good, [](auto& r) { r.set_kind(static_cast<v1::GameKind>(9)); }), "unknown game kind"},
      {with(good, [](auto& r) { r.set_kind(v1::GAME_KIND_UNSPECIFIED); }), "kind is required"},
      {with(good, [](auto& r) { r.set_pool(v1::RATING_POOL_UNSPECIFIED); }), "pool is required"},
      {with(good, [](auto& r) { r.set_pool(v1::RATING_POOL_CHECKERS); }), "does not fit"},
      {with(good, [](auto& r) { r.set_game_id(""); }), "game_id is empty"},
      {with(good, [](auto& r) { r.mutable_finished_time()->set_nanos(-1); }),
       "finished_time is not a valid timestamp"},
      {with(good, [](auto& r) { r.mutable_seats(0)->set_player_id(std::string(129, 'x')); }),
       "longer than 128 bytes"},
      {Chess("bad", "kim", "kim", 1, 2), "in two seats"},
      {Chess("bad", "kim", "lee", 1, 3), "out of range"},
      {Chess("bad", "kim", "lee", 0, 1), "out of range"},
      {Chess("bad", "kim", "", 1, 2), "player_id is empty"},
      {Req("bad", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS, {{"kim", 1}}),
       "at least 2 seats"},
      {Req("bad", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS, {}), "at least 2 seats"},
      {Req("bad", v1::GAME_KIND_CHESS, v1::RATING_POOL_CHESS, {{"kim", 1}, {"lee", 2}, {"mo", 3}}),
       "played with 2 seats"},
      {Req("bad", shogi, v1::RATING_POOL_SHOGI4_PAIRS,
           {{"kim", 1, 0}, {"lee", 2, 1}, {"mo", 2, 0}, {"ned", 1, 1}}),
       "different places"},
      {Req("bad", shogi, v1::RATING_POOL_SHOGI4_PAIRS,
           {{"kim", 1, 0}, {"lee", 3, 0}, {"mo", 1, 0}, {"ned", 3, 1}}),
       "different places"},
      {Req("bad", shogi, v1::RATING_POOL_SHOGI4_PAIRS,
           {{"kim", 1, 0}, {"lee", 1, 2}, {"mo", 1, 0}, {"ned", 3, 1}}),
       "must be 0 or 1"},
  };
  for (const Case& c : cases) {
    v1::ReportGameResponse resp;
    grpc::Status s = Report(c.req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.message;
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << "want \"" << c.message << "\" in \"" << s.error_message() << "\"";
    EXPECT_EQ(resp.changes_size(), 0);
  }
  for (const char* p : {"kim", "lee", "mo", "ned"}) {
    for (v1::RatingPool pool :
         {v1::RATING_POOL_CHESS, v1::RATING_POOL_CHECKERS, v1::RATING_POOL_SHOGI4_PAIRS}) {
      EXPECT_EQ(Rating(p, pool).games(), 0) << p;
    }
  }
  // The game id was never stored: the valid report is applied now.
  ASSERT_TRUE(MustReport(good).applied_now());
  v1::PoolRating kim = Rating("kim", v1::RATING_POOL_CHESS);

  // A replay with different content is refused and changes nothing.
  for (auto changed : {Chess("bad", "kim", "lee", 2, 1), Chess("bad", "kim", "lee", 1, 1),
                       Chess("bad", "kim", "nat", 1, 2), Chess("bad", "lee", "kim", 2, 1)}) {
    v1::ReportGameResponse resp;
    grpc::Status s = Report(changed, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_NE(s.error_message().find("already reported with different"), std::string::npos)
        << s.error_message();
  }
  auto other_pool =
      Req("bad", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS, {{"kim", 1}, {"lee", 2}});
  v1::ReportGameResponse resp;
  EXPECT_EQ(Report(other_pool, &resp).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  v1::PoolRating kim2 = Rating("kim", v1::RATING_POOL_CHESS);
  EXPECT_TRUE(SameBits(kim.rating(), kim2.rating()));
  EXPECT_EQ(kim2.games(), 1);
  EXPECT_EQ(Rating("nat", v1::RATING_POOL_CHESS).games(), 0);
  EXPECT_EQ(Rating("kim", v1::RATING_POOL_CHECKERS).games(), 0);

  // Reads check their input too.
  grpc::ClientContext ctx;
  v1::GetRatingsResponse rr;
  EXPECT_EQ(stub_->GetRatings(&ctx, v1::GetRatingsRequest(), &rr).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::GetHistoryResponse hr;
  EXPECT_EQ(History("kim", v1::RATING_POOL_UNSPECIFIED, 0, "", &hr).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(History("kim", v1::RATING_POOL_CHESS, -1, "", &hr).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(History("kim", v1::RATING_POOL_CHESS, 0, "garbage!", &hr).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  std::string m = Metrics();
  EXPECT_EQ(Metric(m, "tablero_rating_reports_total{result=\"invalid\"}"),
            static_cast<double>(cases.size() + 5));
  EXPECT_EQ(Metric(m, "tablero_rating_reports_total{result=\"applied\"}"), 1);
}

TEST_F(RatingTest, LeaderboardFiltersByRdAndPages) {
  std::string db = OwnDatabase();
  stub_ = Start(db);
  // Six regulars play a round robin until everyone's RD is at most 75 (the default limit);
  // two casual players play twice (RD far above 75).
  const int kRegulars = 6;
  std::map<std::string, double> rd;
  for (int i = 0; i < kRegulars; ++i) rd[absl::StrCat("r", i)] = 350;
  int game = 0;
  for (int round = 0; round < 60; ++round) {
    bool done = true;
    for (auto& [p, v] : rd) done = done && v <= 75;
    if (done) break;
    for (int i = 0; i < kRegulars; ++i) {
      for (int j = i + 1; j < kRegulars; ++j) {
        // Lower numbers win more often, so the ratings spread out.
        int wp = (round + j) % (j - i + 2) == 0 ? 2 : 1;
        auto r = MustReport(Chess(absl::StrCat("lb", game++), absl::StrCat("r", i),
                                  absl::StrCat("r", j), wp, wp == 1 ? 2 : 1));
        for (const auto& c : r.changes()) rd[c.player_id().substr(prefix_.size())] = c.after().rd();
      }
    }
  }
  for (auto& [p, v] : rd) ASSERT_LE(v, 75) << p;
  MustReport(Chess("cas1", "x1", "x2", 1, 2));
  MustReport(Chess("cas2", "x2", "x1", 1, 2));
  MustReport(
      Req("other", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS, {{"r0", 1}, {"x1", 2}}));

  std::vector<v1::LeaderboardEntry> all;
  std::string token;
  int pages = 0;
  do {
    grpc::ClientContext ctx;
    v1::GetLeaderboardRequest req;
    req.set_pool(v1::RATING_POOL_CHESS);
    req.set_page_size(4);
    req.set_page_token(token);
    v1::GetLeaderboardResponse resp;
    grpc::Status s = stub_->GetLeaderboard(&ctx, req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_LE(resp.entries_size(), 4);
    all.insert(all.end(), resp.entries().begin(), resp.entries().end());
    token = resp.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(pages, 2);
  ASSERT_EQ(all.size(), static_cast<size_t>(kRegulars));
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].rank(), static_cast<int>(i) + 1);
    EXPECT_LE(all[i].rd(), 75);
    EXPECT_EQ(all[i].player_id().rfind(Id("r"), 0), 0u) << all[i].player_id();
    if (i > 0) {
      EXPECT_GE(all[i - 1].rating(), all[i].rating());
    }
    v1::PoolRating pr = Rating(all[i].player_id().substr(prefix_.size()), v1::RATING_POOL_CHESS);
    EXPECT_TRUE(SameBits(pr.rating(), all[i].rating()));
    EXPECT_EQ(pr.games(), all[i].games());
    EXPECT_FALSE(pr.provisional());
  }
  EXPECT_TRUE(Rating("x1", v1::RATING_POOL_CHESS).provisional());

  // Other pools have their own board; tokens do not cross pools; bad input is refused.
  grpc::ClientContext c1;
  v1::GetLeaderboardRequest req;
  req.set_pool(v1::RATING_POOL_CHECKERS);
  v1::GetLeaderboardResponse resp;
  ASSERT_TRUE(stub_->GetLeaderboard(&c1, req, &resp).ok());
  EXPECT_EQ(resp.entries_size(), 0);  // nobody there has RD <= 75
  {
    grpc::ClientContext ctx;
    v1::GetLeaderboardRequest r;
    r.set_pool(v1::RATING_POOL_CHESS);
    r.set_page_size(1);
    v1::GetLeaderboardResponse first;
    ASSERT_TRUE(stub_->GetLeaderboard(&ctx, r, &first).ok());
    grpc::ClientContext ctx2;
    r.set_pool(v1::RATING_POOL_CHECKERS);
    r.set_page_token(first.next_page_token());
    EXPECT_EQ(stub_->GetLeaderboard(&ctx2, r, &resp).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
    grpc::ClientContext ctx3;
    r.set_pool(v1::RATING_POOL_CHESS);
    r.set_page_token("bm9wZQ");
    EXPECT_EQ(stub_->GetLeaderboard(&ctx3, r, &resp).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
    grpc::ClientContext ctx4;
    r.set_page_token("");
    r.set_page_size(-3);
    EXPECT_EQ(stub_->GetLeaderboard(&ctx4, r, &resp).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }

  // The limit is a flag (here from the environment): a second replica with a looser
  // limit lists the casual players too.
  auto loose = Start(db, {{"TABLERO_LEADERBOARD_RD", "400"}});
  grpc::ClientContext c2;
  req.set_pool(v1::RATING_POOL_CHESS);
  req.set_page_size(100);
  ASSERT_TRUE(loose->GetLeaderboard(&c2, req, &resp).ok());
  EXPECT_EQ(resp.entries_size(), kRegulars + 2);
}

// Ids are opaque text: quotes, backslashes, braces, commas and non-ASCII survive the
// trip through SQL literals and array literals unchanged.
TEST_F(RatingTest, IdsWithQuotesAndArraySyntaxRoundTrip) {
  StartShared();
  const std::string a = "o'brien \"x\" \\ {a,b}", b = "NULL", c = "\xc3\xa9l\xc3\xa8ve, 2";
  auto req = Req("'); DROP TABLE rating.games; --", v1::GAME_KIND_CHECKERS,
                 v1::RATING_POOL_CHECKERS, {{a, 1}, {b, 2}, {c, 2}});
  v1::ReportGameResponse r = MustReport(req);
  ASSERT_EQ(r.changes_size(), 3);
  EXPECT_EQ(r.changes(0).player_id(), Id(a));
  EXPECT_EQ(r.changes(1).player_id(), Id(b));
  EXPECT_EQ(r.changes(2).player_id(), Id(c));
  EXPECT_EQ(Rating(a, v1::RATING_POOL_CHECKERS).games(), 1);
  EXPECT_EQ(Rating(c, v1::RATING_POOL_CHECKERS).games(), 1);
  auto h = AllHistory(b, v1::RATING_POOL_CHECKERS);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].game_id(), req.game_id());
  EXPECT_FALSE(MustReport(req).applied_now());  // the replay finds it by the same id
}

TEST_F(RatingTest, HistoryListsEntriesPerGameNewestFirst) {
  StartShared();
  const int64_t t0 = 1750000000;
  std::vector<v1::ReportGameResponse> chess;
  for (int i = 0; i < 5; ++i) {
    chess.push_back(MustReport(Chess(absl::StrCat("h", i), "olga", absl::StrCat("pete", i),
                                     i % 2 + 1, 2 - i % 2, t0 + 60 * i)));
  }
  MustReport(Req("hc0", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS,
                 {{"olga", 2}, {"q1", 1}, {"q2", 3}}, t0 + 30));
  MustReport(Req("hc1", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS,
                 {{"q1", 1}, {"olga", 1}, {"q2", 3}}, t0 + 90));

  std::vector<v1::HistoryEntry> got;
  std::string token;
  std::vector<int> sizes;
  do {
    v1::GetHistoryResponse resp;
    ASSERT_TRUE(History("olga", v1::RATING_POOL_CHESS, 2, token, &resp).ok());
    sizes.push_back(resp.entries_size());
    got.insert(got.end(), resp.entries().begin(), resp.entries().end());
    token = resp.next_page_token();
  } while (!token.empty() && sizes.size() < 10);
  EXPECT_EQ(sizes, (std::vector<int>{2, 2, 1}));
  ASSERT_EQ(got.size(), 5u);
  for (int k = 0; k < 5; ++k) {
    int i = 4 - k;  // newest first
    EXPECT_EQ(got[k].game_id(), Id(absl::StrCat("h", i)));
    EXPECT_EQ(got[k].time().seconds(), t0 + 60 * i);
    EXPECT_EQ(got[k].place(), i % 2 + 1);
    EXPECT_EQ(got[k].seats(), 2);
    EXPECT_TRUE(SameValue(got[k].before(), chess[i].changes(0).before()));
    EXPECT_TRUE(SameValue(got[k].after(), chess[i].changes(0).after()));
    if (k > 0) {
      EXPECT_TRUE(SameValue(got[k - 1].before(), got[k].after()));
    }
  }
  auto cc = AllHistory("olga", v1::RATING_POOL_CHECKERS);
  ASSERT_EQ(cc.size(), 2u);
  EXPECT_EQ(cc[0].game_id(), Id("hc1"));
  EXPECT_EQ(cc[0].place(), 1);
  EXPECT_EQ(cc[1].game_id(), Id("hc0"));
  EXPECT_EQ(cc[1].seats(), 3);
  EXPECT_TRUE(AllHistory("olga", v1::RATING_POOL_SHOGI4_SINGLES).empty());
  EXPECT_EQ(AllHistory("pete3", v1::RATING_POOL_CHESS).size(), 1u);
}

}  // namespace
}  // namespace tablero::testing
