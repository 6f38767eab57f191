// The searches' clock: the budget counts from the request's arrival, and a pause off the
// CPU brings the stop forward. Each test compares two cases whose difference does not
// depend on the machine's speed or load.
#include "libs/bot/clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "libs/bot/bot.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

TEST(SearchClock, NoLimitNeverExpires) {
  SearchClock c;
  EXPECT_FALSE(c.has_limit());
  EXPECT_FALSE(c.Expired());
  EXPECT_EQ(c.TotalMs(), 0);
}

// Without the pause allowance the second check (400 ms in, limit at 1000 ms) would pass.
TEST(SearchClock, APauseOffTheCpuBringsTheStopForward) {
  SearchClock c(steady_clock::now() + milliseconds(1000));
  EXPECT_FALSE(c.Expired());  // false unless this thread already waited over 300 ms
  std::this_thread::sleep_for(milliseconds(400));
  EXPECT_TRUE(c.Expired());
}

// A request that arrived a whole budget ago has no time left: the search answers after
// its first iteration, where the same request arriving now searches deeper (level 5 is
// bounded by nodes, far within a 10 s budget on any machine).
TEST(ChooseMove, BudgetCountsFromArrival) {
  for (game::Kind kind : {game::Kind::kChess, game::Kind::kCheckers}) {
    auto g = *games::NewGame({kind, {}, 0, 0});
    Request fresh;
    fresh.level = 5;
    fresh.budget_ms = 10000;
    fresh.seed = 3;
    Request stale = fresh;
    stale.arrival = steady_clock::now() - milliseconds(10000);
    auto a = ChooseMove(*g, fresh);
    auto b = ChooseMove(*g, stale);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_GE(a->depth, 2) << int(kind);
    EXPECT_LE(b->depth, 1) << int(kind);
    EXPECT_LT(b->nodes, a->nodes) << int(kind);
  }
}

}  // namespace
}  // namespace tablero::bot
