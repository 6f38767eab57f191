#include "libs/bot/chess_eval.h"

#include <algorithm>
#include <cstdlib>

namespace tablero::bot {

using namespace chess;  // NOLINT: the engine's own vocabulary

namespace {

namespace ix = eval_index;
using Score = EvalScore;
constexpr Score S(int mg, int eg) { return Score{mg, eg}; }

constexpr int kPhaseWeight[6] = {0, 1, 1, 2, 4, 0};
constexpr int kMaxPhase = 24;

// Distance from the centre: 0 on d4/e4/d5/e5, 3 on the rim (the mop-up term).
constexpr int CenterDist(int f, int r) {
  const int df = f < 4 ? 3 - f : f - 4;
  const int dr = r < 4 ? 3 - r : r - 4;
  return df > dr ? df : dr;
}

// Fixed shape of the terms whose weights are in the table.
constexpr int kMobilityBase[6] = {0, 4, 6, 6, 12, 0};
constexpr int kAttackWeight[6] = {0, 2, 2, 3, 5, 0};

// Records the weights used, for the tuner; the search's instance does nothing.
struct NoTrace {
  void Use(Color, int, float) {}
};
struct Tracer {
  ChessEvalTrace* t;
  void Use(Color c, int i, float n) { t->uses[i] += c == kWhite ? n : -n; }
};

thread_local const ChessEvalParams* active_params = nullptr;
thread_local const ChessNet* active_net = nullptr;
thread_local bool net_set = false;  // active_net holds a ScopedChessNet's choice

inline Square Relative(Color c, Square s) { return c == kWhite ? s : s ^ 56; }

// King steps between two squares.
inline int Distance(Square a, Square b) {
  return std::max(std::abs(FileOf(a) - FileOf(b)), std::abs(RankOf(a) - RankOf(b)));
}

// The square in front of a pawn of colour c on `sq`.
inline Square Stop(Color c, Square sq) { return c == kWhite ? sq + 8 : sq - 8; }

// The squares of the colour of `sq`.
inline Bitboard SameColour(Square sq) {
  constexpr Bitboard kDark = 0xAA55AA55AA55AA55ULL;
  return (Bit(sq) & kDark) ? kDark : ~kDark;
}

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

// The squares one side attacks (by piece type, and all together) and its passed pawns, for
// the terms that look at both sides: threats, hanging pieces, safe checks, free passers.
struct SideAttacks {
  Bitboard by_type[6] = {};
  Bitboard all = 0;
  Bitboard passed = 0;
};

template <Color Us, class Trace>
Score EvalSide(const Position& pos, const ChessEvalParams& w, Trace& tr, Bitboard our_pawn_att,
               Bitboard their_pawn_att, int* attack_units, SideAttacks* attacks) {
  constexpr Color Them = Us == kWhite ? kBlack : kWhite;
  Score s;
  auto use = [&](int i, int n = 1) {
    s += w[i] * n;
    tr.Use(Us, i, float(n));
  };
  const Bitboard occ = pos.pieces();
  const Bitboard own = pos.pieces(Us);
  const Bitboard our_pawns = pos.pieces(Us, kPawn), their_pawns = pos.pieces(Them, kPawn);
  const Square their_king = pos.king_square(Them);
  const Bitboard zone = KingAttacks(their_king) | Bit(their_king);
  int attackers = 0, units = 0;

  for (int t = kPawn; t <= kKing; ++t) {
    for (Bitboard b = pos.pieces(Us, PieceType(t)); b;) {
      const Square sq = PopLsb(b);
      use(ix::kMaterial + t);
      use(ix::kPst + t * 64 + Relative(Us, sq));
      if (t == kPawn || t == kKing) continue;
      const Bitboard att = Attacks(PieceType(t), sq, occ);
      const int reach = Popcount(att & ~own & ~their_pawn_att);
      use(ix::kMobility + t, reach - kMobilityBase[t]);
      use(ix::kMobilityCount + ix::kMobilityCountAt[t] + reach);
      attacks->by_type[t] |= att;
      if (Bit(sq) & their_pawn_att) use(ix::kThreatByPawn);
      if (t == kKnight || t == kBishop) {
        // An outpost: defended by a pawn, in the enemy half, no enemy pawn can chase it.
        const int rr = RelativeRank(Us, sq);
        if (rr >= 3 && rr <= 5 && (Bit(sq) & our_pawn_att) &&
            !(kMasks.passed[Us][sq] & kMasks.adjacent[FileOf(sq)] & their_pawns))
          use(ix::kOutpost + t - kKnight);
      }
      if (t == kBishop) use(ix::kBadBishop, Popcount(our_pawns & SameColour(sq)));
      if (att & zone) {
        ++attackers;
        const int hits = Popcount(att & zone);
        units += kAttackWeight[t] * hits;
        use(ix::kKingZoneAttack + t - kKnight, hits);
      }
      if (t == kRook) {
        const Bitboard file = File(FileOf(sq));
        if (!(file & our_pawns)) use((file & their_pawns) ? ix::kRookSemiOpen : ix::kRookOpen);
      }
    }
  }
  if (Popcount(pos.pieces(Us, kBishop)) >= 2) use(ix::kBishopPair);
  if (attackers > 0) use(ix::kKingAttackers + std::min(attackers, 4) - 1);
  // Attack units count only with two attackers and a queen: a lone piece rarely mates.
  *attack_units = attackers >= 2 && pos.pieces(Us, kQueen) ? units : 0;

  // Pawn structure.
  const Square ksq = pos.king_square(Us);
  int king_to_pawn = 8;  // the king's distance to its nearest pawn
  for (Bitboard b = our_pawns; b;) {
    const Square sq = PopLsb(b);
    const Square stop = Stop(Us, sq);
    const int f = FileOf(sq);
    king_to_pawn = std::min(king_to_pawn, Distance(ksq, sq));
    const Bitboard span = kMasks.forward[Us][sq];
    if (span & our_pawns) use(ix::kDoubled);
    if (!(kMasks.adjacent[f] & our_pawns)) {
      use(ix::kIsolated);
    } else if (!(kMasks.passed[Them][stop] & kMasks.adjacent[f] & our_pawns) &&
               (Bit(stop) & their_pawn_att)) {
      use(ix::kBackward);  // no pawn beside or behind can support it, and its advance is met
    }
    const Bitboard beside = kMasks.adjacent[f] & Rank(RankOf(sq));
    if ((our_pawn_att & Bit(sq)) || (beside & our_pawns)) use(ix::kConnected, RelativeRank(Us, sq));
    if (!(kMasks.passed[Us][sq] & their_pawns)) {
      attacks->passed |= Bit(sq);
      use((span & occ ? ix::kPassedBlocked : ix::kPassed) + RelativeRank(Us, sq));
      // In the endgame the kings race to the passer's path: ours to escort, theirs to stop.
      const int race =
          RelativeRank(Us, sq) * (Distance(pos.king_square(Them), stop) - Distance(ksq, stop));
      const Score k = w[ix::kKingPasser];
      s += S(k.mg * race / 2, k.eg * race / 2);
      tr.Use(Us, ix::kKingPasser, race / 2.0f);
    }
  }

  if (our_pawns) use(ix::kKingPawnDistance, king_to_pawn);

  // Space: safe squares of the centre files on our second to fourth ranks, twice behind a
  // pawn of ours.
  constexpr Bitboard kCentreFiles = 0x3C3C3C3C3C3C3C3CULL;
  constexpr Bitboard kOurRanks = Us == kWhite ? 0x00000000FFFFFF00ULL : 0x00FFFFFF00000000ULL;
  const Bitboard area = kCentreFiles & kOurRanks & ~our_pawns & ~their_pawn_att;
  Bitboard behind = our_pawns;
  behind |= Us == kWhite ? behind >> 8 : behind << 8;
  behind |= Us == kWhite ? behind >> 16 : behind << 16;
  use(ix::kSpace, Popcount(area) + Popcount(area & behind));
  attacks->by_type[kPawn] = our_pawn_att;
  attacks->by_type[kKing] = KingAttacks(ksq);
  for (Bitboard b : attacks->by_type) attacks->all |= b;

  // Pawn shield in front of our king (middlegame only).
  const int kf = FileOf(ksq);
  for (int f = std::max(0, kf - 1); f <= std::min(7, kf + 1); ++f) {
    const Bitboard file_pawns = File(f) & our_pawns;
    if (!file_pawns) {
      use(ix::kShieldMissing);
      continue;
    }
    const int r1 = RankOf(ksq) + (Us == kWhite ? 1 : -1);
    const int r2 = RankOf(ksq) + (Us == kWhite ? 2 : -2);
    if (r1 >= 0 && r1 < 8 && (file_pawns & Rank(r1)))
      use(ix::kShieldNear);
    else if (r2 >= 0 && r2 < 8 && (file_pawns & Rank(r2)))
      use(ix::kShieldFar);
  }
  return s;
}

int MaterialOf(const Position& pos, Color c) {
  int m = 0;
  for (int t = kKnight; t <= kQueen; ++t)
    m += Popcount(pos.pieces(c, PieceType(t))) * kPieceValue[t];
  return m;
}

template <class Trace>
int EvaluateWith(const Position& pos, const ChessEvalParams& w, Trace tr, ChessEvalTrace* trace) {
  const Bitboard wpa = PawnAttacksSet<kWhite>(pos.pieces(kWhite, kPawn));
  const Bitboard bpa = PawnAttacksSet<kBlack>(pos.pieces(kBlack, kPawn));
  int wunits = 0, bunits = 0;
  SideAttacks watt, batt;
  Score s = EvalSide<kWhite>(pos, w, tr, wpa, bpa, &wunits, &watt);
  s -= EvalSide<kBlack>(pos, w, tr, bpa, wpa, &bunits, &batt);
  // The terms that need both sides' attacks, for side c against `their`.
  auto both_sides = [&](Color c, const SideAttacks& ours, const SideAttacks& their) {
    Score t;
    auto use = [&](int i, int n) {
      t += w[i] * n;
      tr.Use(c, i, float(n));
    };
    // Heavy pieces attacked by lesser ones.
    use(ix::kThreatByMinor,
        Popcount(pos.pieces(c, kRook, kQueen) & (their.by_type[kKnight] | their.by_type[kBishop])));
    use(ix::kThreatByRook, Popcount(pos.pieces(c, kQueen) & their.by_type[kRook]));
    // Pieces attacked and not defended.
    const Bitboard pieces = pos.pieces(c) & ~pos.pieces(c, kPawn, kKing);
    use(ix::kHanging, Popcount(pieces & their.all & ~ours.all));
    // Squares our pieces could check their king from, that they do not guard.
    const Square king = pos.king_square(~c);
    const Bitboard occ = pos.pieces();
    const Bitboard safe = ~their.all & ~pos.pieces(c);
    const Bitboard diag = BishopAttacks(king, occ), orth = RookAttacks(king, occ);
    use(ix::kSafeCheck + 0, Popcount(ours.by_type[kKnight] & KnightAttacks(king) & safe));
    use(ix::kSafeCheck + 1, Popcount(ours.by_type[kBishop] & diag & safe));
    use(ix::kSafeCheck + 2, Popcount(ours.by_type[kRook] & orth & safe));
    use(ix::kSafeCheck + 3, Popcount(ours.by_type[kQueen] & (diag | orth) & safe));
    // Squares beside our king they attack and only our king or queen guards.
    const Bitboard guards =
        ours.by_type[kPawn] | ours.by_type[kKnight] | ours.by_type[kBishop] | ours.by_type[kRook];
    use(ix::kWeakKingSquares, Popcount(KingAttacks(pos.king_square(c)) & their.all & ~guards));
    // Their pieces a safe pawn push of ours would attack.
    const Bitboard our_pawns = pos.pieces(c, kPawn);
    const Bitboard pushed =
        (c == kWhite ? our_pawns << 8 : our_pawns >> 8) & ~occ & (~their.all | ours.all);
    const Bitboard hit =
        c == kWhite ? PawnAttacksSet<kWhite>(pushed) : PawnAttacksSet<kBlack>(pushed);
    use(ix::kPawnPushThreat, Popcount(hit & pos.pieces(~c) & ~pos.pieces(~c, kPawn)));
    // Passed pawns whose next square is empty and not attacked.
    for (Bitboard b = ours.passed; b;) {
      const Square sq = PopLsb(b);
      if (!(Bit(Stop(c, sq)) & (occ | their.all))) use(ix::kPassedFree + RelativeRank(c, sq), 1);
    }
    return t;
  };
  s += both_sides(kWhite, watt, batt);
  s -= both_sides(kBlack, batt, watt);
  // King danger grows with the square of the attack, capped.
  const int danger = std::min(wunits * wunits / 2, 500) - std::min(bunits * bunits / 2, 500);
  s.mg += danger;

  int phase = 0;
  for (int t = kKnight; t <= kQueen; ++t)
    phase += kPhaseWeight[t] * Popcount(pos.pieces(PieceType(t)));
  phase = std::min(phase, kMaxPhase);
  int v = (s.mg * phase + s.eg * (kMaxPhase - phase)) / kMaxPhase;

  // Mop-up: with a clear material edge against a pawnless side, push the weak king to the
  // edge and bring ours closer, so the search sees progress in K+R v K and the like.
  const int wm = MaterialOf(pos, kWhite), bm = MaterialOf(pos, kBlack);
  int mop_up = 0;
  for (Color strong : {kWhite, kBlack}) {
    const Color weak = ~strong;
    const int sm = strong == kWhite ? wm : bm, wk = strong == kWhite ? bm : wm;
    if (pos.pieces(weak, kPawn) || sm - wk < 400) continue;
    const Square ws = pos.king_square(weak), ss = pos.king_square(strong);
    const int dist = std::abs(FileOf(ws) - FileOf(ss)) + std::abs(RankOf(ws) - RankOf(ss));
    const int bonus = 20 * CenterDist(FileOf(ws), RankOf(ws)) + 6 * (14 - dist);
    mop_up += strong == kWhite ? bonus : -bonus;
  }
  v += mop_up;
  // Without pawns, an edge of less than a rook rarely wins: scale it down.
  bool scaled = false;
  for (Color strong : {kWhite, kBlack}) {
    const int sm = strong == kWhite ? wm : bm, wk = strong == kWhite ? bm : wm;
    const bool ahead = strong == kWhite ? v > 0 : v < 0;
    if (ahead && !pos.pieces(strong, kPawn) && sm - wk < 400) {
      v /= 8;
      scaled = true;
    }
  }
  if (trace) {
    trace->phase = phase;
    trace->king_danger_mg = danger;
    trace->mop_up = mop_up;
    trace->scaled_down = scaled;
    trace->white_to_move = pos.side_to_move() == kWhite;
  }
  const Score tempo = w[ix::kTempo];
  return (pos.side_to_move() == kWhite ? v : -v) +
         (tempo.mg * phase + tempo.eg * (kMaxPhase - phase)) / kMaxPhase;
}

}  // namespace

int Evaluate(const Position& pos, const ChessEvalParams& params) {
  return EvaluateWith(pos, params, NoTrace{}, nullptr);
}

bool ChessNetApplies(const Position& pos) {
  return pos.pieces(kWhite) != pos.pieces(kWhite, kKing) &&
         pos.pieces(kBlack) != pos.pieces(kBlack, kKing);
}

int Evaluate(const Position& pos, const ChessNet* net) {
  if (net && ChessNetApplies(pos)) return EvaluateChessNet(*net, pos);
  return Evaluate(pos, active_params ? *active_params : TunedChessEvalParams());
}

int Evaluate(const Position& pos) { return Evaluate(pos, ActiveChessNet()); }

const ChessNet* ActiveChessNet() { return net_set ? active_net : ShippedChessNet(); }

ScopedChessNet::ScopedChessNet(const ChessNet* net)
    : previous_(active_net), previous_set_(net_set) {
  active_net = net;
  net_set = true;
}
ScopedChessNet::~ScopedChessNet() {
  active_net = previous_;
  net_set = previous_set_;
}

int Evaluate(const Position& pos, const ChessEvalParams& params, ChessEvalTrace* trace) {
  *trace = ChessEvalTrace{};
  return EvaluateWith(pos, params, Tracer{trace}, trace);
}

double TracedEval(const ChessEvalTrace& t, const double* w, double* gradient) {
  const double mg_share = t.phase / double(kMaxPhase), eg_share = 1 - mg_share;
  double mg = t.king_danger_mg, eg = 0;
  for (int i = 0; i < ix::kCount; ++i) {
    if (t.uses[i] == 0) continue;
    mg += t.uses[i] * w[2 * i];
    eg += t.uses[i] * w[2 * i + 1];
  }
  const double scale = t.scaled_down ? 1.0 / 8 : 1.0;
  const double sign = t.white_to_move ? 1 : -1;
  const double v = (mg * mg_share + eg * eg_share + t.mop_up) * scale * sign;
  if (gradient) {
    for (int i = 0; i < ix::kCount; ++i) {
      if (t.uses[i] == 0) continue;
      gradient[2 * i] += t.uses[i] * mg_share * scale * sign;
      gradient[2 * i + 1] += t.uses[i] * eg_share * scale * sign;
    }
    gradient[2 * ix::kTempo] += mg_share;
    gradient[2 * ix::kTempo + 1] += eg_share;
  }
  return v + w[2 * ix::kTempo] * mg_share + w[2 * ix::kTempo + 1] * eg_share;
}

ScopedChessEvalParams::ScopedChessEvalParams(const ChessEvalParams& params)
    : previous_(active_params) {
  active_params = &params;
}
ScopedChessEvalParams::~ScopedChessEvalParams() { active_params = previous_; }

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
