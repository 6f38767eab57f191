// The position and the rules that follow a move: check priority, mates, piece transfer,
// endings. Copy-make: a Position is a small flat struct (~200 bytes), copied per move.
// Internal header, usable by search code in other libs.
#ifndef TABLERO_LIBS_SHOGI4_POSITION_H_
#define TABLERO_LIBS_SHOGI4_POSITION_H_

#include <array>
#include <cstdint>

#include "libs/shogi4/types.h"

namespace tablero::shogi4 {

// Set of squares (bit i = square i).
using Squares = unsigned __int128;
inline constexpr Squares SquareBit(int sq) { return static_cast<Squares>(1) << sq; }
inline constexpr Squares kAllSquares = (static_cast<Squares>(1) << kSquares) - 1;
// Pops the lowest square of a non-empty set.
inline int PopSquare(Squares& b) {
  uint64_t lo = static_cast<uint64_t>(b);
  int sq = lo != 0 ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<uint64_t>(b >> 64));
  b &= b - 1;
  return sq;
}

struct Position {
  Cell board[kSquares] = {};
  Squares pieces[kSeats + 1] = {};  // occupied squares by owner (index 4: ownerless);
                                    // kept in step with `board` by every change
  uint8_t hand[kSeats][kHandTypes] = {};
  uint8_t king[kSeats] = {};  // king square of each seat (flipped kings stay put)
  uint8_t alive = 0xF;        // bit per seat still playing
  int8_t to_move = 0;
  int8_t last_mover = -1;  // seat that made the last move (-1: none yet)
  EndReason over = EndReason::kNone;
  uint8_t n_elim = 0;
  int8_t elim[kSeats] = {-1, -1, -1, -1};      // eliminated seats, in order
  int8_t mated_by[kSeats] = {-1, -1, -1, -1};  // seat credited with each mate
  uint32_t ply = 0;                            // moves made (the move-limit count)
  Rules rules;

  bool Alive(int seat) const { return (alive >> seat) & 1; }
  // Seats whose pieces attack `seat`'s king: every other surviving seat.
  unsigned Enemies(int seat) const { return alive & ~(1u << seat) & 0xFu; }
  int MatesMade(int seat) const;
  // 1 + index in the elimination order of the last mate credited to `seat`; 0 if none.
  int LastMate(int seat) const;
};

// The start position, `first` seat to move.
Position StartPosition(const Rules& rules, int first);

// Is `sq` attacked by a piece whose owner is in `by` (bit per seat)? Ownerless pieces
// (owner 4) and flipped kings (owner not in `by`) never attack but do block.
bool Attacked(const Cell* board, int sq, unsigned by);
// The squares of all pieces with owner in `by` attacking `sq`.
Squares Attackers(const Cell* board, int sq, unsigned by);
inline bool InCheck(const Position& pos, int seat) {
  return Attacked(pos.board, pos.king[seat], pos.Enemies(seat));
}

// Applies a move of pos.to_move (assumed legal): captures, promotion, drop. No
// resolution: call Resolve afterwards (MakeMove does both).
void DoMove(Position& pos, Move m);
// Check priority: the first surviving seat clockwise from `mover` that is in check, else
// the next surviving seat after `mover`.
int PickNext(const Position& pos, int mover);
// Mates `seat` (credited to `mater`): flips the king, passes hand and board pieces,
// records the ending if this mate ends the game. Returns the number of pieces passed.
int Eliminate(Position& pos, int seat, int mater);
// After a move: picks the next seat; a seat with no legal move is mated at once and the
// pick repeats; then the move limit. `has_move(pos, seat)` decides "has a legal move".
// `first`: PickNext's answer for `pos` when the caller has it (-1: not known).
template <class HasMove, class OnMate>
void Resolve(Position& pos, HasMove has_move, OnMate on_mate, int first = -1) {
  const int m = pos.last_mover;
  while (pos.over == EndReason::kNone) {
    int p = first >= 0 ? first : PickNext(pos, m);
    first = -1;
    pos.to_move = static_cast<int8_t>(p);
    if (has_move(pos, p)) break;
    int passed = Eliminate(pos, p, m);
    on_mate(p, m, passed);
  }
  // A game that ended at a mate names a playing seat to move (positions stay parseable).
  if (!pos.Alive(pos.to_move)) pos.to_move = static_cast<int8_t>(PickNext(pos, m));
  if (pos.over == EndReason::kNone && pos.rules.move_limit != 0 &&
      pos.ply >= pos.rules.move_limit) {
    pos.over = EndReason::kMoveLimit;
  }
}
// DoMove + Resolve with the position-only legality (no repetition history).
void MakeMove(Position& pos, Move m);

// Zobrist key of the position identity: board, hands, surviving seats, seat to move.
uint64_t Key(const Position& pos);
// Key's terms of what a move of `seat` from `from` (-1: a drop) to `to` can change in `p`
// with `to_move` to move: the two squares, the slot `slot` (-1: none) of `seat`'s hand (a
// drop's or a capture's), the seat to move. XORed with
// the key before the move (`p` before it, `seat` to move) and again after it (`p` after
// DoMove, the next seat to move), they give the key after it (before any mate: the
// surviving seats are the same), without a copy of the position or a visit of the
// unchanged squares.
uint64_t MoveTerms(const Position& p, int to_move, int from, int to, int seat, int slot);

// Places per seat (1 = first; equal numbers share; 0 = not placed yet). A finished game
// places every seat. While a singles game runs, a mated seat already has its place, which
// no later ending changes (the first mated is 4th, the second 3rd: every ending ranks the
// eliminated below the survivors, in elimination order); pairs games end at the first mate.
std::array<int, kSeats> Places(const Position& pos);

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_POSITION_H_
