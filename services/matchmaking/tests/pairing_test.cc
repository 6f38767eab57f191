// Quick-match pairing (pairing.h): pure functions, no database.
#include "services/matchmaking/pairing.h"

#include <gtest/gtest.h>

namespace tablero::matchmaking {
namespace {

using Groups = std::vector<std::vector<size_t>>;

TEST(PoolKeyTest, SameKindCountAndOptionsMeetWhateverTheOrder) {
  EXPECT_EQ(PoolKey(1, 2, {{"b", "2"}, {"a", "1"}}), "1|2|a=1;b=2");
  EXPECT_EQ(PoolKey(3, 4, {}), "3|4|");
  EXPECT_NE(PoolKey(1, 2, {}), PoolKey(1, 3, {}));
  EXPECT_NE(PoolKey(1, 2, {{"a", "1"}}), PoolKey(1, 2, {{"a", "2"}}));
  // Pairs sort as text: "a1=..." before "a=..." ('1' < '='), as stored keys were made.
  EXPECT_EQ(PoolKey(1, 2, {{"a", "x"}, {"a1", "y"}}), "1|2|a1=y;a=x");
}

TEST(RatingWindowTest, WidensWithWaitingUpToACap) {
  EXPECT_DOUBLE_EQ(RatingWindow(0), 100);
  EXPECT_DOUBLE_EQ(RatingWindow(-5), 100);  // a clock step back never narrows it
  EXPECT_DOUBLE_EQ(RatingWindow(4), 200);
  EXPECT_DOUBLE_EQ(RatingWindow(28), 800);
  EXPECT_DOUBLE_EQ(RatingWindow(3600), 800);
}

TEST(PairTicketsTest, TwoCloseRatingsMeetAtOnce) {
  EXPECT_EQ(PairTickets({{1500, 0}, {1590, 0}}, 2), (Groups{{0, 1}}));
}

TEST(PairTicketsTest, FarRatingsWaitUntilBothWindowsReach) {
  // 300 apart: the window is 100 at once, 300 after 8 s.
  EXPECT_TRUE(PairTickets({{1500, 0}, {1800, 0}}, 2).empty());
  // The older ticket's window alone is not enough: both must contain the other.
  EXPECT_TRUE(PairTickets({{1500, 20}, {1800, 0}}, 2).empty());
  EXPECT_EQ(PairTickets({{1500, 20}, {1800, 8}}, 2), (Groups{{0, 1}}));
}

TEST(PairTicketsTest, TheOldestAnchorsWithTheClosestRatingFirst) {
  // 0 is oldest; 2 is closer to it than 1, so 0 meets 2, and 1 is left waiting.
  EXPECT_EQ(PairTickets({{1500, 3}, {1580, 2}, {1510, 1}}, 2), (Groups{{0, 2}}));
  // Equally close: the older candidate first.
  EXPECT_EQ(PairTickets({{1500, 3}, {1550, 2}, {1450, 1}}, 2), (Groups{{0, 1}}));
}

TEST(PairTicketsTest, AnAnchorWithoutPartnersLetsTheNextOldestAnchor) {
  // 0 is alone in its range; 1 and 2 meet.
  EXPECT_EQ(PairTickets({{1000, 0}, {1500, 0}, {1550, 0}}, 2), (Groups{{1, 2}}));
}

TEST(PairTicketsTest, FormsSeveralGamesAndNeverUsesATicketTwice) {
  const Groups g = PairTickets({{1500, 0}, {1500, 0}, {1500, 0}, {1500, 0}, {1500, 0}}, 2);
  EXPECT_EQ(g, (Groups{{0, 1}, {2, 3}}));
}

TEST(PairTicketsTest, GroupsOfMoreThanTwoNeedEveryoneInTheAnchorsRange) {
  // Four players: 3 is outside 0's window, so no game until a fourth close ticket comes.
  EXPECT_TRUE(PairTickets({{1500, 0}, {1520, 0}, {1540, 0}, {1700, 0}}, 4).empty());
  EXPECT_EQ(PairTickets({{1500, 0}, {1520, 0}, {1540, 0}, {1700, 0}, {1490, 0}}, 4),
            (Groups{{0, 4, 1, 2}}));
  // Candidates are checked against the anchor only (as before): 1 and 2 are 180 apart.
  EXPECT_EQ(PairTickets({{1500, 0}, {1590, 0}, {1410, 0}}, 3), (Groups{{0, 1, 2}}));
}

TEST(PairTicketsTest, TooFewTicketsFormNothing) {
  EXPECT_TRUE(PairTickets({}, 2).empty());
  EXPECT_TRUE(PairTickets({{1500, 0}}, 2).empty());
  EXPECT_TRUE(PairTickets({{1500, 0}, {1500, 0}}, 0).empty());
}

}  // namespace
}  // namespace tablero::matchmaking
