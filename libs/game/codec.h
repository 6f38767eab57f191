// The envelope every encoded game state travels in, plus small byte writer/reader
// helpers the engines use for their payloads. The envelope is
//   "TB" | kind (1 byte) | version (1 byte) | payload | CRC-32 of everything before (4 bytes)
// so that a state of another kind, another version, or with flipped bits is refused before
// an engine looks at it. Engines still validate the payload: the checksum is not a
// signature, and a client may send anything.
#ifndef TABLERO_LIBS_GAME_CODEC_H_
#define TABLERO_LIBS_GAME_CODEC_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/game/game.h"

namespace tablero::game {

// Largest encoded state any engine accepts (a long shogi game with history fits easily).
inline constexpr size_t kMaxStateBytes = 1 << 20;

// zlib's crc32 of `bytes` (crc32.cc).
uint32_t Crc32(absl::string_view bytes);

std::string WrapState(Kind kind, uint8_t version, absl::string_view payload);

struct Envelope {
  Kind kind = Kind::kUnknown;
  uint8_t version = 0;
  absl::string_view payload;  // points into the bytes given to UnwrapState
};
// INVALID_ARGUMENT naming the problem: too short/long, bad magic, unknown kind, checksum.
absl::StatusOr<Envelope> UnwrapState(absl::string_view bytes);

// Little-endian fixed 8 bytes at `p`. One unaligned move on a little-endian host: GCC 12
// does not merge the byte-by-byte loop into one load, which cost 29 instructions a key in
// four-player shogi's repetition count (a scan of the whole history on every move).
inline void PutU64(char* p, uint64_t v) {
  if constexpr (std::endian::native != std::endian::little) v = __builtin_bswap64(v);
  std::memcpy(p, &v, sizeof v);
}
inline uint64_t GetU64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native != std::endian::little) v = __builtin_bswap64(v);
  return v;
}

// Inline: decoders and encoders call these once per byte on every rules request.
class ByteWriter {
 public:
  ByteWriter() = default;
  // Writes into `room`'s buffer, emptied first: an encoder handed the string of its last
  // state allocates nothing (Game::EncodeInto).
  explicit ByteWriter(std::string&& room) : out_(std::move(room)) { out_.clear(); }
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void Varint(uint64_t v) {
    char b[10];
    int n = 0;
    while (v >= 0x80) {
      b[n++] = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    b[n++] = static_cast<char>(v);
    out_.append(b, n);
  }
  void Str(absl::string_view s) {  // varint length + bytes
    Varint(s.size());
    Raw(s);
  }
  void Raw(absl::string_view s) { out_.append(s.data(), s.size()); }
  void U64(uint64_t v) {  // little-endian fixed 8 bytes
    char b[8];
    PutU64(b, v);
    out_.append(b, 8);
  }
  // Room for `n` bytes the caller fills in one go (per-byte calls check capacity each).
  char* Extend(size_t n) {
    const size_t at = out_.size();
    out_.resize(at + n);
    return out_.data() + at;
  }
  void Reserve(size_t n) { out_.reserve(n); }
  // An envelope written in place (WrapState copies a finished payload into a new string):
  // BeginState reserves room for it and writes the header, the payload follows, and
  // FinishState appends the CRC of it all and hands the bytes over.
  void BeginState(Kind kind, uint8_t version, size_t payload_bytes);
  std::string FinishState();
  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads never run past the end: once a read fails, ok() is false and every later read
// returns 0 / empty, so decoders check ok() once at the end (and bounds on values).
class ByteReader {
 public:
  explicit ByteReader(absl::string_view in) : in_(in) {}
  uint8_t U8() {
    if (!ok_ || in_.empty()) return Fail();
    const uint8_t v = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return v;
  }
  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t b = U8();
      if (!ok_) return 0;
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    return Fail();
  }
  std::string Str(size_t max_len = 1 << 16);
  uint64_t U64() {
    if (!ok_ || in_.size() < 8) {
      in_ = {};
      return Fail();
    }
    const uint64_t v = GetU64(in_.data());
    in_.remove_prefix(8);
    return v;
  }
  // The next `n` bytes, for a caller that reads them in one go; empty once failed.
  absl::string_view Bytes(size_t n) {
    if (!ok_ || in_.size() < n) {
      in_ = {};
      Fail();
      return {};
    }
    const absl::string_view v = in_.substr(0, n);
    in_.remove_prefix(n);
    return v;
  }
  bool ok() const { return ok_; }
  bool done() const { return in_.empty(); }
  size_t remaining() const { return in_.size(); }

 private:
  uint8_t Fail() {
    ok_ = false;
    return 0;
  }

  absl::string_view in_;
  bool ok_ = true;
};

}  // namespace tablero::game

#endif  // TABLERO_LIBS_GAME_CODEC_H_
