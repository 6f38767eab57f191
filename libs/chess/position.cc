#include "libs/chess/position.h"

#include <cstring>

namespace tablero::chess {

namespace zobrist {
uint64_t piece_square[12][64];
uint64_t castling[16];
uint64_t ep_file[8];
uint64_t side;
}  // namespace zobrist

namespace {

void InitZobrist() {
  uint64_t s = 0x2545F4914F6CDD1DULL;  // splitmix64 with a fixed seed: stable keys
  auto next = [&s] {
    uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (auto& p : zobrist::piece_square)
    for (auto& k : p) k = next();
  for (auto& k : zobrist::ep_file) k = next();
  zobrist::side = next();
  // Castling keys compose from one key per right, so that key(a|b) = key(a) ^ key(b).
  uint64_t right[4] = {next(), next(), next(), next()};
  for (int c = 0; c < 16; ++c) {
    zobrist::castling[c] = 0;
    for (int i = 0; i < 4; ++i)
      if (c & (1 << i)) zobrist::castling[c] ^= right[i];
  }
}

}  // namespace

Position::Position() {
  static const bool init = [] {
    InitTables();
    InitZobrist();
    return true;
  }();
  (void)init;
  std::memset(by_type_, 0, sizeof(by_type_));
  std::memset(by_color_, 0, sizeof(by_color_));
  std::memset(board_, kNoPiece, sizeof(board_));
  key_ = 0;
  side_ = kWhite;
  castling_ = 0;
  ep_ = kNoSquare;
  halfmove_ = 0;
  fullmove_ = 1;
}

Position Position::StartPosition() { return *ParseFen(kStartFen); }

Bitboard Position::AttackersTo(Square s, Bitboard occ) const {
  return (PawnAttacks(kBlack, s) & pieces(kWhite, kPawn)) |
         (PawnAttacks(kWhite, s) & pieces(kBlack, kPawn)) | (KnightAttacks(s) & by_type_[kKnight]) |
         (KingAttacks(s) & by_type_[kKing]) | (RookAttacks(s, occ) & pieces(kRook, kQueen)) |
         (BishopAttacks(s, occ) & pieces(kBishop, kQueen));
}

void Position::PlayMove(Move m) { DoMove(m); }

void Position::DoNullMove() {
  key_ ^= zobrist::side;
  if (ep_ != kNoSquare) {
    key_ ^= zobrist::ep_file[FileOf(ep_)];
    ep_ = kNoSquare;
  }
  ++halfmove_;
  if (side_ == kBlack) ++fullmove_;
  side_ = ~side_;
}

bool Position::InsufficientMaterial() const {
  if (pieces(kPawn) | pieces(kRook) | pieces(kQueen)) return false;
  const Bitboard knights = pieces(kKnight), bishops = pieces(kBishop);
  if (!knights) return !(bishops & kDarkSquares) || !(bishops & ~kDarkSquares);
  return !bishops && !MoreThanOne(knights);
}

bool Position::CannotMateAlone(Color c) const {
  if (pieces(c, kPawn) | pieces(c, kRook) | pieces(c, kQueen)) return false;
  const Bitboard knights = pieces(c, kKnight), bishops = pieces(c, kBishop);
  if (!knights) return !(bishops & kDarkSquares) || !(bishops & ~kDarkSquares);
  return !bishops && !MoreThanOne(knights);
}

uint64_t Position::ComputeKey() const {
  uint64_t k = zobrist::castling[castling_];
  if (side_ == kBlack) k ^= zobrist::side;
  if (ep_ != kNoSquare) k ^= zobrist::ep_file[FileOf(ep_)];
  for (Square s = 0; s < 64; ++s)
    if (board_[s] != kNoPiece) k ^= zobrist::piece_square[board_[s]][s];
  return k;
}

bool Position::operator==(const Position& o) const {
  return std::memcmp(board_, o.board_, sizeof(board_)) == 0 && side_ == o.side_ &&
         castling_ == o.castling_ && ep_ == o.ep_ && halfmove_ == o.halfmove_ &&
         fullmove_ == o.fullmove_ && key_ == o.key_;
}

}  // namespace tablero::chess
