#include "libs/pg/migrate.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/pg/pool.h"

namespace tablero::pg {
namespace {

bool ValidIdent(absl::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return !(s[0] >= '0' && s[0] <= '9');
}

int CurrentVersion(pqxx::transaction_base& t, const std::string& schema) {
  pqxx::result r = t.exec_params("SELECT to_regclass($1) IS NOT NULL", schema + ".schema_version");
  if (!r[0][0].as<bool>()) return 0;
  pqxx::result v = t.exec("SELECT coalesce(max(version), 0) FROM " + schema + ".schema_version");
  return v[0][0].as<int>();
}

}  // namespace

absl::StatusOr<std::vector<Migration>> CheckMigrations(std::vector<Migration> ms) {
  std::sort(ms.begin(), ms.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  for (size_t i = 0; i < ms.size(); ++i) {
    if (ms[i].version <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("migration ", ms[i].name, ": bad version"));
    }
    if (i > 0 && ms[i].version == ms[i - 1].version) {
      return absl::InvalidArgumentError(
          absl::StrCat("two migrations with version ", ms[i].version));
    }
  }
  return ms;
}

absl::StatusOr<Migration> MigrationFromFile(absl::string_view filename, std::string sql) {
  size_t us = filename.find('_');
  int version = 0;
  if (us == absl::string_view::npos || !absl::SimpleAtoi(filename.substr(0, us), &version) ||
      version <= 0 || filename.size() < us + 5 || filename.substr(filename.size() - 4) != ".sql") {
    return absl::InvalidArgumentError(
        absl::StrCat("migration file \"", filename, "\" is not named NNNN_description.sql"));
  }
  return Migration{version, std::string(filename.substr(us + 1, filename.size() - us - 5)),
                   std::move(sql)};
}

absl::StatusOr<int> SchemaVersion(pqxx::connection& conn, absl::string_view schema) {
  if (!ValidIdent(schema)) return absl::InvalidArgumentError("bad schema name");
  try {
    pqxx::nontransaction n(conn);
    return CurrentVersion(n, std::string(schema));
  } catch (const std::exception& e) {
    return FromException(e);
  }
}

absl::StatusOr<int> Migrate(pqxx::connection& conn, absl::string_view schema_view,
                            const std::vector<Migration>& migrations) {
  if (!ValidIdent(schema_view)) {
    return absl::InvalidArgumentError(absl::StrCat("bad schema name \"", schema_view, "\""));
  }
  auto checked = CheckMigrations(migrations);
  if (!checked.ok()) return checked.status();
  const std::string schema(schema_view);
  int latest = checked->empty() ? 0 : checked->back().version;
  try {
    pqxx::work w(conn);
    // One lock per schema: replicas of the same service wait here for each other.
    w.exec_params("SELECT pg_advisory_xact_lock(hashtext($1))", "tablero.migrate." + schema);
    w.exec("CREATE SCHEMA IF NOT EXISTS " + schema);
    w.exec("CREATE TABLE IF NOT EXISTS " + schema +
           ".schema_version (version integer PRIMARY KEY, name text NOT NULL, "
           "applied_at timestamptz NOT NULL DEFAULT now())");
    int current = CurrentVersion(w, schema);
    if (current > latest) {
      return absl::FailedPreconditionError(
          absl::StrCat("database schema \"", schema, "\" is at version ", current,
                       ", newer than this binary knows (", latest,
                       "); refusing to start: deploy a newer build or restore the database"));
    }
    int applied = 0;
    for (const Migration& m : *checked) {
      if (m.version <= current) continue;
      w.exec("SET LOCAL search_path TO " + schema + ", public");
      w.exec(m.sql);
      w.exec_params("INSERT INTO " + schema + ".schema_version (version, name) VALUES ($1, $2)",
                    m.version, m.name);
      ++applied;
    }
    w.commit();
    return applied;
  } catch (const std::exception& e) {
    return FromException(e);
  }
}

}  // namespace tablero::pg
