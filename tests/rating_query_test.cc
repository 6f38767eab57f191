// The rating service as a real process over gRPC, against the test run's PostgreSQL
// (TABLERO_TEST_DATABASE_URL): invalid reports refused with nothing stored, leaderboards,
// opaque ids and histories.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "tests/rating_test_util.h"

namespace tablero::testing {
namespace {

// The same fixture as RatingTest's, in a suite of its own.
class RatingQueryTest : public RatingTest {};

TEST_F(RatingQueryTest, InvalidReportsRefusedAndNothingStored) {
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
      {Chess("bad", "kim", "lee", 2, 2), "seats[0].place is 2 but 0 seats place better"},
      {Req("bad", v1::GAME_KIND_CHECKERS, v1::RATING_POOL_CHECKERS,
           {{"kim", 1}, {"lee", 3}, {"mo", 3}}),
       "seats[1].place is 3 but 1 seat places better"},
      {with(good,
            [](auto& r) {
              r.mutable_finished_time()->set_seconds(absl::ToUnixSeconds(absl::Now()) + 3600);
            }),
       "s in the future; at most 300 s of clock skew is allowed"},
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

TEST_F(RatingQueryTest, LeaderboardFiltersByRdAndPages) {
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
    // A token whose rank leaves no room for the next page's ranks (they would overflow).
    std::string raw;
    ASSERT_TRUE(absl::WebSafeBase64Unescape(first.next_page_token(), &raw));
    std::vector<std::string> fields = absl::StrSplit(raw, absl::MaxSplits('|', 4));
    ASSERT_EQ(fields.size(), 5u) << raw;
    fields[1] = "2147483647";
    grpc::ClientContext ctx5;
    r.set_page_token(absl::WebSafeBase64Escape(absl::StrJoin(fields, "|")));
    grpc::Status forged = stub_->GetLeaderboard(&ctx5, r, &resp);
    EXPECT_EQ(forged.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    for (const auto& e : resp.entries()) EXPECT_GT(e.rank(), 0);
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
TEST_F(RatingQueryTest, IdsWithQuotesAndArraySyntaxRoundTrip) {
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

TEST_F(RatingQueryTest, HistoryListsEntriesPerGameNewestFirst) {
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
