// Process metrics read from /proc/self on every scrape, under the names the official
// Prometheus clients use (prometheus-cpp 1.0 has no process collector):
//   process_cpu_seconds_total        user + system CPU time
//   process_resident_memory_bytes    resident set size
//   process_virtual_memory_bytes     virtual memory size
//   process_start_time_seconds       start time, seconds since the epoch
//   process_open_fds / process_max_fds   open file descriptors and their limit
//   process_threads                  threads of the process
// Server (server.h) registers it for every service.
#ifndef TABLERO_LIBS_SERVICE_PROCESS_METRICS_H_
#define TABLERO_LIBS_SERVICE_PROCESS_METRICS_H_

#include <prometheus/collectable.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace tablero::service {

struct ProcessStats {
  double cpu_seconds = 0;
  double resident_bytes = 0;
  double virtual_bytes = 0;
  double start_time_seconds = 0;
  double open_fds = 0;
  double max_fds = 0;
  double threads = 0;
};

// Parses /proc/<pid>/stat text (fields after the command name, which may hold spaces
// and parentheses). `ticks_per_second`, `page_bytes` and `boot_time_seconds` turn its
// units into seconds and bytes. Fills cpu, memory, threads and start time.
absl::Status ParseProcStat(const std::string& stat, double ticks_per_second, double page_bytes,
                           double boot_time_seconds, ProcessStats* out);

// This process, now (from /proc/self and /proc/stat).
absl::StatusOr<ProcessStats> ReadProcessStats();

std::shared_ptr<prometheus::Collectable> ProcessMetrics();

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_PROCESS_METRICS_H_
