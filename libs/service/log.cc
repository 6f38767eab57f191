#include "libs/service/log.h"

#include <google/protobuf/stubs/logging.h>

#include <atomic>
#include <cstdio>

#include "absl/base/const_init.h"
#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace tablero::service {
namespace {

std::atomic<int> g_level{static_cast<int>(Level::kInfo)};
ABSL_CONST_INIT absl::Mutex g_mu(absl::kConstInit);
std::string g_service ABSL_GUARDED_BY(g_mu) = "tablero";

// Quotes a value when logfmt needs it (spaces, quotes, '=' or empty).
std::string Quote(absl::string_view v) {
  bool plain = !v.empty();
  for (char c : v) plain &= c > ' ' && c != '"' && c != '=' && c != '\\';
  if (plain) return std::string(v);
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

const char* LevelName(Level l) {
  switch (l) {
    case Level::kDebug:
      return "debug";
    case Level::kInfo:
      return "info";
    case Level::kWarn:
      return "warn";
    case Level::kError:
      return "error";
  }
  return "info";
}

// protobuf's own messages, as lines of ours. The one a client causes at will, a request's
// string field with invalid UTF-8, is a client error the call boundary refuses
// (INVALID_ARGUMENT) and logs as a failed call: debug, as other client errors.
void ProtobufMessage(google::protobuf::LogLevel level, const char* file, int line,
                     const std::string& message) {
  Level l = Level::kError;
  if (level == google::protobuf::LOGLEVEL_INFO) l = Level::kInfo;
  if (level == google::protobuf::LOGLEVEL_WARNING) l = Level::kWarn;
  if (message.find("invalid UTF-8") != std::string::npos) l = Level::kDebug;
  Log(l, "protobuf", {{"error", message}, {"at", absl::StrCat(file, ":", line)}});
}

}  // namespace

void LogLibraryMessages() { google::protobuf::SetLogHandler(&ProtobufMessage); }

void SetLogService(absl::string_view name) {
  absl::MutexLock lock(&g_mu);
  g_service = std::string(name);
}

void SetLogLevel(Level level) { g_level = static_cast<int>(level); }

bool ParseLogLevel(absl::string_view text, Level* level) {
  for (Level l : {Level::kDebug, Level::kInfo, Level::kWarn, Level::kError}) {
    if (text == LevelName(l)) {
      *level = l;
      return true;
    }
  }
  return false;
}

void Log(Level level, absl::string_view msg, std::initializer_list<Field> fields) {
  if (static_cast<int>(level) < g_level.load(std::memory_order_relaxed)) return;
  std::string line = absl::StrCat(
      "ts=", absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone()),
      " level=", LevelName(level));
  absl::MutexLock lock(&g_mu);
  absl::StrAppend(&line, " svc=", g_service, " msg=", Quote(msg));
  for (const Field& f : fields) absl::StrAppend(&line, " ", f.first, "=", Quote(f.second));
  line.push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace tablero::service
