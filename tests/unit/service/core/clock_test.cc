// Tests for the controllable clock and its time and duration notations.
#include "service/core/clock.h"

#include <gtest/gtest.h>

namespace pogi::service {
namespace {

constexpr double kT0 = 1893456000;  // 2030-01-01T00:00:00Z

TEST(ClockTest, FrozenClockMovesOnlyWhenTold) {
  ControllableClock c(kT0, true);
  EXPECT_EQ(c.Now(), kT0);
  EXPECT_TRUE(c.frozen());
  c.Advance(90000);
  EXPECT_EQ(c.Now(), kT0 + 90000);
  c.Set(kT0 - 10);  // back in time is allowed
  EXPECT_EQ(c.Now(), kT0 - 10);
}

TEST(ClockTest, ResumeRunsOnFromTheFrozenTime) {
  ControllableClock c(kT0, true);
  c.Resume();
  EXPECT_FALSE(c.frozen());
  double now = c.Now();
  EXPECT_GE(now, kT0);
  EXPECT_LT(now, kT0 + 60);
  c.Freeze();
  double frozen = c.Now();
  EXPECT_EQ(c.Now(), frozen);
  c.Resume();
  c.Advance(3600);
  EXPECT_GE(c.Now(), frozen + 3600);
}

TEST(ClockTest, RunningClockStartsAtTheGivenTime) {
  ControllableClock c(kT0, false);
  EXPECT_GE(c.Now(), kT0);
  EXPECT_LT(c.Now(), kT0 + 60);
  c.Set(kT0 + 86400);
  EXPECT_GE(c.Now(), kT0 + 86400);
}

TEST(ClockTest, ParsesIsoTimes) {
  EXPECT_EQ(ParseIsoTime("2030-01-01T00:00:00Z"), kT0);
  EXPECT_EQ(ParseIsoTime("2030-01-01T00:00:00.5Z"), kT0 + 0.5);
  EXPECT_EQ(ParseIsoTime("2030-01-01T02:00:00+02:00"), kT0);
  EXPECT_EQ(ParseIsoTime("2030-01-01"), kT0);
  EXPECT_EQ(ParseIsoTime("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseIsoTime("2000-02-29T12:00:00Z"), 951825600);
  for (const char* bad : {"", "2030", "2030-13-01T00:00:00Z", "2030-01-01T25:00:00Z", "2030-01-01T00:00:00Q",
                          "tomorrow", "2030-01-01T00:00:00.Z"}) {
    EXPECT_FALSE(ParseIsoTime(bad)) << bad;
  }
}

TEST(ClockTest, FormatsIsoTimes) {
  EXPECT_EQ(FormatIsoTime(kT0), "2030-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoTime(kT0 + 90061.25), "2030-01-02T01:01:01.250Z");
}

TEST(ClockTest, ParsesDurations) {
  EXPECT_EQ(ParseDuration("25h"), 90000);
  EXPECT_EQ(ParseDuration("90m"), 5400);
  EXPECT_EQ(ParseDuration("1h30m"), 5400);
  EXPECT_EQ(ParseDuration("1.5s"), 1.5);
  EXPECT_EQ(ParseDuration("2d"), 172800);
  EXPECT_EQ(ParseDuration("500ms"), 0.5);
  EXPECT_EQ(ParseDuration("0s"), 0);
  for (const char* bad : {"", "h", "10", "10x", "1..5s", "-5s"}) EXPECT_FALSE(ParseDuration(bad)) << bad;
}

}  // namespace
}  // namespace pogi::service
