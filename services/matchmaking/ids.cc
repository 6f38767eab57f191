#include "services/matchmaking/ids.h"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstdint>
#include <utility>

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

// Text-direction embeddings, overrides and isolates: in a list of names they reorder the
// text around the name (a name could read as another player's, or flip a score line).
bool IsDirectionControl(uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// Characters that show nothing on their own: Unicode's spaces beyond ASCII and its
// default-ignorable characters (zero-width spaces and joiners, direction marks, variation
// selectors, fillers, tags), and the blank Braille pattern. A name of only these would show
// as empty.
bool IsInvisible(uint32_t cp) {
  static constexpr std::pair<uint32_t, uint32_t> kRanges[] = {
      {0x20, 0x20},       {0xA0, 0xA0},       {0xAD, 0xAD},     {0x34F, 0x34F},
      {0x61C, 0x61C},     {0x115F, 0x1160},   {0x1680, 0x1680}, {0x17B4, 0x17B5},
      {0x180B, 0x180F},   {0x2000, 0x200F},   {0x202F, 0x202F}, {0x205F, 0x206F},
      {0x2800, 0x2800},   {0x3000, 0x3000},   {0x3164, 0x3164}, {0xFE00, 0xFE0F},
      {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3},
      {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
  };
  for (const auto& [lo, hi] : kRanges) {
    if (cp >= lo && cp <= hi) return true;
  }
  return false;
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
  bool visible = false;
  for (size_t i = 0; i < name.size();) {
    uint32_t cp = 0;
    int len = Utf8Len(name, i, &cp);
    if (len == 0) return absl::InvalidArgumentError("display_name: not valid UTF-8");
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029) {
      return absl::InvalidArgumentError("display_name: control characters are not allowed");
    }
    if (IsDirectionControl(cp)) {
      return absl::InvalidArgumentError(
          "display_name: text-direction controls (U+202A-U+202E, U+2066-U+2069) are not "
          "allowed");
    }
    visible = visible || !IsInvisible(cp);
    i += len;
    ++count;
  }
  if (count > 24) return absl::InvalidArgumentError("display_name: at most 24 characters");
  if (!visible) {
    return absl::InvalidArgumentError("display_name: needs at least one visible character");
  }
  return std::string(name);
}

absl::Status CheckId(absl::string_view field, absl::string_view id) {
  if (id.empty()) return absl::InvalidArgumentError(absl::StrCat(field, ": empty"));
  if (id.size() > 64) return absl::InvalidArgumentError(absl::StrCat(field, ": too long"));
  return absl::OkStatus();
}

}  // namespace tablero::matchmaking
