#include "libs/service/config.h"

#include <cstdlib>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "libs/version/version.h"

ABSL_FLAG(std::string, listen, "127.0.0.1:0", "gRPC listen address (host:port)");
ABSL_FLAG(std::string, metrics_listen, "",
          "Prometheus metrics address (host:port); empty disables /metrics");
ABSL_FLAG(std::string, database_url, "", "PostgreSQL connection URL (libpq syntax)");
ABSL_FLAG(int, db_pool_size, 16, "PostgreSQL connections per replica");
ABSL_FLAG(std::string, rules_addr, "127.0.0.1:50051", "rules service address");
ABSL_FLAG(std::string, bot_addr, "127.0.0.1:50054", "bot service address");
ABSL_FLAG(std::string, rating_addr, "127.0.0.1:50053", "rating service address");
ABSL_FLAG(std::string, matchmaking_addr, "127.0.0.1:50052", "matchmaking service address");
ABSL_FLAG(double, drain_seconds, 10.0,
          "on SIGTERM: seconds to let in-flight calls finish before they are cancelled");
ABSL_FLAG(int, max_message_bytes, 1 << 20, "largest gRPC message accepted, in bytes");
ABSL_FLAG(int, grpc_threads, 32,
          "gRPC worker threads kept alive while idle (more are started under load; fewer "
          "means threads are created and destroyed as the load varies)");
ABSL_FLAG(int, grpc_max_threads, 256,
          "most threads the sync server runs calls on (a burst beyond them waits for a "
          "thread or is refused with RESOURCE_EXHAUSTED); 0: no bound");
ABSL_FLAG(double, grpc_max_connection_age_seconds, 60,
          "a client connection is asked to go away (GOAWAY) after this long, give or take "
          "10%, so that clients resolve the service's name again and spread over replicas "
          "added since; 0: connections live for ever");
ABSL_FLAG(double, grpc_max_connection_age_grace_seconds, 600,
          "after that, calls and streams still open on the connection get this long before "
          "it is closed (a Watch stream then resumes on a new connection); 0: no limit");
ABSL_FLAG(double, db_check_seconds, 2,
          "services with a database: how often a ready replica checks that the database "
          "answers; it reports NOT_SERVING while it does not (0: never checked)");
ABSL_FLAG(std::string, log_level, "info", "least severe log level printed: debug|info|warn|error");

extern char** environ;

namespace tablero::service {

std::string EnvName(absl::string_view flag) {
  return absl::StrCat("TABLERO_", absl::AsciiStrToUpper(flag));
}

namespace {

// --help, --helpfull, --helpshort, --helppackage, --helpon=..., --helpmatch=...
bool AsksForHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--")) absl::ConsumePrefix(&arg, "-");
    if (absl::StartsWith(arg, "help")) return true;
  }
  return false;
}

}  // namespace

std::vector<char*> ParseConfig(int argc, char** argv, absl::string_view program,
                               absl::string_view usage) {
  // --help lists the flags of the service (services/PROGRAM/) and those every service
  // shares (libs/service/); --helpfull lists every flag.
  absl::FlagsUsageConfig config;
  config.contains_help_flags =
      [own = absl::StrCat("services/", program, "/")](absl::string_view file) {
        return absl::StartsWith(file, own) || absl::StartsWith(file, "libs/service/");
      };
  InitFlagsUsage(program, usage, config);
  // Debian's Abseil is built with Mutex deadlock detection on: a cycle-graph update on
  // every lock gRPC takes, several percent of a call. Our services hold no nested locks.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  // Environment overrides go first so that the command line, parsed later, wins. A help
  // text shows the defaults, not the environment: it would print a value set there as
  // "currently", secrets included (TABLERO_DATABASE_URL's password, TABLERO_SERVICE_KEY).
  static std::vector<std::string> env_args;
  char** env = AsksForHelp(argc, argv) ? nullptr : environ;
  for (char** e = env; e != nullptr && *e != nullptr; ++e) {
    absl::string_view kv = *e;
    if (!absl::StartsWith(kv, "TABLERO_")) continue;
    size_t eq = kv.find('=');
    if (eq == absl::string_view::npos) continue;
    std::string flag = absl::AsciiStrToLower(kv.substr(8, eq - 8));
    if (absl::FindCommandLineFlag(flag) == nullptr) continue;  // not ours to interpret
    env_args.push_back(absl::StrCat("--", flag, "=", kv.substr(eq + 1)));
  }
  static std::vector<char*> args;
  args.push_back(argv[0]);
  for (std::string& a : env_args) args.push_back(a.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  return absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
}

}  // namespace tablero::service
