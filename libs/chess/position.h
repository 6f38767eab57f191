// The chess position: bitboards by type and colour plus a mailbox, incremental Zobrist key.
// Small (about 150 bytes) and trivially copyable, so search and perft use copy-make:
//   Position next = pos; next.DoMove(m);
// DoMove trusts that `m` is legal here (from the move generator or a parser).
#ifndef TABLERO_LIBS_CHESS_POSITION_H_
#define TABLERO_LIBS_CHESS_POSITION_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/chess/bitboard.h"
#include "libs/chess/types.h"

namespace tablero::game {
class ByteReader;
class ByteWriter;
}  // namespace tablero::game

namespace tablero::chess {

inline constexpr absl::string_view kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

namespace zobrist {
extern uint64_t piece_square[12][64];
extern uint64_t castling[16];
extern uint64_t ep_file[8];
extern uint64_t side;
}  // namespace zobrist

class Position {
 public:
  Position();  // empty board, White to move (use ParseFen / StartPosition for real ones)

  // FEN in and out (fen.cc). Parsing refuses anything malformed or impossible to play
  // from: wrong field counts, not one king per side, pawns on the back ranks, more than 16
  // pieces a side, castling rights without king and rook at home, an en passant square
  // without the pawn that just moved, the side not to move in check.
  static absl::StatusOr<Position> ParseFen(absl::string_view fen);
  static Position StartPosition();
  // The en passant square is written only when an en passant capture is legal, so equal
  // positions (in the repetition sense) give equal FENs up to the move counters.
  std::string Fen() const;
  void Fen(std::string* out) const;  // into `out`, keeping its room

  // Compact binary form for encoded game states (packed.cc): occupancy (8 bytes), a nibble
  // per piece in square order, side | castling << 1, en passant file + 1 (0: none), then
  // the two clocks as varints; at most kMaxPacked bytes. Parsing checks everything ParseFen
  // checks (the bytes may come from a client) and refuses non-canonical forms.
  static constexpr int kMaxPacked = 32;
  void Pack(game::ByteWriter* w) const;
  char* Pack(char* out) const;  // the same bytes at `out`; returns their end
  static absl::StatusOr<Position> Unpack(game::ByteReader* r);

