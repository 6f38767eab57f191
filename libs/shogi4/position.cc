#include "libs/shogi4/position.h"

#include "libs/shogi4/movegen.h"
#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {

int Position::MatesMade(int seat) const {
  int n = 0;
  for (int i = 0; i < n_elim; ++i) n += mated_by[elim[i]] == seat;
  return n;
}

int Position::LastMate(int seat) const {
  int last = 0;
  for (int i = 0; i < n_elim; ++i) {
    if (mated_by[elim[i]] == seat) last = i + 1;
  }
  return last;
}

Position StartPosition(const Rules& rules, int first) {
  // Seat 0's army in (rank, col); other seats are the same turned clockwise.
  struct Placed {
    int rank, col, type;
  };
  static constexpr Placed kArmy[] = {
      {8, 2, kSilver}, {8, 3, kGold}, {8, 4, kKing}, {8, 5, kGold}, {8, 6, kSilver},
      {7, 3, kPawn},   {7, 4, kRook}, {7, 5, kPawn}, {6, 4, kPawn},
  };
  Position pos;
  pos.rules = rules;
  pos.to_move = static_cast<int8_t>(first);
  for (int seat = 0; seat < kSeats; ++seat) {
    for (const Placed& p : kArmy) {
      int r = p.rank, c = p.col;
      for (int k = 0; k < seat; ++k) {  // clockwise quarter turn: (r, c) -> (c, 8 - r)
        int nr = c, nc = 8 - r;
        r = nr;
        c = nc;
      }
      int sq = MakeSquare(r, c);
      pos.board[sq] = MakeCell(p.type, seat, seat);
      pos.pieces[seat] |= SquareBit(sq);
      if (p.type == kKing) pos.king[seat] = static_cast<uint8_t>(sq);
    }
  }
  return pos;
}

bool Attacked(const Cell* board, int sq, unsigned by) {
  const Tables& t = Tab();
  for (int d = 0; d < 8; ++d) {
    int n = t.next[sq][d];
    if (n == kNoSquare) continue;
    Cell c = board[n];
    if (c == 0 || !((by >> OwnerOf(c)) & 1)) continue;
    // The piece on n reaches sq by the opposite direction.
    if ((t.steps[TypeOf(c)][FacingOf(c)] >> ((d + 4) & 7)) & 1) return true;
  }
  for (int d = 0; d < 8; d += 2) {
    for (int n = t.next[sq][d]; n != kNoSquare; n = t.next[n][d]) {
      Cell c = board[n];
      if (c == 0) continue;
      if (Slides(TypeOf(c)) && ((by >> OwnerOf(c)) & 1)) return true;
      break;
    }
  }
  return false;
}

Squares Attackers(const Cell* board, int sq, unsigned by) {
  const Tables& t = Tab();
  Squares out = 0;
  for (int d = 0; d < 8; ++d) {
    int n = t.next[sq][d];
    if (n == kNoSquare) continue;
    Cell c = board[n];
    if (c == 0 || !((by >> OwnerOf(c)) & 1)) continue;
    if ((t.steps[TypeOf(c)][FacingOf(c)] >> ((d + 4) & 7)) & 1) out |= SquareBit(n);
  }
  for (int d = 0; d < 8; d += 2) {
    for (int n = t.next[sq][d]; n != kNoSquare; n = t.next[n][d]) {
      Cell c = board[n];
      if (c == 0) continue;
      if (Slides(TypeOf(c)) && ((by >> OwnerOf(c)) & 1)) out |= SquareBit(n);
      break;
    }
  }
  return out;
}

void DoMove(Position& pos, Move m) {
  const int s = pos.to_move;
  const int to = MoveTo(m);
  if (IsDrop(m)) {
    int type = DropType(m);
    pos.board[to] = MakeCell(type, s, s);
    pos.pieces[s] |= SquareBit(to);
    --pos.hand[s][HandIndex(type)];
  } else {
    const int from = MoveFrom(m);
    Cell c = pos.board[from];
    Cell captured = pos.board[to];
    if (captured != 0) {
      ++pos.hand[s][HandIndex(kUnpromoted[TypeOf(captured)])];
      pos.pieces[OwnerOf(captured)] &= ~SquareBit(to);
    }
    pos.pieces[s] ^= SquareBit(from) | SquareBit(to);
    int type = TypeOf(c);
    if (IsPromotion(m)) type = kPromoted[type];
    pos.board[to] = MakeCell(type, s, FacingOf(c));
    pos.board[from] = 0;
    if (type == kKing) pos.king[s] = static_cast<uint8_t>(to);
  }
  ++pos.ply;
  pos.last_mover = static_cast<int8_t>(s);
}

int PickNext(const Position& pos, int mover) {
  for (int k = 1; k < kSeats; ++k) {
    int t = (mover + k) & 3;
    if (pos.Alive(t) && InCheck(pos, t)) return t;
  }
  for (int k = 1; k <= kSeats; ++k) {
    int t = (mover + k) & 3;
    if (pos.Alive(t)) return t;
  }
  return mover;
}

