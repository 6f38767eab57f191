#include "libs/chess/see.h"

namespace tablero::chess {

int See(const Position& pos, Move m) {
  if (m.kind() == Move::kCastling) return 0;
  const Square from = m.from(), to = m.to();
  int gain[32];
  int depth = 0;
  Bitboard occ = pos.pieces();
  PieceType victim = m.kind() == Move::kEnPassant ? kPawn : TypeOf(pos.piece_on(to));
  gain[0] = pos.piece_on(to) == kNoPiece && m.kind() != Move::kEnPassant ? 0 : kSeeValue[victim];
  PieceType on_square = TypeOf(pos.moved_piece(m));
  if (m.kind() == Move::kPromotion) {
    gain[0] += kSeeValue[m.promotion()] - kSeeValue[kPawn];
    on_square = m.promotion();
  }
  occ ^= Bit(from);
  if (m.kind() == Move::kEnPassant) occ ^= Bit(to ^ 8);
  Color side = ~ColorOf(pos.moved_piece(m));
  const Bitboard diagonal = pos.pieces(kBishop, kQueen), straight = pos.pieces(kRook, kQueen);
  Bitboard attackers = pos.AttackersTo(to, occ) & occ;
  while (depth < 31) {
    const Bitboard mine = attackers & pos.pieces(side);
    if (!mine) break;
    PieceType t = kPawn;
    while (!(mine & pos.pieces(t))) t = PieceType(t + 1);
    // A king may not capture into a defended square.
    if (t == kKing && (attackers & pos.pieces(~side))) break;
    ++depth;
    gain[depth] = kSeeValue[on_square] - gain[depth - 1];
    on_square = t;
    occ ^= Bit(Lsb(mine & pos.pieces(t)));
    // Sliders behind the capturer join in (x-rays).
    attackers |= (BishopAttacks(to, occ) & diagonal) | (RookAttacks(to, occ) & straight);
    attackers &= occ;
    side = ~side;
  }
  while (depth > 0) {
    gain[depth - 1] = -(gain[depth] > -gain[depth - 1] ? gain[depth] : -gain[depth - 1]);
    --depth;
  }
  return gain[0];
}

}  // namespace tablero::chess