  Color side_to_move() const { return side_; }
  Bitboard pieces() const { return by_color_[0] | by_color_[1]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  Piece piece_on(Square s) const { return Piece(board_[s]); }
  Square king_square(Color c) const { return Lsb(pieces(c, kKing)); }
  uint8_t castling() const { return castling_; }
  // Set after a double step only when an enemy pawn stands beside the pawn (so a capture is
  // at least pseudo-legal); kNoSquare otherwise.
  Square ep_square() const { return ep_; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  uint64_t key() const { return key_; }

  // Pieces of either colour attacking s given occupancy occ.
  Bitboard AttackersTo(Square s, Bitboard occ) const;
  // Is s attacked by any piece of colour `by` (with the current occupancy)?
  bool Attacked(Square s, Color by) const { return AttackersTo(s, pieces()) & pieces(by); }
  bool InCheck() const { return Checkers() != 0; }
  // The piece a move moves, and whether it captures (en passant included).
  Piece moved_piece(Move m) const { return piece_on(m.from()); }
  bool IsCapture(Move m) const {
    return m.kind() == Move::kEnPassant ||
           (m.kind() != Move::kCastling && piece_on(m.to()) != kNoPiece);
  }
  Bitboard Checkers() const { return AttackersTo(king_square(side_), pieces()) & pieces(~side_); }

  void DoMove(Move m);
  // DoMove out of line: the rules service's path (Decode, the parse, Play) plays one move
  // at a time, and shares this one copy of its code.
  void PlayMove(Move m);
  // Passes the turn (for null-move search); only when not in check.
  void DoNullMove();

  // Material only, as in the rules: K v K, K+N v K, K+B v K, and bishops (any number, both
  // sides) all on squares of one colour with nothing else.
  bool InsufficientMaterial() const;
  // True when `c`'s pieces alone could never mate a bare king: K, K+N, or K and bishops all
  // on one colour (used by the FIDE resignation exception).
  bool CannotMateAlone(Color c) const;

  uint64_t ComputeKey() const;  // from scratch; equals key() (tests use it)
  bool operator==(const Position& o) const;

 private:
  void Put(Piece p, Square s);
  void Remove(Square s);
  // Why this position (all fields set) cannot occur in play, or null: the checks shared by
  // ParseFen and Unpack.
  const char* Problem() const;

  Bitboard by_type_[6];
  Bitboard by_color_[2];
  uint8_t board_[64];
  uint64_t key_;
  Color side_;
  uint8_t castling_;
  uint8_t ep_;
  uint16_t halfmove_;
  uint16_t fullmove_;
};

// Hot-path members, inline so that search and perft loops can inline them.
namespace detail {
// LEB128 as game::ByteWriter::Varint writes it, at `out`; returns the end.
inline char* PutVarint(char* out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) *out++ = char(v | 0x80);
  *out++ = char(v);
  return out;
}

// Rights that survive a move touching each square (king and rook home squares clear them).
inline constexpr auto kCastlingMask = [] {
  struct {
    uint8_t v[64];
  } m{};
  for (int s = 0; s < 64; ++s) m.v[s] = kAllCastling;
  m.v[0] = kAllCastling & ~kWhiteOOO;
  m.v[7] = kAllCastling & ~kWhiteOO;
  m.v[4] = kAllCastling & ~(kWhiteOO | kWhiteOOO);
  m.v[56] = kAllCastling & ~kBlackOOO;
  m.v[63] = kAllCastling & ~kBlackOO;
  m.v[60] = kAllCastling & ~(kBlackOO | kBlackOOO);
  return m;
}();

}  // namespace detail

inline void Position::Put(Piece p, Square s) {
  board_[s] = p;
  by_type_[TypeOf(p)] |= Bit(s);
  by_color_[ColorOf(p)] |= Bit(s);
  key_ ^= zobrist::piece_square[p][s];
}

inline void Position::Remove(Square s) {
  Piece p = Piece(board_[s]);
  board_[s] = kNoPiece;
  by_type_[TypeOf(p)] ^= Bit(s);
  by_color_[ColorOf(p)] ^= Bit(s);
  key_ ^= zobrist::piece_square[p][s];
}

inline void Position::DoMove(Move m) {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece pc = Piece(board_[from]);
  key_ ^= zobrist::side ^ zobrist::castling[castling_];
  if (ep_ != kNoSquare) {
    key_ ^= zobrist::ep_file[FileOf(ep_)];
    ep_ = kNoSquare;
  }
  ++halfmove_;
  if (m.kind() == Move::kCastling) {
    const bool king_side = to > from;
    const Square rook_from = king_side ? from + 3 : from - 4;
    const Square rook_to = king_side ? from + 1 : from - 1;
    const Piece rook = Piece(board_[rook_from]);
    Remove(from);
    Remove(rook_from);
    Put(pc, to);
    Put(rook, rook_to);
  } else {
    if (m.kind() == Move::kEnPassant) {
      Remove(to ^ 8);
    } else if (board_[to] != kNoPiece) {
      Remove(to);
      halfmove_ = 0;
    }
    Remove(from);
    Put(m.kind() == Move::kPromotion ? MakePiece(us, m.promotion()) : pc, to);
    if (TypeOf(pc) == kPawn) {
      halfmove_ = 0;
      if ((from ^ to) == 16) {
        const Square ep = (from + to) / 2;
        if (PawnAttacks(us, ep) & pieces(them, kPawn)) {
          ep_ = uint8_t(ep);
          key_ ^= zobrist::ep_file[FileOf(ep)];
        }
      }
    }
  }
  castling_ &= detail::kCastlingMask.v[from] & detail::kCastlingMask.v[to];
  key_ ^= zobrist::castling[castling_];
  if (us == kBlack) ++fullmove_;
  side_ = them;
}

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_POSITION_H_
