#include "libs/bot/chess_eval.h"

#include <algorithm>
#include <cstdlib>

namespace tablero::bot {

using namespace chess;  // NOLINT: the engine's own vocabulary

namespace {

// A (middlegame, endgame) pair; the final score interpolates by game phase.
struct Score {
  int mg = 0, eg = 0;
  Score& operator+=(Score o) {
    mg += o.mg;
    eg += o.eg;
    return *this;
  }
  Score& operator-=(Score o) {
    mg -= o.mg;
    eg -= o.eg;
    return *this;
  }
};
constexpr Score S(int mg, int eg) { return Score{mg, eg}; }
Score operator*(Score s, int k) { return S(s.mg * k, s.eg * k); }

constexpr Score kMaterial[6] = {S(90, 120),  S(320, 300),  S(335, 315),
                                S(480, 540), S(960, 1000), S(0, 0)};
constexpr int kPhaseWeight[6] = {0, 1, 1, 2, 4, 0};
constexpr int kMaxPhase = 24;

// Distance from the centre: 0 on d4/e4/d5/e5, 3 on the rim.
constexpr int CenterDist(int f, int r) {
  const int df = f < 4 ? 3 - f : f - 4;
  const int dr = r < 4 ? 3 - r : r - 4;
  return df > dr ? df : dr;
}

// Piece-square tables from White's side (a1 = 0), built from a few simple ideas rather than
// tuned numbers: pawns gain by advancing (more in the centre), minor pieces and the queen by
// being central, rooks on the seventh, the king hides in a corner in the middlegame and
// walks to the centre in the endgame.
struct Pst {
  Score v[6][64];
};
constexpr Pst MakePst() {
  Pst t{};
  constexpr int kKingFile[8] = {15, 25, 10, -5, -5, 5, 25, 15};
  for (int s = 0; s < 64; ++s) {
    const int f = s & 7, r = s >> 3, cd = CenterDist(f, r);
    const bool center_file = f == 3 || f == 4;
    t.v[kPawn][s] = S(r >= 1 && r <= 6 ? (r - 1) * (center_file ? 8 : 3) : 0,
                      r >= 1 && r <= 6 ? (r - 1) * 8 : 0);
    if (center_file && r == 1) t.v[kPawn][s].mg -= 10;  // get the centre pawns moving
    t.v[kKnight][s] = S(20 - 12 * cd + (r == 0 ? -10 : 0), 15 - 10 * cd);
    t.v[kBishop][s] = S(10 - 5 * cd + (r == 0 ? -8 : 0), 10 - 5 * cd);
    t.v[kRook][s] = S(r == 6 ? 20 : (center_file && r == 0 ? 5 : 0), r == 6 ? 10 : 0);
    t.v[kQueen][s] = S(5 - 3 * cd + (r == 0 ? -2 : 0), 10 - 5 * cd);
    t.v[kKing][s] = S(r == 0 ? kKingFile[f] : -20 * r, 30 - 12 * cd);
  }
  return t;
}
constexpr Pst kPst = MakePst();

constexpr Score kMobility[6] = {S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)};
constexpr int kMobilityBase[6] = {0, 4, 6, 6, 12, 0};
constexpr int kAttackWeight[6] = {0, 2, 2, 3, 5, 0};
constexpr Score kPassed[8] = {S(0, 0),   S(5, 10),   S(8, 18),   S(15, 35),
                              S(30, 60), S(50, 100), S(80, 150), S(0, 0)};
constexpr Score kDoubled = S(-10, -20);
constexpr Score kIsolated = S(-10, -15);
constexpr Score kBishopPair = S(30, 50);
constexpr Score kRookOpen = S(25, 10), kRookSemiOpen = S(12, 6);
constexpr int kTempo = 10;
constexpr Score kThreatByPawn = S(-45, -35);  // a piece attacked by a pawn must move
// A rook or queen attacked by a minor piece, a queen attacked by a rook: it must move too.
constexpr Score kThreatByMinor = S(-30, -25), kThreatByRook = S(-30, -25);
constexpr Score kOutpost[2] = {S(25, 15), S(12, 6)};  // knight, bishop
constexpr Score kConnected = S(4, 3);  // per rank of a pawn beside or defended by another
constexpr int kKingPasserEg = 5;       // per square of (their king - our king) distance to a passer

inline Square Relative(Color c, Square s) { return c == kWhite ? s : s ^ 56; }

// Pawn-structure masks, computed once: the files beside each file, the squares in front of
// a pawn on its file, and those on its file and the files beside (the passed-pawn span).
struct PawnMasks {
  Bitboard adjacent[8];
  Bitboard forward[2][64];
  Bitboard passed[2][64];
};
const PawnMasks kMasks = [] {
  PawnMasks m{};
  for (int f = 0; f < 8; ++f) m.adjacent[f] = (f > 0 ? File(f - 1) : 0) | (f < 7 ? File(f + 1) : 0);
  for (int s = 0; s < 64; ++s) {
    for (int c = 0; c < 2; ++c) {
      Bitboard ranks = 0;
      for (int r = 0; r < 8; ++r)
        if (c == 0 ? r > RankOf(s) : r < RankOf(s)) ranks |= Rank(r);
      m.forward[c][s] = ranks & File(FileOf(s));
      m.passed[c][s] = ranks & (File(FileOf(s)) | m.adjacent[FileOf(s)]);
    }
  }
  return m;
}();

// The squares one side's minor pieces and rooks attack, for the threats on the other side.
struct SideAttacks {
  Bitboard minors = 0, rooks = 0;
};

template <Color Us>
Score EvalSide(const Position& pos, Bitboard our_pawn_att, Bitboard their_pawn_att,
               int* attack_units, SideAttacks* attacks) {
  constexpr Color Them = Us == kWhite ? kBlack : kWhite;
  Score s;
  const Bitboard occ = pos.pieces();
  const Bitboard own = pos.pieces(Us);
  const Bitboard our_pawns = pos.pieces(Us, kPawn), their_pawns = pos.pieces(Them, kPawn);
  const Square their_king = pos.king_square(Them);
  const Bitboard zone = KingAttacks(their_king) | Bit(their_king);
  int attackers = 0, units = 0;

  for (int t = kPawn; t <= kKing; ++t) {
    for (Bitboard b = pos.pieces(Us, PieceType(t)); b;) {
      const Square sq = PopLsb(b);
      s += kMaterial[t];
      s += kPst.v[t][Relative(Us, sq)];
      if (t == kPawn || t == kKing) continue;
      const Bitboard att = Attacks(PieceType(t), sq, occ);
      const int mob = Popcount(att & ~own & ~their_pawn_att) - kMobilityBase[t];
      s += kMobility[t] * mob;
      if (Bit(sq) & their_pawn_att) s += kThreatByPawn;
      if (t == kKnight || t == kBishop) {
        attacks->minors |= att;
        // An outpost: defended by a pawn, in the enemy half, no enemy pawn can chase it.
        const int rr = RelativeRank(Us, sq);
        if (rr >= 3 && rr <= 5 && (Bit(sq) & our_pawn_att) &&
            !(kMasks.passed[Us][sq] & kMasks.adjacent[FileOf(sq)] & their_pawns))
          s += kOutpost[t - kKnight];
      } else if (t == kRook) {
        attacks->rooks |= att;
      }
      if (att & zone) {
        ++attackers;
        units += kAttackWeight[t] * Popcount(att & zone);
      }
      if (t == kRook) {
        const Bitboard file = File(FileOf(sq));
        if (!(file & our_pawns)) s += (file & their_pawns) ? kRookSemiOpen : kRookOpen;
      }
    }
  }
  if (Popcount(pos.pieces(Us, kBishop)) >= 2) s += kBishopPair;
  // Attack units count only with two attackers and a queen: a lone piece rarely mates.
  *attack_units = attackers >= 2 && pos.pieces(Us, kQueen) ? units : 0;

  // Pawn structure.
  for (Bitboard b = our_pawns; b;) {
    const Square sq = PopLsb(b);
    const int f = FileOf(sq);
    const Bitboard span = kMasks.forward[Us][sq];
    if (span & our_pawns) s += kDoubled;
    if (!(kMasks.adjacent[f] & our_pawns)) s += kIsolated;
    const Bitboard beside = kMasks.adjacent[f] & Rank(RankOf(sq));
    if ((our_pawn_att & Bit(sq)) || (beside & our_pawns)) s += kConnected * RelativeRank(Us, sq);
    if (!(kMasks.passed[Us][sq] & their_pawns)) {
      Score p = kPassed[RelativeRank(Us, sq)];
      if (span & occ) p = S(p.mg / 2, p.eg / 2);  // blocked
      // In the endgame the kings race to the passer's path: ours to escort, theirs to stop.
      const Square stop = Us == kWhite ? sq + 8 : sq - 8;
      auto dist = [](Square a, Square b) {
        return std::max(std::abs(FileOf(a) - FileOf(b)), std::abs(RankOf(a) - RankOf(b)));
      };
      p.eg += kKingPasserEg * RelativeRank(Us, sq) *
              (dist(pos.king_square(Them), stop) - dist(pos.king_square(Us), stop)) / 2;
      s += p;
    }
  }

  // Pawn shield in front of our king (middlegame only).
  const Square ksq = pos.king_square(Us);
  const int kf = FileOf(ksq);
  int shield = 0;
  for (int f = std::max(0, kf - 1); f <= std::min(7, kf + 1); ++f) {
    const Bitboard file_pawns = File(f) & our_pawns;
    if (!file_pawns) {
      shield -= 15;
      continue;
    }
    const int r1 = RankOf(ksq) + (Us == kWhite ? 1 : -1);
    const int r2 = RankOf(ksq) + (Us == kWhite ? 2 : -2);
    if (r1 >= 0 && r1 < 8 && (file_pawns & Rank(r1)))
      shield += 15;
    else if (r2 >= 0 && r2 < 8 && (file_pawns & Rank(r2)))
      shield += 8;
  }
  s += S(shield, 0);
  return s;
}

int MaterialOf(const Position& pos, Color c) {
  int m = 0;
  for (int t = kKnight; t <= kQueen; ++t)
    m += Popcount(pos.pieces(c, PieceType(t))) * kPieceValue[t];
  return m;
}

}  // namespace

