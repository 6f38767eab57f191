// Versioned schema migrations. Each service owns one Postgres schema and a folder of SQL
// files named NNNN_description.sql (services/<svc>/migrations/), embedded in its binary at
// build time. At start-up the service applies the missing ones, in order, inside one
// transaction holding an advisory lock on the schema, so replicas starting together never
// race; each applied version is recorded in <schema>.schema_version. A database whose
// version is newer than the newest migration the binary knows is refused.
#ifndef TABLERO_LIBS_PG_MIGRATE_H_
#define TABLERO_LIBS_PG_MIGRATE_H_

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tablero::pg {

struct Migration {
  int version = 0;
  std::string name;
  std::string sql;
};

// Sorts by version and checks versions are positive and distinct.
absl::StatusOr<std::vector<Migration>> CheckMigrations(std::vector<Migration> migrations);

// Parses "0003_add_index.sql" into (3, "add_index").
absl::StatusOr<Migration> MigrationFromFile(absl::string_view filename, std::string sql);

// Applies what is missing. Returns the number of migrations applied now (0 if up to date).
// FAILED_PRECONDITION if the database is at a version this binary does not know.
absl::StatusOr<int> Migrate(pqxx::connection& conn, absl::string_view schema,
                            const std::vector<Migration>& migrations);

// The schema's current version (0 when it has none).
absl::StatusOr<int> SchemaVersion(pqxx::connection& conn, absl::string_view schema);

}  // namespace tablero::pg

#endif  // TABLERO_LIBS_PG_MIGRATE_H_
