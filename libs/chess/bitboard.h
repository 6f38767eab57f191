// Bitboards and attack tables. Slider attacks use fancy magic bitboards, portable to any
// x86-64 or other 64-bit CPU. Configuring with -DTABLERO_CHESS_BMI2=ON defines
// TABLERO_CHESS_PEXT and adds -mbmi2 for every user of this header (a PUBLIC property of
// tablero_chess, so all code agrees on the table layout); the same tables are then indexed
// with PEXT instead. InitTables() must run once before any lookup; Position's constructors and the
// FEN parser call it, so users of Position never need to.
#ifndef TABLERO_LIBS_CHESS_BITBOARD_H_
#define TABLERO_LIBS_CHESS_BITBOARD_H_

#include <bit>
#include <cstdint>

#ifdef TABLERO_CHESS_PEXT
#include <immintrin.h>
#define TABLERO_CHESS_USE_PEXT 1
#endif

#include "libs/chess/types.h"

namespace tablero::chess {

void InitTables();  // idempotent and thread-safe

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard Rank(int r) { return kRank1 << (8 * r); }
constexpr Bitboard File(int f) { return kFileA << f; }
constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard Bit(Square s) { return 1ULL << s; }
inline int Popcount(Bitboard b) { return std::popcount(b); }
inline Square Lsb(Bitboard b) { return std::countr_zero(b); }
inline Square PopLsb(Bitboard& b) {
  Square s = Lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool MoreThanOne(Bitboard b) { return b & (b - 1); }

// Shifts toward north (+8), south, and the diagonals, dropping bits that wrap a file.
template <int D>
constexpr Bitboard Shift(Bitboard b) {
  if constexpr (D == 8) return b << 8;
  if constexpr (D == -8) return b >> 8;
  if constexpr (D == 9) return (b & ~kFileH) << 9;
  if constexpr (D == 7) return (b & ~kFileA) << 7;
  if constexpr (D == -7) return (b & ~kFileH) >> 7;
  if constexpr (D == -9) return (b & ~kFileA) >> 9;
  return 0;
}

struct Magic {
  Bitboard mask;
  Bitboard magic;
  Bitboard* attacks;
  unsigned shift;
  unsigned Index(Bitboard occ) const {
#ifdef TABLERO_CHESS_USE_PEXT
    return unsigned(_pext_u64(occ, mask));
#else
    return unsigned(((occ & mask) * magic) >> shift);
#endif
  }
};

namespace tables {
extern Bitboard pawn_attacks[2][64];
extern Bitboard knight[64];
extern Bitboard king[64];
extern Bitboard between[64][64];  // squares strictly between two aligned squares, else 0
extern Bitboard line[64][64];     // the whole line through two aligned squares, else 0
extern Magic rook_magic[64];
extern Magic bishop_magic[64];
}  // namespace tables

inline Bitboard PawnAttacks(Color c, Square s) { return tables::pawn_attacks[c][s]; }
inline Bitboard KnightAttacks(Square s) { return tables::knight[s]; }
inline Bitboard KingAttacks(Square s) { return tables::king[s]; }
inline Bitboard RookAttacks(Square s, Bitboard occ) {
  const Magic& m = tables::rook_magic[s];
  return m.attacks[m.Index(occ)];
}
inline Bitboard BishopAttacks(Square s, Bitboard occ) {
  const Magic& m = tables::bishop_magic[s];
  return m.attacks[m.Index(occ)];
}
inline Bitboard QueenAttacks(Square s, Bitboard occ) {
  return RookAttacks(s, occ) | BishopAttacks(s, occ);
}
inline Bitboard Between(Square a, Square b) { return tables::between[a][b]; }
inline Bitboard Line(Square a, Square b) { return tables::line[a][b]; }

// Attacks of a non-pawn piece type from s.
inline Bitboard Attacks(PieceType t, Square s, Bitboard occ) {
  switch (t) {
    case kKnight:
      return KnightAttacks(s);
    case kBishop:
      return BishopAttacks(s, occ);
    case kRook:
      return RookAttacks(s, occ);
    case kQueen:
      return QueenAttacks(s, occ);
    case kKing:
      return KingAttacks(s);
    default:
      return 0;
  }
}

// Pawn attacks of a whole set of pawns.
template <Color C>
constexpr Bitboard PawnAttacksSet(Bitboard pawns) {
  return C == kWhite ? Shift<7>(pawns) | Shift<9>(pawns) : Shift<-7>(pawns) | Shift<-9>(pawns);
}

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_BITBOARD_H_
