#include "services/rating/sql.h"

#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tablero::rating {

std::string SqlFloat(double d) { return absl::StrFormat("%.17g", d); }

std::string SqlTextArray(const std::vector<std::string>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (char c : v[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

std::string SqlFloatArray(const std::vector<double>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) absl::StrAppend(&out, i ? "," : "", SqlFloat(v[i]));
  return out + "}";
}

std::string SqlIntArray(const std::vector<int>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) absl::StrAppend(&out, i ? "," : "", v[i]);
  return out + "}";
}

std::string SqlBoolArray(const std::vector<bool>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) absl::StrAppend(&out, i ? "," : "", v[i] ? "t" : "f");
  return out + "}";
}

double FromBits(const pqxx::field& f) {
  pqxx::binarystring b(f);
  uint64_t bits = 0;
  if (b.size() != 8) return 0.0;  // cannot happen for float8send
  for (size_t i = 0; i < 8; ++i) bits = bits << 8 | static_cast<unsigned char>(b[i]);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

std::string DoubleHex(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof d);
  return absl::StrFormat("%016x", bits);
}

bool ParseDoubleHex(absl::string_view s, double* d) {
  uint64_t bits = 0;
  if (s.size() != 16) return false;
  for (char c : s) {
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (v < 0) return false;
    bits = bits << 4 | static_cast<uint64_t>(v);
  }
  std::memcpy(d, &bits, sizeof *d);
  return true;
}

}  // namespace tablero::rating
