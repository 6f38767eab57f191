#include "libs/shogi4/movegen.h"

#include <cstring>

#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {
namespace {

// Would the pawn `s` dropped on `to` (already on `board`, pos's board otherwise) leave
// `king_owner` without a legal move? The whole position is copied only here (rare).
[[gnu::noinline]] bool PawnDropMates(const Position& pos, const Cell* board, int s, int to,
                                     int king_owner) {
  Position w = pos;
  std::memcpy(w.board, board, sizeof w.board);
  --w.hand[s][HandIndex(kPawn)];
  w.pieces[s] |= SquareBit(to);
  return !HasLegalMove(w, king_owner, false);
}

// Calls sink(move) for each legal move of `s`; stops early (returning true) as soon as
// sink returns true. `only` (0: every move) limits the search to the moves that could be
// `only`: those of the piece on its from-square to its square, or its drops. `check`:
// whether `s` is in check when the caller knows (0 or 1), else -1. kCaptures: only the
// board moves that capture (the same moves under the same tests, in the same order).
template <bool kCaptures = false, class Sink>
bool Generate(const Position& pos, int s, bool pawn_drop_mate, Move only, int check, Sink&& sink) {
  const Tables& t = Tab();
  // Working copy of the board (not the whole position: fewer bytes to copy): squares are
  // changed and restored per move.
  Cell board[kSquares];
  std::memcpy(board, pos.board, sizeof board);
  const unsigned enemies = pos.Enemies(s);
  const int ksq = pos.king[s];
  const int partner = s ^ 2;
  const bool pairs = pos.rules.format == Format::kPairs && pos.Alive(partner);
  const unsigned partner_enemies = pos.Enemies(partner);
  const Squares before = pairs ? Attackers(pos.board, pos.king[partner], partner_enemies) : 0;
  // Pairs: refused if the partner's king gains an attacker (or the moved piece attacks it).
  auto new_check = [&](int to) {
    Squares after = Attackers(board, pos.king[partner], partner_enemies);
    return (after & ~before) != 0 || (after & SquareBit(to)) != 0;
  };
  auto flipped_ahead = [&](int sq, int facing) {
    int n = t.next[sq][Forward(facing)];
    if (n == kNoSquare) return false;
    Cell c = pos.board[n];
    return TypeOf(c) == kKing && !pos.Alive(OwnerOf(c));
  };
  const bool no_pawn_before_flipped = pos.rules.pawn_before_flipped;
  // Only orthogonal sliders exist, so a move can expose the king only when the king is in
  // check, the king itself moves, or the piece stands pinned on an orthogonal line.
  const bool in_check = check >= 0 ? check != 0 : Attacked(pos.board, ksq, enemies);
  Squares pinned = 0;
  for (int d = 0; d < 8; d += 2) {
    int own = kNoSquare;
    for (int n = t.next[ksq][d]; n != kNoSquare; n = t.next[n][d]) {
      Cell c = pos.board[n];
      if (c == 0) continue;
      if (own == kNoSquare) {
        if (OwnerOf(c) != s) break;
        own = n;
        continue;
      }
      if (Slides(TypeOf(c)) && ((enemies >> OwnerOf(c)) & 1)) pinned |= SquareBit(own);
      break;
    }
  }

  Squares movers = pos.pieces[s];
  if (only != 0) movers &= IsDrop(only) ? 0 : SquareBit(MoveFrom(only));
  for (Squares own = movers; own != 0;) {
    const int from = PopSquare(own);
    const Cell c = pos.board[from];
    const int type = TypeOf(c), f = FacingOf(c);
    const bool test_king = in_check || type == kKing || (pinned & SquareBit(from)) != 0;
    auto try_to = [&](int to) {
      if (only != 0 && to != MoveTo(only)) return false;
      const Cell cap = board[to];
      board[to] = c;
      board[from] = 0;
      bool stop = false;
      if (!test_king || !Attacked(board, type == kKing ? to : ksq, enemies)) {
        const bool pawn = type == kPawn;
        const bool promo = CanPromote(type) && (t.zone[f][from] || t.zone[f][to]);
        const bool plain =
            !(pawn && (t.last[f][to] || (no_pawn_before_flipped && flipped_ahead(to, f))));
        if (plain && !(pairs && new_check(to))) stop = sink(MakeBoardMove(from, to, false));
        if (!stop && promo) {
          board[to] = MakeCell(kPromoted[type], s, f);
          if (!(pairs && new_check(to))) stop = sink(MakeBoardMove(from, to, true));
        }
      }
      board[from] = c;
      board[to] = cap;
      return stop;
    };
    const uint8_t steps = t.steps[type][f];
    for (int d = 0; d < 8; ++d) {
      if (!((steps >> d) & 1)) continue;
      int to = t.next[from][d];
      if (to == kNoSquare) continue;
      Cell tc = pos.board[to];
      if (tc != 0 && (TypeOf(tc) == kKing || OwnerOf(tc) == s)) continue;
      if (kCaptures && tc == 0) continue;
      if (try_to(to)) return true;
    }
    if (Slides(type)) {
      for (int d = 0; d < 8; d += 2) {
        for (int to = t.next[from][d]; to != kNoSquare; to = t.next[to][d]) {
          Cell tc = pos.board[to];
          if (tc != 0 && (TypeOf(tc) == kKing || OwnerOf(tc) == s)) break;
          if (kCaptures && tc == 0) continue;
          if (try_to(to)) return true;
          if (tc != 0) break;
        }
      }
    }
  }

  if (kCaptures || (only != 0 && !IsDrop(only))) return false;
  // Drops: gold, silver, rook first, pawns last (their pawn-drop-mate test is dearest).
  static constexpr int kDropOrder[kHandTypes] = {kGold, kSilver, kRook, kPawn};
  unsigned pawn_lines = 0;  // nifu: lines holding an own unpromoted pawn facing forward
  if (pos.hand[s][HandIndex(kPawn)] != 0) {
    for (Squares own = pos.pieces[s]; own != 0;) {
      int sq = PopSquare(own);
      if (pos.board[sq] == MakeCell(kPawn, s, s)) pawn_lines |= 1u << t.line[s][sq];
    }
  }
  Squares occupied = 0;
  for (Squares b : pos.pieces) occupied |= b;
  const Squares empty = kAllSquares & ~occupied;
  for (int type : kDropOrder) {
    if (pos.hand[s][HandIndex(type)] == 0 || (only != 0 && DropType(only) != type)) continue;
    const Cell c = MakeCell(type, s, s);
    for (Squares e = only != 0 ? empty & SquareBit(MoveTo(only)) : empty; e != 0;) {
      const int to = PopSquare(e);
      if (type == kPawn) {
        if (t.last[s][to] || ((pawn_lines >> t.line[s][to]) & 1)) continue;
        if (no_pawn_before_flipped && flipped_ahead(to, s)) continue;
      }
      board[to] = c;
      bool ok = !(in_check && Attacked(board, ksq, enemies)) && !(pairs && new_check(to));
      if (ok && type == kPawn && pawn_drop_mate) {
        int n = t.next[to][Forward(s)];
        Cell k = n == kNoSquare ? 0 : board[n];
        if (TypeOf(k) == kKing && OwnerOf(k) != s && pos.Alive(OwnerOf(k))) {
          ok = !PawnDropMates(pos, board, s, to, OwnerOf(k));
        }
      }
      board[to] = 0;
      if (ok && sink(MakeDrop(type, to))) return true;
    }
  }
  return false;
}

// HasLegalMove and IsLegal: one search (`only` 0: any move), so that a request that asks
// both (a state's decode, then its move) runs the same code twice.
[[gnu::noinline]] bool Find(const Position& pos, int seat, bool pawn_drop_mate, Move only,
                            int check) {
  return Generate(pos, seat, pawn_drop_mate, only, check,
                  [only](Move m) { return only == 0 || m == only; });
}

}  // namespace

