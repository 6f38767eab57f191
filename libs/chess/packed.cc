// The compact binary position used inside encoded game states (see position.h).
#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "libs/chess/position.h"
#include "libs/game/codec.h"

namespace tablero::chess {
namespace {

[[gnu::cold]] absl::Status Bad(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("packed position: ", why));
}

// Why Unpack refuses pieces cut short by the end of the bytes: a bad piece code among those
// there, else the truncation (as when the nibbles were read a byte at a time).
[[gnu::noinline, gnu::cold]] absl::Status Truncated(game::ByteReader* r, Bitboard occ) {
  int i = 0;
  uint8_t byte = 0;
  for (Bitboard b = occ; b; b &= b - 1, ++i) {
    if (i % 2 == 0) byte = r->U8();
    const int p = i % 2 ? byte >> 4 : byte & 15;
    if (p >= kNoPiece) return Bad("bad piece code");
  }
  return Bad("truncated");
}

}  // namespace

char* Position::Pack(char* out) const {
  game::PutU64(out, pieces());
  out += 8;
  for (Bitboard b = pieces(); b;) {
    const int lo = board_[PopLsb(b)];
    const int hi = b ? board_[PopLsb(b)] : 0;  // an odd count ends with a zero nibble
    *out++ = char(lo | hi << 4);
  }
  *out++ = char(side_ | castling_ << 1);
  *out++ = char(ep_ == kNoSquare ? 0 : FileOf(ep_) + 1);
  out = detail::PutVarint(out, halfmove_);
  return detail::PutVarint(out, fullmove_);
}

void Position::Pack(game::ByteWriter* w) const {
  char buf[kMaxPacked];
  w->Raw(absl::string_view(buf, size_t(Pack(buf) - buf)));
}

absl::StatusOr<Position> Position::Unpack(game::ByteReader* r) {
  Position pos;
  const Bitboard occ = r->U64();
  if (!r->ok()) return Bad("truncated");
  if (Popcount(occ) > 32) return Bad("over 32 pieces");
  const int count = Popcount(occ);
  const size_t bytes = size_t(count + 1) / 2;
  if (r->remaining() < bytes) return Truncated(r, occ);
  // All the nibbles in one read (a check per byte costs more than the rest of a piece).
  const char* in = r->Bytes(bytes).data();
  Bitboard b = occ;
  for (size_t k = 0; k < bytes; ++k) {  // two pieces a byte, low nibble first
    const int lo = uint8_t(in[k]) & 15, hi = uint8_t(in[k]) >> 4;
    if (lo >= kNoPiece) return Bad("bad piece code");
    ABSL_ASSUME(b != 0);  // bytes = ceil(count / 2): a piece is left (GCC cannot see it)
    pos.Put(Piece(lo), PopLsb(b));
    if (!b) {
      if (hi) return Bad("bad padding");  // an odd count ends with a zero nibble
      break;
    }
    if (hi >= kNoPiece) return Bad("bad piece code");
    pos.Put(Piece(hi), PopLsb(b));
  }
  const uint8_t flags = r->U8(), ep = r->U8();
  const uint64_t half = r->Varint(), full = r->Varint();
  if (!r->ok()) return Bad("truncated");
  if (flags > 31) return Bad("bad side or castling");
  if (ep > 8) return Bad("bad en passant file");
  // The clocks may exceed the FEN limits by the longest game a state may hold.
  if (half > 30000 || full < 1 || full > 30000) return Bad("clock out of range");
  pos.side_ = Color(flags & 1);
  pos.castling_ = flags >> 1;
  if (ep) pos.ep_ = uint8_t(MakeSquare(ep - 1, pos.side_ == kWhite ? 5 : 2));
  pos.halfmove_ = uint16_t(half);
  pos.fullmove_ = uint16_t(full);
  if (const char* why = pos.Problem()) return Bad(why);
  // Put kept the pieces' part of the key (ComputeKey's loop over the board, again).
  pos.key_ ^= zobrist::castling[pos.castling_];
  if (pos.side_ == kBlack) pos.key_ ^= zobrist::side;
  if (pos.ep_ != kNoSquare) pos.key_ ^= zobrist::ep_file[FileOf(pos.ep_)];
  return pos;
}

}  // namespace tablero::chess
