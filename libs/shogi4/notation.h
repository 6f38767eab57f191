// Text notation of positions and moves (see README.md in this folder for the grammar).
//
// Move:     "7g7f", "7g7f+" (promoting), "P*5e" (drop). Squares as in shogi from seat 0's
//           view: file digit 1-9 (right to left), rank letter a-i (north to south).
// Position: "<board> <to-move> <hands> <eliminated> <ply>", board ranks a..i separated by
//           '/', files 9..1, digits for empty runs, each piece "[+]<letter><owner><facing>"
//           (letter K R G S P, or k for a flipped king; owner 0-3 or x for ownerless;
//           facing n e s w = the forward of seat 0 1 2 3).
#ifndef TABLERO_LIBS_SHOGI4_NOTATION_H_
#define TABLERO_LIBS_SHOGI4_NOTATION_H_

#include <array>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/shogi4/position.h"
#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {

std::string SquareName(int sq);
// SquareName and PieceName from a table that lives for the whole process (no string
// built). Inline: a view names every piece.
struct NameTable {
  char square[kSquares][2];
  char piece[kPieceTypes][2];  // "+" first when promoted
};
extern const NameTable kNameTable;
inline absl::string_view SquareNameView(int sq) {
  return absl::string_view(kNameTable.square[sq], 2);
}
inline absl::string_view PieceNameView(int type) {
  return absl::string_view(kNameTable.piece[type], type >= kProPawn ? 2 : 1);
}
absl::StatusOr<int> ParseSquare(absl::string_view text);
// "P", "S", "G", "R", "K", "+P", "+S", "+R".
std::string PieceName(int type);

std::string MoveText(Move m);
// MoveText written at `out` (room for kMaxMoveText characters): its length. No StrCat:
// the text is at most five characters.
inline constexpr int kMaxMoveText = 5;
int WriteMoveText(Move m, char* out);
// Syntax only (INVALID_ARGUMENT when malformed); legality is the caller's business.
absl::StatusOr<Move> ParseMoveText(absl::string_view text);

std::string PositionText(const Position& pos);
// PositionText written at `out` (room for kMaxPositionText characters): the end. The
// longest text (nine ranks of nine 4-character pieces, full hands, three mates, a 10-digit
// ply) is under 450 characters.
inline constexpr size_t kMaxPositionText = 512;
char* WritePosition(const Position& pos, char* out);
// Parses and validates a position; `rules` are the game's options. The ending state
// (mates, move limit) follows from the text and the rules.
absl::StatusOr<Position> ParsePosition(absl::string_view text, const Rules& rules);
// The ending implied by pos's mates and move count (pos.over), and the check that the
// rules allow that many mates; ParsePosition and the binary state decoding share it.
absl::Status SetEnding(Position& pos);
// Puts a piece read from a position (text or binary state) on its square, with the checks
// every reader applies: a king's owner (counted in `kings`), a mated seat's pieces, a pawn
// that could never move.
// Inline (a decode places every piece), with the refusal's text out of line.
absl::Status PlaceError(const Position& pos, int sq, int type, int owner);
// Tables::last as one set of squares per facing (one cache line for all four, where a
// decode's pawns read up to six of Tables::last).
inline constexpr auto kLastRank = [] {
  std::array<Squares, 4> last{};
  for (int sq = 0; sq < kSquares; ++sq) {
    const int r = RankOf(sq), c = ColOf(sq);
    if (r == 0) last[0] |= SquareBit(sq);
    if (c == 8) last[1] |= SquareBit(sq);
    if (r == 8) last[2] |= SquareBit(sq);
    if (c == 0) last[3] |= SquareBit(sq);
  }
  return last;
}();
inline absl::Status PlacePiece(Position& pos, int sq, int type, int owner, int facing,
                               int kings[kSeats]) {
  const bool refused =
      type == kKing ? owner == kOwnerless : owner != kOwnerless && !pos.Alive(owner);
  if (refused || (type == kPawn && ((kLastRank[facing] >> sq) & 1) != 0)) {
    return PlaceError(pos, sq, type, owner);
  }
  if (type == kKing) {
    ++kings[owner];
    pos.king[owner] = static_cast<uint8_t>(sq);
  }
  pos.board[sq] = MakeCell(type, owner, facing);
  pos.pieces[owner] |= SquareBit(sq);
  return absl::OkStatus();
}

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_NOTATION_H_
