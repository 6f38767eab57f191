// Move and square notation: UCI long algebraic and SAN, in and out, and PGN export.
// Parsers return INVALID_ARGUMENT for malformed text and FAILED_PRECONDITION for a
// well-formed move that is not legal (or is ambiguous) in the given position.
#ifndef TABLERO_LIBS_CHESS_NOTATION_H_
#define TABLERO_LIBS_CHESS_NOTATION_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/chess/position.h"

namespace tablero::chess {

struct MoveList;

std::string SquareName(Square s);
namespace detail {
// Every square's name, one table for the program (inline: views walk every square).
inline constexpr auto kSquareNames = [] {
  struct {
    char name[64][2];
  } t{};
  for (int s = 0; s < 64; ++s) {
    t.name[s][0] = char('a' + FileOf(s));
    t.name[s][1] = char('1' + RankOf(s));
  }
  return t;
}();
}  // namespace detail

// The same name from a table that lives for the whole process (no string built).
inline absl::string_view SquareNameView(Square s) {
  return absl::string_view(detail::kSquareNames.name[s], 2);
}
absl::StatusOr<Square> ParseSquare(absl::string_view text);

std::string ToUci(Move m);  // "e2e4", "e7e8q", castling as the king's move "e1g1"
absl::StatusOr<Move> ParseUci(const Position& pos, absl::string_view text);
// The parsers and ToSan given `legal`, the legal moves of `pos`, when the caller has them.
absl::StatusOr<Move> ParseUci(const Position& pos, const MoveList& legal, absl::string_view text);

// SAN with disambiguation, capture x, =Q, O-O / O-O-O, and + or # (m must be legal).
std::string ToSan(const Position& pos, Move m);
// `suffix`: CheckSuffix(pos, m); `legal` is read only for a piece's move (not a pawn's or
// the king's), and only its moves to m.to().
std::string ToSan(const Position& pos, Move m, const MoveList& legal, char suffix);
// '#' if m (legal in pos) mates, '+' if it checks, else 0.
char CheckSuffix(const Position& pos, Move m);
// Accepts SAN as written by ToSan plus common variants: 0-0, a missing or extra x, missing
// +/#, trailing !/? annotations, promotion without '=' (e8Q).
absl::StatusOr<Move> ParseSan(const Position& pos, absl::string_view text);
absl::StatusOr<Move> ParseSan(const Position& pos, const MoveList& legal, absl::string_view text);

// UCI if the text looks like UCI, else SAN.
absl::StatusOr<Move> ParseMoveText(const Position& pos, absl::string_view text);
absl::StatusOr<Move> ParseMoveText(const Position& pos, const MoveList& legal,
                                   absl::string_view text);
// The same, generating only the legal moves to the text's destination square, which are
// left in `to` (enough for ToSan of the move found).
absl::StatusOr<Move> ParseMoveText(const Position& pos, absl::string_view text, MoveList* to);

// PGN of a game from `start` through `moves` (legal in sequence): the Seven Tag Roster
// (missing tags get "?" values; Round "-"), SetUp/FEN when `start` is not the standard
// start, SAN movetext wrapped at 80 columns, an optional comment, then the result.
struct PgnTags {
  std::vector<std::pair<std::string, std::string>> tags;  // overrides/extra, in order
  std::string result = "*";                               // "1-0", "0-1", "1/2-1/2", "*"
  std::string comment;                                    // e.g. "Draw by repetition"
};
std::string WritePgn(const Position& start, const std::vector<Move>& moves, const PgnTags& tags);

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_NOTATION_H_
