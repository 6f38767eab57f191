#include "libs/pg/bootstrap.h"

#include <chrono>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "libs/pg/pool.h"
#include "libs/service/log.h"

namespace tablero::pg {

using service::LogError;
using service::LogInfo;

Bootstrap::~Bootstrap() { Stop(); }

void Bootstrap::Start(std::function<void(bool)> ready) {
  thread_ = std::thread([this, ready = std::move(ready)] { Run(ready); });
}

void Bootstrap::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void Bootstrap::Run(std::function<void(bool)> ready) {
  if (url_.empty()) {
    LogError("no database configured: set --database_url or TABLERO_DATABASE_URL; not serving");
    return;
  }
  int delay_ms = 250;
  while (!stop_) {
    absl::Status status;
    auto conn = Connect(url_);
    if (conn.ok()) {
      auto applied = Migrate(**conn, schema_, migrations_);
      if (applied.ok()) {
        LogInfo("database ready",
                {{"schema", schema_}, {"migrations_applied", absl::StrCat(*applied)}});
        ready(true);
        return;
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
    for (int waited = 0; waited < delay_ms && !stop_; waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    delay_ms = std::min(delay_ms * 2, 5000);
  }
}

}  // namespace tablero::pg
