#include "libs/chess/movegen.h"

// The generator is force-inlined into each entry point so that perft can be compiled twice:
// portable, and (on x86-64 with GCC/Clang) a copy with the POPCNT instruction that is
// chosen at run time when the CPU has it. Without -mpopcnt, std::popcount is a libgcc call.
#if defined(__GNUC__)
#define TABLERO_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define TABLERO_ALWAYS_INLINE inline
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#define TABLERO_POPCNT_CLONE 1
#endif

namespace tablero::chess {
namespace {

// Appends (or counts) moves from `from` to every square of `targets`.
template <bool kCount>
TABLERO_ALWAYS_INLINE void AddMoves(Square from, Bitboard targets, Move*& out, int& n) {
  if constexpr (kCount) {
    n += Popcount(targets);
  } else {
    while (targets) *out++ = Move::Make(from, PopLsb(targets));
  }
}

// Pawn moves given as a target set and the step that reached it; promotions count four.
template <bool kCount, int Step>
TABLERO_ALWAYS_INLINE void AddPawnMoves(Bitboard targets, Bitboard last_rank, Move*& out, int& n) {
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
TABLERO_ALWAYS_INLINE int Generate(const Position& pos, Move* out) {
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

  // Is s attacked once our king has left its square? (Lifting the king stops it from
  // stepping back along the line of a slider that checks it.) Tested per target square:
  // the king has few, and this is cheaper than a full attack map at every leaf.
  const Bitboard occ_no_king = occ ^ Bit(ksq);
  const Bitboard their_pawns = pos.pieces(Them, kPawn), their_knights = pos.pieces(Them, kKnight);
  const Square their_king = pos.king_square(Them);
  auto attacked = [&](Square s) {
    return (PawnAttacks(Us, s) & their_pawns) || (KnightAttacks(s) & their_knights) ||
           (KingAttacks(s) & Bit(their_king)) || (BishopAttacks(s, occ_no_king) & their_bq) ||
           (RookAttacks(s, occ_no_king) & their_rq);
  };
  for (Bitboard b = KingAttacks(ksq) & ~us; b;) {
    const Square to = PopLsb(b);
    if (attacked(to)) continue;
    if constexpr (kCount) {
      ++n;
    } else {
      *out++ = Move::Make(ksq, to);
    }
  }

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
    if ((pos.castling() & kOO) && !(occ & kOOPath) && !attacked(kKingHome + 1) &&
        !attacked(kKingHome + 2)) {
      if constexpr (kCount) {
        ++n;
      } else {
        *out++ = Move::Make(ksq, kKingHome + 2, Move::kCastling);
      }
    }
    if ((pos.castling() & kOOO) && !(occ & kOOOPath) && !attacked(kKingHome - 1) &&
        !attacked(kKingHome - 2)) {
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

// The partial generators below serve the rules service, which decides one move's legality
// and whether a position has any move on every request. They are written for either
// colour at run time, not per colour as Generate is: one copy of their code, so the second
// call of a request finds it in the instruction cache. Each tests exactly the conditions
// Generate writes its moves under (movegen_to_test compares them on whole move trees).

namespace {

// Generate's setup: what pins and checks allow.
struct Constraints {
  Color us_color;
  Bitboard us, them, occ;
  Square ksq;
  Bitboard their_rq, their_bq;
  Bitboard checkers;
};

inline Constraints ConstraintsOf(const Position& pos) {
  Constraints c;
  c.us_color = pos.side_to_move();
  const Color them = ~c.us_color;
  c.us = pos.pieces(c.us_color);
  c.them = pos.pieces(them);
  c.occ = c.us | c.them;
  c.ksq = pos.king_square(c.us_color);
  c.their_rq = pos.pieces(them, kRook, kQueen);
  c.their_bq = pos.pieces(them, kBishop, kQueen);
  c.checkers = (KnightAttacks(c.ksq) & pos.pieces(them, kKnight)) |
               (PawnAttacks(c.us_color, c.ksq) & pos.pieces(them, kPawn)) |
               (RookAttacks(c.ksq, c.occ) & c.their_rq) |
               (BishopAttacks(c.ksq, c.occ) & c.their_bq);
  return c;
}

// Our single blockers between the king and an enemy slider.
inline Bitboard PinnedOf(const Constraints& c) {
  Bitboard pinned = 0;
  Bitboard snipers =
      (RookAttacks(c.ksq, c.them) & c.their_rq) | (BishopAttacks(c.ksq, c.them) & c.their_bq);
  while (snipers) {
    const Bitboard b = Between(c.ksq, PopLsb(snipers)) & c.occ;
    if (b && !MoreThanOne(b)) pinned |= b & c.us;
  }
  return pinned;
}

// Whether `s` is attacked once our king has left its square (Generate's `attacked`).
inline bool KingStepAttacked(const Position& pos, const Constraints& c, Square s) {
  const Color them = ~c.us_color;
  const Bitboard occ_no_king = c.occ ^ Bit(c.ksq);
  return (PawnAttacks(c.us_color, s) & pos.pieces(them, kPawn)) ||
         (KnightAttacks(s) & pos.pieces(them, kKnight)) ||
         (KingAttacks(s) & Bit(pos.king_square(them))) ||
         (BishopAttacks(s, occ_no_king) & c.their_bq) || (RookAttacks(s, occ_no_king) & c.their_rq);
}

inline Bitboard Forward(Color c, Bitboard b) { return c == kWhite ? b << 8 : b >> 8; }
inline Bitboard Backward(Color c, Bitboard b) { return c == kWhite ? b >> 8 : b << 8; }

}  // namespace

int GenerateLegalTo(const Position& pos, Square to, Move* out) {
  const Constraints c = ConstraintsOf(pos);
  const Color us = c.us_color;
  const bool white = us == kWhite;
  const Bitboard target = Bit(to);
  Move* const start = out;
  if ((KingAttacks(c.ksq) & ~c.us & target) && !KingStepAttacked(pos, c, to))
    *out++ = Move::Make(c.ksq, to);
  if (MoreThanOne(c.checkers)) return int(out - start);  // double check: the king alone
  const Bitboard mask =
      (c.checkers ? Between(c.ksq, Lsb(c.checkers)) | c.checkers : ~c.us) & target;
  if (mask) {
    const Bitboard pinned = PinnedOf(c);
    const Bitboard empty = ~c.occ;
    const Bitboard pawns = pos.pieces(us, kPawn);
    // Pawns: a push (single, or double from the start rank over an empty square) to an
    // empty `to`, a capture of an enemy on it; a pinned one only along its pin.
    Bitboard from = 0;
    if (target & empty) {
      const Bitboard one = Backward(us, target);
      if (one & pawns) {
        from = one;
      } else if (one & empty & (white ? Rank(2) : Rank(5))) {
        from = Backward(us, one) & pawns;
      }
    } else if (target & c.them) {
      from = PawnAttacks(~us, to) & pawns;
    }
    const bool promotes = target & (white ? Rank(7) : Rank(0));
    while (from) {
      const Square s = PopLsb(from);
      if ((pinned & Bit(s)) && !(Line(c.ksq, s) & target)) continue;
      if (promotes) {
        for (PieceType p : {kQueen, kRook, kBishop, kKnight})
          *out++ = Move::Make(s, to, Move::kPromotion, p);
      } else {
        *out++ = Move::Make(s, to);
      }
    }
    for (Bitboard b = KnightAttacks(to) & pos.pieces(us, kKnight) & ~pinned; b;)
      *out++ = Move::Make(PopLsb(b), to);
    // A slider on s attacks `to` exactly when one on `to` would attack s.
    Bitboard sliders = (BishopAttacks(to, c.occ) & pos.pieces(us, kBishop, kQueen)) |
                       (RookAttacks(to, c.occ) & pos.pieces(us, kRook, kQueen));
    while (sliders) {
      const Square s = PopLsb(sliders);
      if (!(pinned & Bit(s)) || (Line(c.ksq, s) & target)) *out++ = Move::Make(s, to);
    }
  }
  if (to == pos.ep_square()) {  // tested on the king after the capture, as Generate does
    const Square captured = to - (white ? 8 : -8);
    for (Bitboard b = PawnAttacks(~us, to) & pos.pieces(us, kPawn); b;) {
      const Square s = PopLsb(b);
      const Bitboard o = (c.occ ^ Bit(s) ^ Bit(captured)) | target;
      const Bitboard attackers = (RookAttacks(c.ksq, o) & c.their_rq) |
                                 (BishopAttacks(c.ksq, o) & c.their_bq) |
                                 (KnightAttacks(c.ksq) & pos.pieces(~us, kKnight)) |
                                 (PawnAttacks(us, c.ksq) & pos.pieces(~us, kPawn) & ~Bit(captured));
      if (!attackers) *out++ = Move::Make(s, to, Move::kEnPassant);
    }
  }
  const Square home = white ? 4 : 60;
  if (!c.checkers && c.ksq == home) {
    if (to == home + 2 && (pos.castling() & (white ? kWhiteOO : kBlackOO)) &&
        !(c.occ & (Bit(home + 1) | Bit(home + 2))) && !KingStepAttacked(pos, c, home + 1) &&
        !KingStepAttacked(pos, c, home + 2))
      *out++ = Move::Make(c.ksq, to, Move::kCastling);
    if (to == home - 2 && (pos.castling() & (white ? kWhiteOOO : kBlackOOO)) &&
        !(c.occ & (Bit(home - 1) | Bit(home - 2) | Bit(home - 3))) &&
        !KingStepAttacked(pos, c, home - 1) && !KingStepAttacked(pos, c, home - 2))
      *out++ = Move::Make(c.ksq, to, Move::kCastling);
  }
  return int(out - start);
}

bool HasLegalMove(const Position& pos) {
  const Constraints c = ConstraintsOf(pos);
  const Color us = c.us_color;
  const bool white = us == kWhite;
  // Generate's sections in another order: the cheap set-wise pawn moves first, the king's
  // (every attacker type looked up per square) last.
  if (!MoreThanOne(c.checkers)) {
    const Bitboard mask = c.checkers ? Between(c.ksq, Lsb(c.checkers)) | c.checkers : ~c.us;
    const Bitboard pinned = PinnedOf(c);
    const Bitboard empty = ~c.occ;
    const Bitboard pawns = pos.pieces(us, kPawn);
    const Bitboard free_pawns = pawns & ~pinned;
    const Bitboard single = Forward(us, free_pawns) & empty;
    const Bitboard twice = Forward(us, single & (white ? Rank(2) : Rank(5))) & empty;
    const Bitboard takes =
        (white ? PawnAttacksSet<kWhite>(free_pawns) : PawnAttacksSet<kBlack>(free_pawns)) & c.them;
    if ((single | twice | takes) & mask) return true;
    for (Bitboard b = pos.pieces(us, kKnight) & ~pinned; b;) {
      if (KnightAttacks(PopLsb(b)) & mask) return true;
    }
    for (Bitboard b = pos.pieces(us, kBishop, kQueen); b;) {
      const Square s = PopLsb(b);
      if (BishopAttacks(s, c.occ) & mask & (pinned & Bit(s) ? Line(c.ksq, s) : ~Bitboard{0}))
        return true;
    }
    for (Bitboard b = pos.pieces(us, kRook, kQueen); b;) {
      const Square s = PopLsb(b);
      if (RookAttacks(s, c.occ) & mask & (pinned & Bit(s) ? Line(c.ksq, s) : ~Bitboard{0}))
        return true;
    }
    for (Bitboard b = pawns & pinned; b;) {
      const Square s = PopLsb(b);
      const Bitboard push = Forward(us, Bit(s)) & empty;
      const Bitboard t = push | (Forward(us, push & (white ? Rank(2) : Rank(5))) & empty) |
                         (PawnAttacks(us, s) & c.them);
      if (t & mask & Line(c.ksq, s)) return true;
    }
  }
  for (Bitboard b = KingAttacks(c.ksq) & ~c.us; b;) {
    if (!KingStepAttacked(pos, c, PopLsb(b))) return true;
  }
  // Castling adds nothing: it needs the square beside the king empty and safe, a step the
  // king has then. En passant is the one move left.
  return !MoreThanOne(c.checkers) && HasLegalEnPassant(pos);
}

bool HasLegalEnPassant(const Position& pos) {
  if (pos.ep_square() == kNoSquare) return false;
  Move moves[64];  // the moves to one square: at most 16 pieces, 4 promotions each
  const int n = GenerateLegalTo(pos, pos.ep_square(), moves);
  for (int i = 0; i < n; ++i)
    if (moves[i].kind() == Move::kEnPassant) return true;
  return false;
}

namespace {

// Perft with bulk counting at depth 1; Self is the function to recurse into, so that each
// compiled copy recurses into itself.
template <uint64_t (*Self)(const Position&, int)>
TABLERO_ALWAYS_INLINE uint64_t PerftBody(const Position& pos, int depth) {
  const bool white = pos.side_to_move() == kWhite;
  if (depth == 1) {
    return uint64_t(white ? Generate<kWhite, true>(pos, nullptr)
                          : Generate<kBlack, true>(pos, nullptr));
  }
  Move moves[kMaxMoves];
  const int n = white ? Generate<kWhite, false>(pos, moves) : Generate<kBlack, false>(pos, moves);
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    Position next = pos;
    next.DoMove(moves[i]);
    total += Self(next, depth - 1);
  }
  return total;
}

uint64_t PerftPortable(const Position& pos, int depth) {
  return PerftBody<PerftPortable>(pos, depth);
}

#ifdef TABLERO_POPCNT_CLONE
__attribute__((target("popcnt"))) uint64_t PerftPopcnt(const Position& pos, int depth) {
  return PerftBody<PerftPopcnt>(pos, depth);
}
#endif

uint64_t PerftFrom(const Position& pos, int depth) {
#ifdef TABLERO_POPCNT_CLONE
  static const bool has_popcnt = __builtin_cpu_supports("popcnt");
  if (has_popcnt) return PerftPopcnt(pos, depth);
#endif
  return PerftPortable(pos, depth);
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
