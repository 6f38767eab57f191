#include "libs/service/process_metrics.h"

#include <dirent.h>
#include <prometheus/metric_family.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tablero::service {
namespace {

std::string ReadFile(const char* path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

double BootTimeSeconds() {
  std::istringstream in(ReadFile("/proc/stat"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("btime ", 0) == 0) {
      double v = 0;
      if (absl::SimpleAtod(line.substr(6), &v)) return v;
    }
  }
  return 0;
}

double OpenFds() {
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return 0;
  double n = 0;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') ++n;
  }
  closedir(d);
  return n - 1;  // the descriptor opendir itself holds
}

prometheus::MetricFamily One(std::string name, std::string help, prometheus::MetricType type,
                             double value) {
  prometheus::MetricFamily f;
  f.name = std::move(name);
  f.help = std::move(help);
  f.type = type;
  prometheus::ClientMetric m;
  if (type == prometheus::MetricType::Counter) {
    m.counter.value = value;
  } else {
    m.gauge.value = value;
  }
  f.metric.push_back(std::move(m));
  return f;
}

class Collector : public prometheus::Collectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override {
    auto s = ReadProcessStats();
    if (!s.ok()) return {};
    using T = prometheus::MetricType;
    return {
        One("process_cpu_seconds_total", "User and system CPU time spent, in seconds", T::Counter,
            s->cpu_seconds),
        One("process_resident_memory_bytes", "Resident memory size, in bytes", T::Gauge,
            s->resident_bytes),
        One("process_virtual_memory_bytes", "Virtual memory size, in bytes", T::Gauge,
            s->virtual_bytes),
        One("process_start_time_seconds", "Start time of the process, seconds since the epoch",
            T::Gauge, s->start_time_seconds),
        One("process_open_fds", "Open file descriptors", T::Gauge, s->open_fds),
        One("process_max_fds", "Most open file descriptors allowed", T::Gauge, s->max_fds),
        One("process_threads", "Threads of the process", T::Gauge, s->threads),
    };
  }
};

}  // namespace

absl::Status ParseProcStat(const std::string& stat, double ticks_per_second, double page_bytes,
                           double boot_time_seconds, ProcessStats* out) {
  // "pid (comm) state ppid ...": comm may hold anything, so split after its last ')'.
  size_t close = stat.rfind(')');
  if (close == std::string::npos) return absl::InvalidArgumentError("no ')' in stat");
  std::vector<std::string> f = absl::StrSplit(stat.substr(close + 1), ' ', absl::SkipEmpty());
  // f[0] is field 3 (state): field n of proc(5) is f[n - 3].
  auto field = [&f](int n, double* v) {
    return n - 3 < static_cast<int>(f.size()) && absl::SimpleAtod(f[n - 3], v);
  };
  double utime, stime, threads, start_ticks, vsize, rss;
  if (!field(14, &utime) || !field(15, &stime) || !field(20, &threads) ||
      !field(22, &start_ticks) || !field(23, &vsize) || !field(24, &rss)) {
    return absl::InvalidArgumentError(absl::StrCat("stat has ", f.size() + 2, " fields"));
  }
  out->cpu_seconds = (utime + stime) / ticks_per_second;
  out->threads = threads;
  out->start_time_seconds = boot_time_seconds + start_ticks / ticks_per_second;
  out->virtual_bytes = vsize;
  out->resident_bytes = rss * page_bytes;
  return absl::OkStatus();
}

absl::StatusOr<ProcessStats> ReadProcessStats() {
  static const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  static const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  static const double boot = BootTimeSeconds();
  ProcessStats s;
  if (absl::Status st = ParseProcStat(ReadFile("/proc/self/stat"), ticks, page, boot, &s);
      !st.ok()) {
    return st;
  }
  s.open_fds = OpenFds();
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) s.max_fds = static_cast<double>(lim.rlim_cur);
  return s;
}

std::shared_ptr<prometheus::Collectable> ProcessMetrics() { return std::make_shared<Collector>(); }

}  // namespace tablero::service
