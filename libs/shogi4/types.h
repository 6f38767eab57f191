// Basic types of the four-player shogi engine: squares, pieces, moves, directions.
// Internal header (usable by other libs, e.g. the bot's search), not part of game::Game.
//
// Squares are 0..80, index = rank * 9 + col, rank 0 = rank "a" (north edge), col 0 = file 9
// (seat 0's left). Seats: 0 south, 1 west, 2 north, 3 east; seat s's forward is "facing s".
#ifndef TABLERO_LIBS_SHOGI4_TYPES_H_
#define TABLERO_LIBS_SHOGI4_TYPES_H_

#include <cstdint>

namespace tablero::shogi4 {

inline constexpr int kSeats = 4;
inline constexpr int kSquares = 81;
inline constexpr int kOwnerless = 4;  // owner value of ownerless pieces (option)
inline constexpr int kNoSquare = 127;

inline constexpr int RankOf(int sq) { return sq / 9; }
inline constexpr int ColOf(int sq) { return sq % 9; }
inline constexpr int MakeSquare(int rank, int col) { return rank * 9 + col; }

// Piece types. Promoted types follow the unpromoted ones so that Unpromote is a table.
enum PieceType : uint8_t {
  kNone = 0,
  kPawn = 1,
  kSilver = 2,
  kGold = 3,
  kRook = 4,
  kKing = 5,
  kProPawn = 6,
  kProSilver = 7,
  kDragon = 8,
  kPieceTypes = 9,
};

// Hand slots: 0 pawn, 1 silver, 2 gold, 3 rook (= type - 1 for unpromoted types).
inline constexpr int kHandTypes = 4;
inline constexpr int HandIndex(int type) { return type - 1; }
inline constexpr int HandType(int index) { return index + 1; }

inline constexpr uint8_t kUnpromoted[kPieceTypes] = {kNone, kPawn, kSilver, kGold, kRook,
                                                     kKing, kPawn, kSilver, kRook};
inline constexpr uint8_t kPromoted[kPieceTypes] = {kNone, kProPawn, kProSilver, kNone, kDragon,
                                                   kNone, kNone,    kNone,      kNone};
inline constexpr bool CanPromote(int type) { return kPromoted[type] != kNone; }

// A board cell packs type (4 bits), owner (3 bits: 0-3 seats, 4 ownerless) and facing
// (2 bits). 0 = empty.
using Cell = uint16_t;
inline constexpr Cell MakeCell(int type, int owner, int facing) {
  return static_cast<Cell>(type | (owner << 4) | (facing << 7));
}
inline constexpr int TypeOf(Cell c) { return c & 15; }
inline constexpr int OwnerOf(Cell c) { return (c >> 4) & 7; }
inline constexpr int FacingOf(Cell c) { return (c >> 7) & 3; }

// Directions in board terms: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW (N = towards rank
// "a", E = towards file 1). A piece facing f has its forward at direction 2 * f.
inline constexpr int kDirRank[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
inline constexpr int kDirCol[8] = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr int Forward(int facing) { return 2 * facing; }

// Move: to (7 bits) | from (7 bits, kNoSquare for drops) | promote (1 bit) | drop type
// (4 bits). 0 is never a valid move (from == to == 0 is impossible).
using Move = uint32_t;
inline constexpr Move MakeBoardMove(int from, int to, bool promote) {
  return static_cast<Move>(to | (from << 7) | (promote ? 1u << 14 : 0u));
}
inline constexpr Move MakeDrop(int type, int to) {
  return static_cast<Move>(to | (kNoSquare << 7) | (type << 15));
}
inline constexpr int MoveTo(Move m) { return m & 127; }
inline constexpr int MoveFrom(Move m) { return (m >> 7) & 127; }
inline constexpr bool IsDrop(Move m) { return MoveFrom(m) == kNoSquare; }
inline constexpr bool IsPromotion(Move m) { return (m >> 14) & 1; }
inline constexpr int DropType(Move m) { return (m >> 15) & 15; }

// Fixed-capacity move buffer (no allocation in search). The bound is generous: pieces
// of one seat have at most ~20 destinations each, doubled by promotion, plus drops.
struct MoveList {
  static constexpr int kCapacity = 4096;
  Move moves[kCapacity];
  int size = 0;
  void Add(Move m) {
    if (size < kCapacity) moves[size++] = m;
  }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
};

enum class Format : uint8_t { kSingles, kPairs };
enum class Ending : uint8_t { kTwoMates, kLastOneStanding };

// The rule options the engine enforces (room-level options live in the adapter).
struct Rules {
  Format format = Format::kSingles;
  Ending ending = Ending::kTwoMates;
  bool ownerless = false;           // mated_pieces=ownerless
  uint32_t move_limit = 0;          // 0 = none
  bool pawn_before_flipped = true;  // pawn_before_flipped_king_forbidden
};

// Why a game ended.
enum class EndReason : uint8_t {
  kNone = 0,
  kTwoMates,
  kLastOneStanding,
  kPairsMate,
  kFourthOccurrence,
  kMoveLimit,
};

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_TYPES_H_
