#include "services/matchmaking/ids.h"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace tablero::matchmaking {
namespace {

void Random(unsigned char* out, int n) {
  // RAND_bytes only fails when the system has no entropy source at all.
  if (RAND_bytes(out, n) != 1) std::abort();
}

// Decodes one UTF-8 code point at s[i]; returns its length or 0 if malformed.
int Utf8Len(absl::string_view s, size_t i, uint32_t* cp) {
  unsigned char c = s[i];
  int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  uint32_t v = len == 1 ? c : c & (0x7F >> len);
  for (int k = 1; k < len; ++k) {
    unsigned char d = s[i + k];
    if ((d >> 6) != 2) return 0;
    v = v << 6 | (d & 0x3F);
  }
  static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return len;
}

}  // namespace

std::string NewId() {
  unsigned char b[16];
  Random(b, sizeof b);
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<char*>(b), sizeof b));
}

std::string NewToken() {
  unsigned char b[32];
  Random(b, sizeof b);
  return absl::WebSafeBase64Escape(absl::string_view(reinterpret_cast<char*>(b), sizeof b));
}

std::string TokenHash(absl::string_view token) {
  unsigned char h[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), h);
  return std::string(reinterpret_cast<char*>(h), sizeof h);
}

std::string NewInviteCode() {
  unsigned char b[8];
  Random(b, sizeof b);
  std::string code(8, ' ');
  for (int i = 0; i < 8; ++i) code[i] = kCodeAlphabet[b[i] & 31];  // 32 letters: no bias
  return code;
}

std::string NormalizeCode(absl::string_view text) {
  if (text.size() > 64) return "";
  std::string out;
  for (char c : text) {
    if (c == ' ' || c == '-') continue;
    char u = absl::ascii_toupper(c);
    if (kCodeAlphabet.find(u) == absl::string_view::npos) return "";
    out.push_back(u);
  }
  return out.size() == 8 ? out : "";
}

absl::StatusOr<std::string> CleanName(absl::string_view name) {
  if (name.size() > 200) return absl::InvalidArgumentError("display_name: at most 24 characters");
  name = absl::StripAsciiWhitespace(name);
  if (name.empty()) return absl::InvalidArgumentError("display_name: empty");
  int count = 0;
  for (size_t i = 0; i < name.size();) {
    uint32_t cp = 0;
    int len = Utf8Len(name, i, &cp);
    if (len == 0) return absl::InvalidArgumentError("display_name: not valid UTF-8");
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029) {
      return absl::InvalidArgumentError("display_name: control characters are not allowed");
    }
    i += len;
    ++count;
  }
  if (count > 24) return absl::InvalidArgumentError("display_name: at most 24 characters");
  return std::string(name);
}

absl::Status CheckId(absl::string_view field, absl::string_view id) {
  if (id.empty()) return absl::InvalidArgumentError(absl::StrCat(field, ": empty"));
  if (id.size() > 64) return absl::InvalidArgumentError(absl::StrCat(field, ": too long"));
  return absl::OkStatus();
}

}  // namespace tablero::matchmaking
