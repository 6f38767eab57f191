#include "services/matchmaking/sql_values.h"

#include <chrono>

#include "absl/strings/str_cat.h"

namespace tablero::matchmaking {

google::protobuf::Timestamp ToTimestamp(int64_t us) {
  google::protobuf::Timestamp t;
  int64_t s = us >= 0 ? us / 1000000 : (us - 999999) / 1000000;
  t.set_seconds(s);
  t.set_nanos(static_cast<int32_t>((us - s * 1000000) * 1000));
  return t;
}

int64_t NowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

pqxx::binarystring Bytes(const google::protobuf::MessageLite& m) {
  return pqxx::binarystring(m.SerializeAsString());
}

pqxx::binarystring Bytes(const std::string& raw) { return pqxx::binarystring(raw); }

std::string FieldBytes(const pqxx::field& f) {
  if (f.is_null()) return "";
  pqxx::binarystring b(f);
  return b.str();
}

std::string TextArray(absl::Span<const std::string> items) {
  std::string out = "{";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char c : item) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

std::string WithSearchPath(const std::string& url, absl::string_view schema) {
  if (url.find("://") != std::string::npos) {
    return absl::StrCat(url, url.find('?') == std::string::npos ? "?" : "&",
                        "options=-csearch_path%3D", schema);
  }
  return absl::StrCat(url, " options='-csearch_path=", schema, "'");
}

}  // namespace tablero::matchmaking
