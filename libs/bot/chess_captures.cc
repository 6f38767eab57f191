#include "libs/bot/chess_captures.h"

namespace tablero::bot {

using namespace chess;  // NOLINT: the engine's own vocabulary

int GenerateCaptures(const Position& pos, Move* out) {
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occ = pos.pieces(), enemies = pos.pieces(them);
  const Bitboard last_rank = us == kWhite ? Rank(7) : Rank(0);
  const int up = us == kWhite ? 8 : -8;
  int n = 0;
  for (Bitboard b = pos.pieces(us, kPawn); b;) {
    const Square from = PopLsb(b);
    for (Bitboard t = PawnAttacks(us, from) & enemies; t;) {
      const Square to = PopLsb(t);
      out[n++] = (Bit(to) & last_rank) ? Move::Make(from, to, Move::kPromotion, kQueen)
                                       : Move::Make(from, to);
    }
    const Square push = from + up;
    if ((Bit(push) & last_rank) && !(Bit(push) & occ))
      out[n++] = Move::Make(from, push, Move::kPromotion, kQueen);
  }
  if (pos.ep_square() != kNoSquare) {
    for (Bitboard b = PawnAttacks(them, pos.ep_square()) & pos.pieces(us, kPawn); b;)
      out[n++] = Move::Make(PopLsb(b), pos.ep_square(), Move::kEnPassant);
  }
  for (int t = kKnight; t <= kKing; ++t) {
    for (Bitboard b = pos.pieces(us, PieceType(t)); b;) {
      const Square from = PopLsb(b);
      for (Bitboard a = Attacks(PieceType(t), from, occ) & enemies; a;)
        out[n++] = Move::Make(from, PopLsb(a));
    }
  }
  return n;
}

}  // namespace tablero::bot