int Evaluate(const Position& pos) {
  const Bitboard wpa = PawnAttacksSet<kWhite>(pos.pieces(kWhite, kPawn));
  const Bitboard bpa = PawnAttacksSet<kBlack>(pos.pieces(kBlack, kPawn));
  int wunits = 0, bunits = 0;
  SideAttacks watt, batt;
  Score s = EvalSide<kWhite>(pos, wpa, bpa, &wunits, &watt);
  s -= EvalSide<kBlack>(pos, bpa, wpa, &bunits, &batt);
  // Heavy pieces attacked by lesser ones.
  auto threats = [&](Color c, const SideAttacks& their) {
    const Bitboard heavy = pos.pieces(c, kRook, kQueen);
    Score t = kThreatByMinor * Popcount(heavy & their.minors);
    t += kThreatByRook * Popcount(pos.pieces(c, kQueen) & their.rooks);
    return t;
  };
  s += threats(kWhite, batt);
  s -= threats(kBlack, watt);
  // King danger grows with the square of the attack, capped.
  s.mg += std::min(wunits * wunits / 2, 500) - std::min(bunits * bunits / 2, 500);

  int phase = 0;
  for (int t = kKnight; t <= kQueen; ++t)
    phase += kPhaseWeight[t] * Popcount(pos.pieces(PieceType(t)));
  phase = std::min(phase, kMaxPhase);
  int v = (s.mg * phase + s.eg * (kMaxPhase - phase)) / kMaxPhase;

  // Mop-up: with a clear material edge against a pawnless side, push the weak king to the
  // edge and bring ours closer, so the search sees progress in K+R v K and the like.
  const int wm = MaterialOf(pos, kWhite), bm = MaterialOf(pos, kBlack);
  for (Color strong : {kWhite, kBlack}) {
    const Color weak = ~strong;
    const int sm = strong == kWhite ? wm : bm, wk = strong == kWhite ? bm : wm;
    if (pos.pieces(weak, kPawn) || sm - wk < 400) continue;
    const Square ws = pos.king_square(weak), ss = pos.king_square(strong);
    const int dist = std::abs(FileOf(ws) - FileOf(ss)) + std::abs(RankOf(ws) - RankOf(ss));
    const int bonus = 20 * CenterDist(FileOf(ws), RankOf(ws)) + 6 * (14 - dist);
    v += strong == kWhite ? bonus : -bonus;
  }
  // Without pawns, an edge of less than a rook rarely wins: scale it down.
  for (Color strong : {kWhite, kBlack}) {
    const int sm = strong == kWhite ? wm : bm, wk = strong == kWhite ? bm : wm;
    const bool ahead = strong == kWhite ? v > 0 : v < 0;
    if (ahead && !pos.pieces(strong, kPawn) && sm - wk < 400) v /= 8;
  }

  return (pos.side_to_move() == kWhite ? v : -v) + kTempo;
}

