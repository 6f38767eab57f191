// The four-player shogi search's own node: the engine's Position plus what the search keeps
// up to date per move instead of recomputing it per node (material, the seats in check, the
// evaluation's board sums, the kings' marks), a move step that answers check priority with the fast
// attack test, asks "has a legal move" only of a seat in check and can be taken back (Shogi4Unmake:
// the search makes its moves on one node), and a legal move generator split into board moves
// (optionally onto target squares only) and drops (optionally onto some squares only), so the
// search generates only what its beam can reach. The engine stays the one source of legality:
// bot_lib_test holds every part to it on random playouts of every rule variant (the generator move
// for move and in order against shogi4::GenerateLegal, the step against shogi4::MakeMove, the sums
// and marks against counts from scratch).
#ifndef TABLERO_LIBS_BOT_SHOGI4_NODE_H_
#define TABLERO_LIBS_BOT_SHOGI4_NODE_H_

#include <array>
#include <cstddef>

#include "libs/bot/shogi4_attacks.h"
#include "libs/shogi4/position.h"
#include "libs/shogi4/types.h"

namespace tablero::bot {

// Piece values of the search's evaluation: on the board (king 0) and in hand.
inline constexpr int kShogi4BoardValue[shogi4::kPieceTypes] = {0, 100, 500, 550, 1000,
                                                               0, 600, 580, 1300};
inline constexpr int kShogi4HandValue[shogi4::kHandTypes] = {110, 550, 600, 1100};

// The sums of the search's evaluation (shogi4_eval.h: board and hands), kept per move by Shogi4Make
// (a king's move or a mate counts again what it changes).
struct Shogi4Sums {
  // [owner][r - 1][seat]: the owner's pieces, its king excepted, within r (1 or 2) king
  // steps of the seat's king (an owner's 8 counts are updated as one word).
  alignas(8) uint8_t near[shogi4::kSeats][2][shogi4::kSeats];
  uint8_t open[shogi4::kSeats];   // the empty squares beside each seat's king
  uint8_t mates[shogi4::kSeats];  // the mates made by each seat (Position::MatesMade)
  // Each seat's hand as drop threats: a point per silver or gold, two per rook.
  uint8_t threat[shogi4::kSeats];
};
// The drop threat of a piece in hand, by hand index (Shogi4Sums::threat).
inline constexpr auto kShogi4HandThreat = [] {
  std::array<uint8_t, shogi4::kHandTypes> t{};
  t[shogi4::HandIndex(shogi4::kSilver)] = t[shogi4::HandIndex(shogi4::kGold)] = 1;
  t[shogi4::HandIndex(shogi4::kRook)] = 2;
  return t;
}();
// The sums counted from scratch.
Shogi4Sums Shogi4SumsOf(const shogi4::Position& pos);

struct Shogi4Node {
  shogi4::Position pos;
  int material[shogi4::kSeats] = {};  // per seat: its board pieces and hand, valued as above
  bool in_check = false;              // pos.to_move is in check
  unsigned checked = 0;               // bit per seat in check (playing seats)
  shogi4::Squares sliders = 0;        // Shogi4Sliders(pos)
  Shogi4Sums sums = {};               // Shogi4SumsOf(pos)
  // Per square: which kings it is near or on a line with (Shogi4KingMarksOf(pos)).
  alignas(16) uint16_t kings[kShogi4MarkSquares] = {};
};

// What Shogi4Make changes, so that the search takes a move back (make/unmake) instead of
// copying the whole node per child: the move's two squares, the position's hands, seats
// and counters (one block, `hand` to `ply`), the node's own sums; the square sets are put
// back by the move itself (and a king's marks by its move back), or after a mate from their copy
// taken before the first seat was mated (the mated seats' pieces are given back from it).
struct Shogi4Undo {
  static constexpr size_t kTailStart = offsetof(shogi4::Position, hand);
  static constexpr size_t kTailBytes =
      offsetof(shogi4::Position, ply) + sizeof(uint32_t) - kTailStart;
  shogi4::Squares sliders;
  int material[shogi4::kSeats];
  unsigned checked;
  bool in_check;
  Shogi4Sums sums;
  uint8_t from, to;  // from: kNoSquare for a drop
  shogi4::Cell from_cell, to_cell;
  alignas(8) uint8_t tail[kTailBytes];
  shogi4::Squares mated_pieces[shogi4::kSeats + 1];  // the sets before a mate (if any)
};

// Material of `seat` counted from scratch (what Shogi4Node::material holds).
int Shogi4Material(const shogi4::Position& pos, int seat);
Shogi4Node Shogi4NodeOf(const shogi4::Position& pos);

// `seat` plays the legal move `m`: shogi4::MakeMove with pos.to_move = seat, except that a
// seat the check priority picks while not in check is not asked whether it has a legal
// move (a seat not in check with no legal move is mated only when its node finds no move:
// Shogi4MateStuck). Check priority, mates, piece transfer and endings are the engine's.
void Shogi4Make(Shogi4Node& node, int seat, shogi4::Move m);
// Shogi4Make that records in `undo` what Shogi4Unmake needs to restore `node` as it was
// (any change the caller then makes to pos.to_move included).
void Shogi4Make(Shogi4Node& node, int seat, shogi4::Move m, Shogi4Undo* undo);
void Shogi4Unmake(Shogi4Node& node, const Shogi4Undo& undo);
// The seat to move has no legal move: mates it and goes on as the engine's Resolve does.
void Shogi4MateStuck(Shogi4Node& node);

// Legal board moves of `seat` (`in_check`: whether it is in check), in GenerateLegal's
// order, appended to `out`: those onto a square of `targets` (captures), and with `quiet`
// also those onto an empty square. Singles only (pairs: the partner rule is the engine's).
void Shogi4BoardMoves(const shogi4::Position& pos, int seat, bool in_check, shogi4::Squares targets,
                      bool quiet, shogi4::MoveList* out);
// The legal captures onto `targets` of every seat in `seats` (bit per seat; `in_check`:
// whether those seats are in check, the same for all), found from the targets (their
// attackers; only targets beside a mover or on the lines of a mover's slider are looked
// at): for one seat the moves of Shogi4BoardMoves(pos, seat, in_check, targets, false,
// out), in another order (by target square, then steps before slides). The seat of a move
// is the owner of the piece on its from-square. `sliders`: Shogi4Sliders(pos).
void Shogi4Captures(const shogi4::Position& pos, shogi4::Squares sliders, unsigned seats,
                    bool in_check, shogi4::Squares targets, shogi4::MoveList* out);
// The same captures found from the movers through step and ray sets (only movers beside
// a target, and sliders, are looked at): those of Shogi4BoardMoves(pos, seat, in_check,
// targets, false, out) for each seat of `seats` in turn from `first`, in that order.
void Shogi4CapturesFrom(const shogi4::Position& pos, shogi4::Squares sliders, unsigned seats,
                        int first, bool in_check, shogi4::Squares targets, shogi4::MoveList* out);
// Legal drops of `seat` onto the empty squares of `squares`, in GenerateLegal's order.
void Shogi4Drops(const shogi4::Position& pos, int seat, bool in_check, shogi4::Squares squares,
                 shogi4::MoveList* out);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_SHOGI4_NODE_H_