void GenerateLegal(const Position& pos, int seat, MoveList* out) {
  Generate(pos, seat, true, 0, -1, [out](Move m) {
    out->Add(m);
    return false;
  });
}

void GenerateCaptures(const Position& pos, int seat, MoveList* out) {
  Generate<true>(pos, seat, true, 0, -1, [out](Move m) {
    out->Add(m);
    return false;
  });
}

int CountLegal(const Position& pos, int seat) {
  int n = 0;
  Generate(pos, seat, true, 0, -1, [&n](Move) {
    ++n;
    return false;
  });
  return n;
}

bool HasLegalMove(const Position& pos, int seat, bool pawn_drop_mate) {
  return Find(pos, seat, pawn_drop_mate, 0, -1);
}

bool HasLegalMove(const Position& pos, int seat, bool pawn_drop_mate, bool in_check) {
  return Find(pos, seat, pawn_drop_mate, 0, in_check);
}

bool IsLegal(const Position& pos, Move m) { return m != 0 && Find(pos, pos.to_move, true, m, -1); }

bool IsLegal(const Position& pos, Move m, bool in_check) {
  return m != 0 && Find(pos, pos.to_move, true, m, in_check);
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth == 0) return 1;
  if (pos.over != EndReason::kNone) return 0;
  if (depth == 1) return static_cast<uint64_t>(CountLegal(pos, pos.to_move));
  uint64_t n = 0;
  Generate(pos, pos.to_move, true, 0, -1, [&](Move m) {
    Position child = pos;
    MakeMove(child, m);
    n += Perft(child, depth - 1);
    return false;
  });
  return n;
}

}  // namespace tablero::shogi4
