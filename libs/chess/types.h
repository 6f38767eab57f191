// Basic chess types shared by the engine: colours, pieces, squares and the 16-bit move.
// Square 0 is a1, 7 is h1, 63 is h8 (little-endian rank-file mapping).
#ifndef TABLERO_LIBS_CHESS_TYPES_H_
#define TABLERO_LIBS_CHESS_TYPES_H_

#include <cstdint>

namespace tablero::chess {

using Bitboard = uint64_t;

enum Color : uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : uint8_t { kPawn = 0, kKnight, kBishop, kRook, kQueen, kKing, kNoPieceType };

// Piece = colour * 6 + type; kNoPiece marks an empty square in the mailbox.
enum Piece : uint8_t { kNoPiece = 12 };
constexpr Piece MakePiece(Color c, PieceType t) { return Piece(c * 6 + t); }
constexpr Color ColorOf(Piece p) { return Color(p >= 6); }
constexpr PieceType TypeOf(Piece p) { return PieceType(p % 6); }

using Square = int;
constexpr Square kNoSquare = 64;
constexpr int FileOf(Square s) { return s & 7; }
constexpr int RankOf(Square s) { return s >> 3; }
constexpr Square MakeSquare(int file, int rank) { return rank * 8 + file; }
// Rank seen from `c`'s side: 0 is c's back rank.
constexpr int RelativeRank(Color c, Square s) { return c == kWhite ? RankOf(s) : 7 - RankOf(s); }

// Castling rights, one bit each.
enum : uint8_t { kWhiteOO = 1, kWhiteOOO = 2, kBlackOO = 4, kBlackOOO = 8, kAllCastling = 15 };

// A move in 16 bits: from (0-5), to (6-11), promotion piece - knight (12-13), kind (14-15).
// Castling is encoded as the king's move (e1g1), as in UCI.
class Move {
 public:
  enum Kind : uint16_t {
    kNormal = 0,
    kPromotion = 1 << 14,
    kEnPassant = 2 << 14,
    kCastling = 3 << 14
  };

  constexpr Move() = default;
  constexpr explicit Move(uint16_t raw) : raw_(raw) {}
  static constexpr Move Make(Square from, Square to, Kind kind = kNormal,
                             PieceType promo = kKnight) {
    return Move(uint16_t(from | (to << 6) | ((promo - kKnight) << 12) | kind));
  }

  constexpr Square from() const { return raw_ & 63; }
  constexpr Square to() const { return (raw_ >> 6) & 63; }
  constexpr Kind kind() const { return Kind(raw_ & (3 << 14)); }
  constexpr PieceType promotion() const { return PieceType(((raw_ >> 12) & 3) + kKnight); }
  constexpr uint16_t raw() const { return raw_; }
  constexpr bool ok() const { return from() != to(); }
  constexpr bool operator==(const Move& o) const { return raw_ == o.raw_; }

 private:
  uint16_t raw_ = 0;
};

// Upper bound on legal moves: far above the 218 of any reachable position, and enough for
// any position the FEN parser accepts (at most 16 pieces a side).
constexpr int kMaxMoves = 512;

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_TYPES_H_
