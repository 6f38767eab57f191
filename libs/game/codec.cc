#include "libs/game/codec.h"

#include "absl/strings/str_cat.h"

namespace tablero::game {
void ByteWriter::BeginState(Kind kind, uint8_t version, size_t payload_bytes) {
  out_.reserve(out_.size() + payload_bytes + 8);
  const char header[4] = {'T', 'B', static_cast<char>(kind), static_cast<char>(version)};
  out_.append(header, sizeof header);
}

std::string ByteWriter::FinishState() {
  const uint32_t crc = Crc32(out_);
  char tail[4];
  for (int i = 0; i < 4; ++i) tail[i] = static_cast<char>((crc >> (8 * i)) & 0xFF);
  out_.append(tail, sizeof tail);
  return std::move(out_);
}

std::string WrapState(Kind kind, uint8_t version, absl::string_view payload) {
  ByteWriter w;
  w.BeginState(kind, version, payload.size());
  w.Raw(payload);
  return w.FinishState();
}

absl::StatusOr<Envelope> UnwrapState(absl::string_view bytes) {
  if (bytes.size() < 8) return absl::InvalidArgumentError("state: too short to be a game state");
  if (bytes.size() > kMaxStateBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("state: ", bytes.size(), " bytes exceeds the limit of ", kMaxStateBytes));
  }
  if (bytes[0] != 'T' || bytes[1] != 'B') {
    return absl::InvalidArgumentError("state: not a tablero game state (bad magic)");
  }
  absl::string_view body = bytes.substr(0, bytes.size() - 4);
  uint32_t want = 0;
  for (int i = 0; i < 4; ++i) {
    want |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[bytes.size() - 4 + i]))
            << (8 * i);
  }
  if (Crc32(body) != want)
    return absl::InvalidArgumentError("state: checksum mismatch (corrupted)");
  Envelope env;
  uint8_t k = static_cast<uint8_t>(bytes[2]);
  if (k < 1 || k > 3)
    return absl::InvalidArgumentError(absl::StrCat("state: unknown game kind ", k));
  env.kind = static_cast<Kind>(k);
  env.version = static_cast<uint8_t>(bytes[3]);
  env.payload = body.substr(4);
  return env;
}

std::string ByteReader::Str(size_t max_len) {
  uint64_t n = Varint();
  if (!ok_ || n > max_len || n > in_.size()) {
    ok_ = false;
    return {};
  }
  std::string s(in_.substr(0, n));
  in_.remove_prefix(n);
  return s;
}

}  // namespace tablero::game
