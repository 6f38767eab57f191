#include "libs/chess/movegen.h"

namespace tablero::chess {
namespace {

// Appends (or counts) moves from `from` to every square of `targets`.
template <bool kCount>
inline void AddMoves(Square from, Bitboard targets, Move*& out, int& n) {
  if constexpr (kCount) {
    n += Popcount(targets);
  } else {
    while (targets) *out++ = Move::Make(from, PopLsb(targets));
  }
}

// Pawn moves given as a target set and the step that reached it; promotions count four.
template <bool kCount, int Step>
inline void AddPawnMoves(Bitboard targets, Bitboard last_rank, Move*& out, int& n) {
  if constexpr (kCount) {
    n += Popcount(targets & ~last_rank) + 4 * Popcount(targets & last_rank);
  } else {
    for (Bitboard b = targets & last_rank; b;) {
      Square to = PopLsb(b);
      for (PieceType p : {kQueen, kRook, kBishop, kKnight})
        *out++ = Move::Make(to - Step, to, Move::kPromotion, p);
    }
    for (Bitboard b = targets & ~last_rank; b;) {
      Square to = PopLsb(b);
      *out++ = Move::Make(to - Step, to);
    }
  }
}

template <Color Us, bool kCount>
int Generate(const Position& pos, Move* out) {
  constexpr Color Them = Us == kWhite ? kBlack : kWhite;
  constexpr int Up = Us == kWhite ? 8 : -8;
  constexpr int UpLeft = Us == kWhite ? 7 : -9;
  constexpr int UpRight = Us == kWhite ? 9 : -7;
  constexpr Bitboard kRank3 = Us == kWhite ? Rank(2) : Rank(5);
  constexpr Bitboard kRank8 = Us == kWhite ? Rank(7) : Rank(0);
  constexpr Square kKingHome = Us == kWhite ? 4 : 60;
  constexpr uint8_t kOO = Us == kWhite ? kWhiteOO : kBlackOO;
  constexpr uint8_t kOOO = Us == kWhite ? kWhiteOOO : kBlackOOO;

  int n = 0;                // counting mode
  Move* const start = out;  // list mode: the count is how far `out` advanced
  const Bitboard us = pos.pieces(Us), them = pos.pieces(Them), occ = us | them;
  const Square ksq = pos.king_square(Us);
  const Bitboard their_rq = pos.pieces(Them, kRook, kQueen);
  const Bitboard their_bq = pos.pieces(Them, kBishop, kQueen);

  // Squares the enemy attacks, computed with our king lifted off the board so that it
  // cannot step back along the line of a slider that checks it.
  const Bitboard occ_no_king = occ ^ Bit(ksq);
  Bitboard danger =
      PawnAttacksSet<Them>(pos.pieces(Them, kPawn)) | KingAttacks(pos.king_square(Them));
  for (Bitboard b = pos.pieces(Them, kKnight); b;) danger |= KnightAttacks(PopLsb(b));
  for (Bitboard b = their_bq; b;) danger |= BishopAttacks(PopLsb(b), occ_no_king);
  for (Bitboard b = their_rq; b;) danger |= RookAttacks(PopLsb(b), occ_no_king);

  AddMoves<kCount>(ksq, KingAttacks(ksq) & ~us & ~danger, out, n);

  const Bitboard checkers = (KnightAttacks(ksq) & pos.pieces(Them, kKnight)) |
                            (PawnAttacks(Us, ksq) & pos.pieces(Them, kPawn)) |
                            (RookAttacks(ksq, occ) & their_rq) |
                            (BishopAttacks(ksq, occ) & their_bq);
  if (MoreThanOne(checkers)) return kCount ? n : int(out - start);  // double check
  // Non-king moves must capture the checker or block its line; else any non-own square.
  const Bitboard mask = checkers ? Between(ksq, Lsb(checkers)) | checkers : ~us;

  // Pinned pieces: our single blocker between the king and an enemy slider.
  Bitboard pinned = 0;
  Bitboard snipers = (RookAttacks(ksq, them) & their_rq) | (BishopAttacks(ksq, them) & their_bq);
  while (snipers) {
    Bitboard b = Between(ksq, PopLsb(snipers)) & occ;
    if (b && !MoreThanOne(b)) pinned |= b & us;
  }

  // Pawns off pins, set-wise.
  const Bitboard empty = ~occ;
  const Bitboard pawns = pos.pieces(Us, kPawn);
  const Bitboard free_pawns = pawns & ~pinned;
  const Bitboard single = Shift<Up>(free_pawns) & empty;
  AddPawnMoves<kCount, Up>(single & mask, kRank8, out, n);
  AddPawnMoves<kCount, 2 * Up>(Shift<Up>(single & kRank3) & empty & mask, 0, out, n);
  AddPawnMoves<kCount, UpLeft>(Shift<UpLeft>(free_pawns) & them & mask, kRank8, out, n);
  AddPawnMoves<kCount, UpRight>(Shift<UpRight>(free_pawns) & them & mask, kRank8, out, n);

  // Pinned pawns one by one: they may only move along the pin line.
  for (Bitboard b = pawns & pinned; b;) {
    const Square s = PopLsb(b);
    const Bitboard push = Shift<Up>(Bit(s)) & empty;
    Bitboard t = push | (Shift<Up>(push & kRank3) & empty) | (PawnAttacks(Us, s) & them);
    t &= mask & Line(ksq, s);
    if constexpr (kCount) {
      n += (t & kRank8) ? 4 * Popcount(t) : Popcount(t);
    } else {
      while (t) {
        const Square to = PopLsb(t);
        if (Bit(to) & kRank8) {
          for (PieceType p : {kQueen, kRook, kBishop, kKnight})
            *out++ = Move::Make(s, to, Move::kPromotion, p);
        } else {
          *out++ = Move::Make(s, to);
        }
      }
    }
  }

  // En passant: rare, so test it exactly by looking at the king after the capture (this
  // also covers the two pawns leaving a rank shared by the king and an enemy rook).
  if (pos.ep_square() != kNoSquare) {
    const Square ep = pos.ep_square(), captured = ep - Up;
    for (Bitboard b = PawnAttacks(Them, ep) & pawns; b;) {
      const Square from = PopLsb(b);
      const Bitboard o = (occ ^ Bit(from) ^ Bit(captured)) | Bit(ep);
      const Bitboard attackers = (RookAttacks(ksq, o) & their_rq) |
                                 (BishopAttacks(ksq, o) & their_bq) |
                                 (KnightAttacks(ksq) & pos.pieces(Them, kKnight)) |
                                 (PawnAttacks(Us, ksq) & pos.pieces(Them, kPawn) & ~Bit(captured));
      if (attackers) continue;
      if constexpr (kCount) {
        ++n;
      } else {
        *out++ = Move::Make(from, ep, Move::kEnPassant);
      }
    }
  }

  for (Bitboard b = pos.pieces(Us, kKnight) & ~pinned; b;) {
    const Square s = PopLsb(b);
    AddMoves<kCount>(s, KnightAttacks(s) & mask, out, n);
  }
  for (Bitboard b = pos.pieces(Us, kBishop, kQueen); b;) {
    const Square s = PopLsb(b);
    Bitboard t = BishopAttacks(s, occ) & mask;
    if (pinned & Bit(s)) t &= Line(ksq, s);
    AddMoves<kCount>(s, t, out, n);
  }
  for (Bitboard b = pos.pieces(Us, kRook, kQueen); b;) {
    const Square s = PopLsb(b);
    Bitboard t = RookAttacks(s, occ) & mask;
    if (pinned & Bit(s)) t &= Line(ksq, s);
    AddMoves<kCount>(s, t, out, n);
  }

  // Castling: rights imply king and rook at home (kept so by FEN checks and DoMove).
  if (!checkers && ksq == kKingHome) {
    constexpr Bitboard kOOPath = Bit(kKingHome + 1) | Bit(kKingHome + 2);
    constexpr Bitboard kOOOPath = Bit(kKingHome - 1) | Bit(kKingHome - 2) | Bit(kKingHome - 3);
    constexpr Bitboard kOOOKing = Bit(kKingHome - 1) | Bit(kKingHome - 2);
    if ((pos.castling() & kOO) && !(occ & kOOPath) && !(danger & kOOPath)) {
      if constexpr (kCount) {
        ++n;
      } else {
        *out++ = Move::Make(ksq, kKingHome + 2, Move::kCastling);
      }
    }
    if ((pos.castling() & kOOO) && !(occ & kOOOPath) && !(danger & kOOOKing)) {
      if constexpr (kCount) {
        ++n;
      } else {
        *out++ = Move::Make(ksq, kKingHome - 2, Move::kCastling);
      }
    }
  }
  return kCount ? n : int(out - start);
}

}  // namespace

int GenerateLegal(const Position& pos, Move* out) {
  return pos.side_to_move() == kWhite ? Generate<kWhite, false>(pos, out)
                                      : Generate<kBlack, false>(pos, out);
}

int CountLegal(const Position& pos) {
  return pos.side_to_move() == kWhite ? Generate<kWhite, true>(pos, nullptr)
                                      : Generate<kBlack, true>(pos, nullptr);
}

bool HasLegalEnPassant(const Position& pos) {
  if (pos.ep_square() == kNoSquare) return false;
  Move moves[kMaxMoves];
  const int n = GenerateLegal(pos, moves);
  for (int i = 0; i < n; ++i)
    if (moves[i].kind() == Move::kEnPassant) return true;
  return false;
}

namespace {

uint64_t PerftFrom(const Position& pos, int depth) {
  if (depth == 1) return uint64_t(CountLegal(pos));
  Move moves[kMaxMoves];
  const int n = GenerateLegal(pos, moves);
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    Position next = pos;
    next.DoMove(moves[i]);
    total += PerftFrom(next, depth - 1);
  }
  return total;
}

}  // namespace

uint64_t Perft(const Position& pos, int depth) { return depth <= 0 ? 1 : PerftFrom(pos, depth); }

std::vector<std::pair<Move, uint64_t>> Divide(const Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> out;
  if (depth <= 0) return out;
  for (Move m : MoveList(pos)) {
    Position next = pos;
    next.DoMove(m);
    out.emplace_back(m, Perft(next, depth - 1));
  }
  return out;
}

}  // namespace tablero::chess
