// Plain structured log lines (logfmt) on stderr, one per event:
//   ts=2026-11-29T12:00:00.123Z level=info svc=rating msg="listening" addr=127.0.0.1:50053
// Thread-safe; cheap enough for per-request warnings but not meant for hot loops.
#ifndef TABLERO_LIBS_SERVICE_LOG_H_
#define TABLERO_LIBS_SERVICE_LOG_H_

#include <initializer_list>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace tablero::service {

enum class Level { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

void SetLogService(absl::string_view name);
// Sends the messages protobuf prints (on stderr, in its own format) through Log instead.
// Call once at start-up, before other threads run (Server's constructor does).
void LogLibraryMessages();
void SetLogLevel(Level level);
bool ParseLogLevel(absl::string_view text, Level* level);

using Field = std::pair<absl::string_view, std::string>;
void Log(Level level, absl::string_view msg, std::initializer_list<Field> fields = {});

inline void LogInfo(absl::string_view msg, std::initializer_list<Field> f = {}) {
  Log(Level::kInfo, msg, f);
}
inline void LogWarn(absl::string_view msg, std::initializer_list<Field> f = {}) {
  Log(Level::kWarn, msg, f);
}
inline void LogError(absl::string_view msg, std::initializer_list<Field> f = {}) {
  Log(Level::kError, msg, f);
}

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_LOG_H_
