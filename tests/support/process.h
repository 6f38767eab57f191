// Test support: a service binary started as a real child process.
#ifndef TABLERO_TESTS_SUPPORT_PROCESS_H_
#define TABLERO_TESTS_SUPPORT_PROCESS_H_

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tablero::testing {

// The service key (--service_key) of every service a test starts, unless the test's
// environment sets TABLERO_SERVICE_KEY or the test passes its own.
inline constexpr char kTestServiceKey[] = "tablero-test-service-key";

class Process {
 public:
  // Starts `binary` with `args`; `env` adds to (or overrides) the test's environment.
  // stderr and stdout go to a log file read by log().
  Process(const std::string& binary, const std::vector<std::string>& args,
          const std::map<std::string, std::string>& env = {});
  ~Process();  // SIGKILL if still running
  Process(const Process&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  void Signal(int sig);
  // Waits up to `seconds` for exit; returns the exit code (128+signal if killed), or
  // nullopt on timeout.
  std::optional<int> Wait(double seconds);
  std::string log() const;

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::string log_path_;
};

// Path of a built binary (the build's bin folder).
std::string BinPath(const std::string& name);

// A TCP port on 127.0.0.1 that was free a moment ago, below the ephemeral range.
int FreePort();

// GET http://host:port/path; returns the body, or nullopt on any failure.
std::optional<std::string> HttpGet(const std::string& host, int port, const std::string& path);

// A database of this test process's own, created on first use in the throwaway cluster
// of the test run (TABLERO_TEST_DATABASE_URL) and dropped at exit; "" if that is unset.
std::string TestDatabaseUrl();

}  // namespace tablero::testing

#endif  // TABLERO_TESTS_SUPPORT_PROCESS_H_
