// The envelope every encoded game state travels in, plus small byte writer/reader
// helpers the engines use for their payloads. The envelope is
//   "TB" | kind (1 byte) | version (1 byte) | payload | CRC-32 of everything before (4 bytes)
// so that a state of another kind, another version, or with flipped bits is refused before
// an engine looks at it. Engines still validate the payload: the checksum is not a
// signature, and a client may send anything.
#ifndef TABLERO_LIBS_GAME_CODEC_H_
#define TABLERO_LIBS_GAME_CODEC_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/game/game.h"

namespace tablero::game {

// Largest encoded state any engine accepts (a long shogi game with history fits easily).
inline constexpr size_t kMaxStateBytes = 1 << 20;

uint32_t Crc32(absl::string_view bytes);

std::string WrapState(Kind kind, uint8_t version, absl::string_view payload);

struct Envelope {
  Kind kind = Kind::kUnknown;
  uint8_t version = 0;
  absl::string_view payload;  // points into the bytes given to UnwrapState
};
// INVALID_ARGUMENT naming the problem: too short/long, bad magic, unknown kind, checksum.
absl::StatusOr<Envelope> UnwrapState(absl::string_view bytes);

class ByteWriter {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void Varint(uint64_t v);
  void Str(absl::string_view s);  // varint length + bytes
  void Raw(absl::string_view s) { out_.append(s.data(), s.size()); }
  void U64(uint64_t v);  // little-endian fixed 8 bytes
  void Reserve(size_t n) { out_.reserve(n); }
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
  uint8_t U8();
  uint64_t Varint();
  std::string Str(size_t max_len = 1 << 16);
  uint64_t U64();
  bool ok() const { return ok_; }
  bool done() const { return in_.empty(); }
  size_t remaining() const { return in_.size(); }

 private:
  absl::string_view in_;
  bool ok_ = true;
};

}  // namespace tablero::game

#endif  // TABLERO_LIBS_GAME_CODEC_H_
