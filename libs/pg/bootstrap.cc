#include "libs/pg/bootstrap.h"

#include <chrono>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "libs/pg/pool.h"
#include "libs/service/log.h"

namespace tablero::pg {

using service::LogError;
using service::LogInfo;

namespace {

// The URL with libpq parameters that bound how long a check may hang on a database that
// is gone without closing its connections (a host down, a network partition).
std::string WithTimeouts(const std::string& url, absl::Duration check_every) {
  const int64_t seconds = std::max<int64_t>(2, absl::ToInt64Seconds(2 * check_every));
  if (url.find("://") != std::string::npos) {
    return absl::StrCat(url, url.find('?') == std::string::npos ? "?" : "&",
                        "connect_timeout=", seconds, "&tcp_user_timeout=", seconds * 1000);
  }
  return absl::StrCat(url, " connect_timeout=", seconds, " tcp_user_timeout=", seconds * 1000);
}

}  // namespace

Bootstrap::~Bootstrap() { Stop(); }

void Bootstrap::Start(std::function<void(bool)> ready, absl::Duration check_every) {
  thread_ = std::thread([this, ready = std::move(ready), check_every] { Run(ready, check_every); });
}

void Bootstrap::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

bool Bootstrap::Sleep(absl::Duration d) {
  const absl::Time until = absl::Now() + d;
  while (!stop_ && absl::Now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return !stop_;
}

void Bootstrap::Run(const std::function<void(bool)>& ready, absl::Duration check_every) {
  if (url_.empty()) {
    LogError("no database configured: set --database_url or TABLERO_DATABASE_URL; not serving");
    return;
  }
  if (!Migrated()) return;
  ready(true);
  if (check_every > absl::ZeroDuration()) Watch(ready, check_every);
}

bool Bootstrap::Migrated() {
  int delay_ms = 250;
  while (!stop_) {
    absl::Status status;
    auto conn = Connect(url_);
    if (conn.ok()) {
      auto applied = Migrate(**conn, schema_, migrations_);
      if (applied.ok()) {
        LogInfo("database ready",
                {{"schema", schema_}, {"migrations_applied", absl::StrCat(*applied)}});
        return true;
      }
      status = applied.status();
      if (status.code() == absl::StatusCode::kFailedPrecondition ||
          status.code() == absl::StatusCode::kInvalidArgument) {
        LogError("refusing to start",
                 {{"schema", schema_}, {"error", std::string(status.message())}});
        std::_Exit(3);
      }
    } else {
      status = conn.status();
    }
    LogError("database not available; not serving, will retry",
             {{"error", std::string(status.message())}, {"retry_ms", absl::StrCat(delay_ms)}});
    if (!Sleep(absl::Milliseconds(delay_ms))) return false;
    delay_ms = std::min(delay_ms * 2, 5000);
  }
  return false;
}

void Bootstrap::Watch(const std::function<void(bool)>& ready, absl::Duration check_every) {
  const std::string url = WithTimeouts(url_, check_every);
  std::unique_ptr<pqxx::connection> conn;
  bool up = true;
  while (Sleep(check_every)) {
    absl::Status status;
    // A broken connection is opened again at once: one lost connection (a restart of the
    // server, an idle timeout) is not an outage.
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (conn == nullptr) {
        auto c = Connect(url);
        if (!c.ok()) {
          status = c.status();
          break;
        }
        conn = std::move(*c);
      }
      try {
        pqxx::nontransaction(*conn).exec("SELECT 1");
        status = absl::OkStatus();
        break;
      } catch (const std::exception& e) {
        status = FromException(e);
        conn.reset();
      }
    }
    if (status.ok() != up) {
      up = status.ok();
      if (up) {
        LogInfo("database reachable again; serving", {{"schema", schema_}});
      } else {
        LogError("database unreachable; not serving until it answers",
                 {{"schema", schema_}, {"error", std::string(status.message())}});
      }
      ready(up);
    }
  }
}

}  // namespace tablero::pg