int See(const Position& pos, Move m) {
  const Square from = m.from(), to = m.to();
  int gain[32];
  int d = 0;
  Piece captured = pos.piece_on(to);
  gain[0] = m.kind() == Move::kEnPassant ? kPieceValue[kPawn]
            : captured == kNoPiece       ? 0
                                         : kPieceValue[TypeOf(captured)];
  if (m.kind() == Move::kPromotion) gain[0] += kPieceValue[m.promotion()] - kPieceValue[kPawn];
  Bitboard occ = pos.pieces() ^ Bit(from);
  if (m.kind() == Move::kEnPassant) occ ^= Bit(to ^ 8);
  int on_square = m.kind() == Move::kPromotion ? kPieceValue[m.promotion()]
                                               : kPieceValue[TypeOf(pos.piece_on(from))];
  if (TypeOf(pos.piece_on(from)) == kKing) on_square = 10000;
  Color side = ~pos.side_to_move();
  const Bitboard diag = pos.pieces(kBishop, kQueen), orth = pos.pieces(kRook, kQueen);
  Bitboard attackers = pos.AttackersTo(to, occ) & occ;
  while (true) {
    const Bitboard mine = attackers & pos.pieces(side);
    if (!mine) break;
    int t = kPawn;
    Bitboard which = 0;
    for (; t <= kKing; ++t) {
      which = mine & pos.pieces(PieceType(t));
      if (which) break;
    }
    ++d;
    gain[d] = on_square - gain[d - 1];
    if (d >= 31) break;
    on_square = t == kKing ? 10000 : kPieceValue[t];
    occ ^= which & -which;
    // Sliders behind the piece that just moved join in (x-rays).
    attackers |= (BishopAttacks(to, occ) & diag) | (RookAttacks(to, occ) & orth);
    attackers &= occ;
    side = ~side;
    if (t == kKing && (attackers & pos.pieces(side))) {
      --d;  // the king cannot capture into a defended square
      break;
    }
  }
  while (d > 0) {
    gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
    --d;
  }
  return gain[0];
}

}  // namespace tablero::bot
