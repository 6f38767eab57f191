#include "libs/service/process_metrics.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace tablero::service {
namespace {

TEST(ProcessMetrics, ParsesStatWithSpacesAndParenthesesInTheName) {
  // Fields 1-24 of proc(5) (the rest is ignored): utime 250, stime 50 ticks; 7 threads;
  // started 1000 ticks after boot; vsize 4096000 bytes; rss 300 pages.
  std::string stat =
      "42 (a (weird) name) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 7 0 1000 4096000 "
      "300 18446744073709551615";
  ProcessStats s;
  ASSERT_TRUE(ParseProcStat(stat, 100, 4096, 1'700'000'000, &s).ok());
  EXPECT_DOUBLE_EQ(s.cpu_seconds, 3.0);
  EXPECT_DOUBLE_EQ(s.threads, 7);
  EXPECT_DOUBLE_EQ(s.start_time_seconds, 1'700'000'010);
  EXPECT_DOUBLE_EQ(s.virtual_bytes, 4096000);
  EXPECT_DOUBLE_EQ(s.resident_bytes, 300 * 4096);
  EXPECT_FALSE(ParseProcStat("42 (short) S 1 2", 100, 4096, 0, &s).ok());
  EXPECT_FALSE(ParseProcStat("garbage", 100, 4096, 0, &s).ok());
}

TEST(ProcessMetrics, FollowThisProcess) {
  auto before = ReadProcessStats();
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_GT(before->resident_bytes, 1 << 20);
  EXPECT_GE(before->virtual_bytes, before->resident_bytes);
  EXPECT_GT(before->max_fds, 0);
  double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_LE(before->start_time_seconds, now + 1);
  EXPECT_GT(before->start_time_seconds, now - 3600);

  int fd = open("/proc/self/stat", O_RDONLY);
  ASSERT_GE(fd, 0);
  std::atomic<bool> stop{false};
  std::thread spinner([&stop] {
    while (!stop) {
    }
  });
  // Burn 0.3 s of this process's CPU time (as the kernel counts it, not wall time).
  auto cpu = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
  };
  const double cpu0 = cpu();
  while (cpu() - cpu0 < 0.3) {
  }
  auto during = ReadProcessStats();
  stop = true;
  spinner.join();
  close(fd);
  ASSERT_TRUE(during.ok());
  EXPECT_EQ(during->open_fds, before->open_fds + 1);
  EXPECT_EQ(during->threads, before->threads + 1);
  EXPECT_GT(during->cpu_seconds, before->cpu_seconds + 0.2);
  EXPECT_DOUBLE_EQ(during->start_time_seconds, before->start_time_seconds);
}

}  // namespace
}  // namespace tablero::service
