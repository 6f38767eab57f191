// The rating service as a real process over gRPC, against the test run's PostgreSQL
// (TABLERO_TEST_DATABASE_URL): results applied and read back bit for bit, exactly-once
// reports (replays, racing replicas), 100 concurrent overlapping reports, unranked
// reports. Invalid reports, leaderboards, ids and histories: rating_query_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/rating_test_util.h"

namespace tablero::testing {
namespace {

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
    // Random scores ranked as places (1 + the seats scoring more: ties share a place).
    std::vector<int> score(n);
    for (int& x : score) x = static_cast<int>(rng() % n);
    std::vector<S> seats;
    for (int k = 0; k < n; ++k) {
      std::string p = absl::StrCat("o", ids[k]);
      seats.push_back(
          {p, 1 + static_cast<int>(std::count_if(score.begin(), score.end(),
                                                 [&](int x) { return x > score[k]; }))});
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

}  // namespace
}  // namespace tablero::testing
