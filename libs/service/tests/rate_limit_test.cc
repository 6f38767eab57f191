#include "libs/service/rate_limit.h"

#include <gtest/gtest.h>

namespace tablero::service {
namespace {

const absl::Time kT0 = absl::FromUnixSeconds(1700000000);

TEST(WindowCounter, RefusesAtTheLimitUntilTheWindowPasses) {
  WindowCounter c(absl::Minutes(1));
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(c.Below("a", 3, kT0));
    c.Add("a", kT0 + absl::Seconds(i));
  }
  EXPECT_FALSE(c.Below("a", 3, kT0 + absl::Seconds(59)));
  EXPECT_TRUE(c.Below("b", 3, kT0 + absl::Seconds(59)));  // another key is not affected
  EXPECT_TRUE(c.Below("a", 3, kT0 + absl::Seconds(60)));
  c.Add("a", kT0 + absl::Seconds(61));  // a fresh window
  EXPECT_TRUE(c.Below("a", 2, kT0 + absl::Seconds(62)));
}

TEST(WindowCounter, TakeCountsOnlyWhatItAllows) {
  WindowCounter c(absl::Minutes(1));
  EXPECT_TRUE(c.Take("x", 2, kT0));
  EXPECT_TRUE(c.Take("x", 2, kT0));
  EXPECT_FALSE(c.Take("x", 2, kT0));
  EXPECT_FALSE(c.Take("x", 2, kT0 + absl::Seconds(30)));
  EXPECT_TRUE(c.Take("x", 2, kT0 + absl::Seconds(61)));
  EXPECT_TRUE(c.Take("y", 0, kT0));  // no limit
}

TEST(WindowCounter, AFullTableForgetsRatherThanRefuses) {
  WindowCounter c(absl::Minutes(1), 2);
  c.Add("a", kT0);
  c.Add("b", kT0);
  c.Add("c", kT0);  // table full: every count is dropped, then c counted
  EXPECT_TRUE(c.Below("a", 1, kT0));
  EXPECT_FALSE(c.Below("c", 1, kT0));
}

}  // namespace
}  // namespace tablero::service