int Eliminate(Position& pos, int seat, int mater) {
  pos.alive &= static_cast<uint8_t>(~(1u << seat));
  pos.elim[pos.n_elim++] = static_cast<int8_t>(seat);
  pos.mated_by[seat] = static_cast<int8_t>(mater);
  int passed = 0;
  for (int i = 0; i < kHandTypes; ++i) {
    passed += pos.hand[seat][i];
    pos.hand[mater][i] = static_cast<uint8_t>(pos.hand[mater][i] + pos.hand[seat][i]);
    pos.hand[seat][i] = 0;
  }
  const int receiver = pos.rules.ownerless ? kOwnerless : mater;
  Squares moved = pos.pieces[seat] & ~SquareBit(pos.king[seat]);
  pos.pieces[seat] = SquareBit(pos.king[seat]);
  pos.pieces[receiver] |= moved;
  while (moved != 0) {
    int sq = PopSquare(moved);
    Cell c = pos.board[sq];
    pos.board[sq] = MakeCell(TypeOf(c), receiver, FacingOf(c));
    ++passed;
  }
  int left = __builtin_popcount(pos.alive);
  if (pos.rules.format == Format::kPairs) {
    pos.over = EndReason::kPairsMate;
  } else if (left <= 1) {
    pos.over = EndReason::kLastOneStanding;
  } else if (pos.rules.ending == Ending::kTwoMates && pos.n_elim >= 2) {
    pos.over = EndReason::kTwoMates;
  }
  return passed;
}

void MakeMove(Position& pos, Move m) {
  DoMove(pos, m);
  Resolve(
      pos, [](const Position& p, int seat) { return HasLegalMove(p, seat); }, [](int, int, int) {});
}

uint64_t Key(const Position& pos) {
  const Tables& t = Tab();
  uint64_t k = t.alive[pos.alive & 15] ^ t.to_move[pos.to_move & 3];
  for (int sq = 0; sq < kSquares; ++sq) {
    if (pos.board[sq] != 0) k ^= t.cell[sq][CellIndex(pos.board[sq])];
  }
  // An empty slot's key is 0: skipping it spares a cache line per slot.
  for (int s = 0; s < kSeats; ++s) {
    for (int i = 0; i < kHandTypes; ++i) {
      if (pos.hand[s][i] != 0) k ^= t.hand[s][i][pos.hand[s][i] > 81 ? 81 : pos.hand[s][i]];
    }
  }
  return k;
}

uint64_t MoveTerms(const Position& p, int to_move, int from, int to, int seat, int slot) {
  const Tables& t = Tab();
  uint64_t k = t.to_move[to_move & 3];
  if (from >= 0 && p.board[from] != 0) k ^= t.cell[from][CellIndex(p.board[from])];
  if (p.board[to] != 0) k ^= t.cell[to][CellIndex(p.board[to])];
  if (slot >= 0 && slot < kHandTypes) {  // (only the slot that changes: a cache line)
    const int n = p.hand[seat][slot];
    k ^= t.hand[seat][slot][n > 81 ? 81 : n];
  }
  return k;
}

namespace {

int PiecesOf(const Position& pos, int seat) {
  int n = 0;
  for (Squares b = pos.pieces[seat]; b != 0; PopSquare(b)) ++n;
  for (int i = 0; i < kHandTypes; ++i) n += pos.hand[seat][i];
  return n;
}

}  // namespace

std::array<int, kSeats> Places(const Position& pos) {
  std::array<int, kSeats> places{0, 0, 0, 0};
  const bool pairs = pos.rules.format == Format::kPairs;
  if (pos.over == EndReason::kNone) {
    // Running: only the eliminated are placed, the first mated last.
    if (!pairs) {
      for (int i = 0; i < pos.n_elim; ++i) places[pos.elim[i]] = kSeats - i;
    }
    return places;
  }
  if (pos.over == EndReason::kPairsMate) {
    int loser = pos.elim[0] & 1;  // team 0: seats 0 and 2; team 1: seats 1 and 3
    for (int s = 0; s < kSeats; ++s) places[s] = (s & 1) == loser ? 2 : 1;
    return places;
  }
  if (pairs) {  // move limit or fourth occurrence in pairs: a draw with no ranking
    places.fill(1);
    return places;
  }
  // Eliminated seats: the first mated is last.
  for (int i = 0; i < pos.n_elim; ++i) places[pos.elim[i]] = kSeats - i;
  // Survivors by the tie-breaks of this ending (lexicographic, larger is better).
  const bool full = pos.over == EndReason::kTwoMates || pos.over == EndReason::kLastOneStanding;
  std::array<std::array<int, 3>, kSeats> score{};
  for (int s = 0; s < kSeats; ++s) {
    if (!pos.Alive(s)) continue;
    score[s][0] = pos.MatesMade(s);
    score[s][1] = PiecesOf(pos, s) + (full ? pos.MatesMade(s) : 0);  // + mated flipped kings
    score[s][2] = full ? pos.LastMate(s) : 0;
  }
  for (int s = 0; s < kSeats; ++s) {
    if (!pos.Alive(s)) continue;
    int better = 0;
    for (int t = 0; t < kSeats; ++t) better += pos.Alive(t) && score[t] > score[s];
    places[s] = 1 + better;
  }
  return places;
}

}  // namespace tablero::shogi4
