// Service configuration: Abseil flags, each of which may also come from the environment.
// For a flag --foo_bar the variable TABLERO_FOO_BAR sets it; a flag given on the command
// line wins over the environment, which wins over the default. Every service shares the
// flags declared here and may define more of its own with ABSL_FLAG.
#ifndef TABLERO_LIBS_SERVICE_CONFIG_H_
#define TABLERO_LIBS_SERVICE_CONFIG_H_

#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/strings/string_view.h"

ABSL_DECLARE_FLAG(std::string, listen);          // gRPC address, host:port
ABSL_DECLARE_FLAG(std::string, metrics_listen);  // Prometheus /metrics address, host:port
ABSL_DECLARE_FLAG(std::string, database_url);    // libpq URL or key=value string
ABSL_DECLARE_FLAG(int, db_pool_size);
ABSL_DECLARE_FLAG(std::string, rules_addr);
ABSL_DECLARE_FLAG(std::string, bot_addr);
ABSL_DECLARE_FLAG(std::string, rating_addr);
ABSL_DECLARE_FLAG(std::string, matchmaking_addr);
ABSL_DECLARE_FLAG(double, drain_seconds);   // graceful shutdown deadline
ABSL_DECLARE_FLAG(int, max_message_bytes);  // largest request accepted
ABSL_DECLARE_FLAG(int, grpc_threads);       // idle sync-server threads kept
ABSL_DECLARE_FLAG(int, grpc_max_threads);   // most sync-server threads
ABSL_DECLARE_FLAG(std::string, log_level);  // debug, info, warn, error
// Servers end client connections after this age (plus jitter) and grace: clients then
// resolve the name again and balance over replicas added since (channel.h).
ABSL_DECLARE_FLAG(double, grpc_max_connection_age_seconds);
ABSL_DECLARE_FLAG(double, grpc_max_connection_age_grace_seconds);
// Services with a database: readiness follows a check of it this often.
ABSL_DECLARE_FLAG(double, db_check_seconds);

namespace tablero::service {

// Environment variable name for a flag: "database_url" -> "TABLERO_DATABASE_URL".
std::string EnvName(absl::string_view flag);

// Parses flags after applying environment overrides; exits with a usage message on a bad
// flag (as absl does); --version prints "tablero PROGRAM VERSION (commit C)"; --help lists
// the flags of services/PROGRAM/ and libs/service/, --helpfull every flag, both with their
// defaults (the environment is not applied for a help text: it may hold secrets). Returns
// the positional arguments.
std::vector<char*> ParseConfig(int argc, char** argv, absl::string_view program,
                               absl::string_view usage);

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_CONFIG_H_
