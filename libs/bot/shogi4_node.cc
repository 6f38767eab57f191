#include "libs/bot/shogi4_node.h"

#include <array>
#include <bit>
#include <cstring>

#include "libs/bot/shogi4_attacks.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/tables.h"

namespace tablero::bot {

namespace s4 = shogi4;

int Shogi4Material(const s4::Position& pos, int seat) {
  int m = 0;
  for (s4::Squares b = pos.pieces[seat]; b != 0;)
    m += kShogi4BoardValue[s4::TypeOf(pos.board[s4::PopSquare(b)])];
  for (int h = 0; h < s4::kHandTypes; ++h) m += pos.hand[seat][h] * kShogi4HandValue[h];
  return m;
}

namespace {

// The counts of `near` (the owner's pieces, its king excepted) within 1 and 2 king steps of
// `sq`, as Shogi4Sums::near holds them for a seat whose king stands on `sq`.
void CountNear(const s4::Position& pos, int sq, int seat, Shogi4Sums& e) {
  const Shogi4Near& nt = Shogi4NearTable();
  for (int a = 0; a < s4::kSeats; ++a) {
    for (int r = 0; r < 2; ++r) {
      const s4::Squares near = pos.pieces[a] & nt.area[r][sq];
      e.near[a][r][seat] =
          static_cast<uint8_t>(Shogi4Popcount(near) - int((near >> pos.king[a]) & 1));
    }
  }
  e.open[seat] =
      static_cast<uint8_t>(Shogi4Popcount(Shogi4RayTable().adjacent[sq] & ~Shogi4Occupied(pos)));
}

// Byte i of kSpread[z]: bit i of z (a zone as counts to add).
constexpr auto kSpread = [] {
  std::array<uint64_t, 256> t{};
  for (int z = 0; z < 256; ++z)
    for (int i = 0; i < 8; ++i) t[z] |= uint64_t((z >> i) & 1) << (8 * i);
  return t;
}();

// Adds `plus` and takes `minus` from the `size` (4 or 8) byte counts at `counts` at once,
// byte by byte: every count stays within 0-255, so no byte carries into the next.
static_assert(std::endian::native == std::endian::little, "counts as bytes of a word");
void AddCounts(uint8_t* counts, int size, uint64_t plus, uint64_t minus) {
  uint64_t v = 0;
  std::memcpy(&v, counts, size);
  v = v + plus - minus;
  std::memcpy(counts, &v, size);
}

// The sums after `seat` moved a piece from `from` (-1: a drop) to `to`, taking `captured`
// (0: none); `king`: the piece is its king. Before any mate (a mate counts again). A
// square a piece leaves or takes is never a king's (but the moving king's own).
void UpdateSums(Shogi4Node& node, int seat, int from, int to, s4::Cell captured, bool king) {
  const s4::Position& p = node.pos;
  Shogi4Sums& e = node.sums;
  // A square's zone: bit b, within one king step of seat b's king; bit 4 + b, within two
  // (the layout of an owner's counts in Shogi4Sums::near).
  const unsigned zt = node.kings[to] & 0xFFu, zf = from >= 0 ? node.kings[from] & 0xFFu : 0;
  if (!king) AddCounts(&e.near[seat][0][0], 8, kSpread[zt], kSpread[zf]);  // (kings uncounted)
  if (captured != 0 && s4::OwnerOf(captured) < s4::kSeats)
    AddCounts(&e.near[s4::OwnerOf(captured)][0][0], 8, 0, kSpread[zt]);
  // The empty squares beside each king: `from` emptied, `to` filled unless it was taken.
  AddCounts(e.open, 4, kSpread[zf & 15], captured != 0 ? 0 : kSpread[zt & 15]);
  if (king) CountNear(p, to, seat, e);  // everything around the king's new square
}

}  // namespace

Shogi4Sums Shogi4SumsOf(const s4::Position& pos) {
  Shogi4Sums e = {};
  for (int b = 0; b < s4::kSeats; ++b) CountNear(pos, pos.king[b], b, e);
  for (int i = 0; i < pos.n_elim; ++i) {
    const int by = pos.mated_by[pos.elim[i]];
    if (by >= 0 && by < s4::kSeats) ++e.mates[by];
  }
  for (int s = 0; s < s4::kSeats; ++s) {
    for (int h = 0; h < s4::kHandTypes; ++h)
      e.threat[s] = static_cast<uint8_t>(e.threat[s] + pos.hand[s][h] * kShogi4HandThreat[h]);
  }
  return e;
}

namespace {

void Recount(Shogi4Node& node) {
  node.checked = 0;
  node.sliders = Shogi4Sliders(node.pos);
  node.sums = Shogi4SumsOf(node.pos);
  Shogi4KingMarksOf(node.pos, node.kings);
  for (int s = 0; s < s4::kSeats; ++s) {
    node.material[s] = Shogi4Material(node.pos, s);
    if (node.pos.Alive(s) && Shogi4InCheck(node.pos, s)) node.checked |= 1u << s;
  }
  node.in_check =
      node.pos.over == s4::EndReason::kNone && ((node.checked >> node.pos.to_move) & 1) != 0;
}

// The engine's HasLegalMove, for a Resolve after a mate.
bool EngineHasMove(const s4::Position& p, int seat) { return s4::HasLegalMove(p, seat); }

// A square ahead of `sq` (by `facing`) holding the flipped king of a mated seat.
bool FlippedAhead(const s4::Position& pos, int sq, int facing) {
  const int n = s4::Tab().next[sq][s4::Forward(facing)];
  if (n == s4::kNoSquare) return false;
  const s4::Cell c = pos.board[n];
  return s4::TypeOf(c) == s4::kKing && !pos.Alive(s4::OwnerOf(c));
}

// Pieces of `s` standing between its king and an enemy slider on an orthogonal line. Only
// orthogonal sliders exist: a move can expose the king only when the king is in check,
// the king itself moves, or the moved piece stands pinned.
s4::Squares Pinned(const s4::Position& pos, int s, unsigned enemies) {
  const Shogi4Rays& r = Shogi4RayTable();
  const int ksq = pos.king[s];
  const s4::Squares occupied = Shogi4Occupied(pos);
  s4::Squares pinned = 0;
  for (int i = 0; i < 4; ++i) {
    const s4::Squares near = occupied & r.ray[ksq][i];
    if (near == 0) continue;
    const int own = Shogi4Nearest(near, i);
    if (s4::OwnerOf(pos.board[own]) != s) continue;
    const s4::Squares beyond = occupied & r.ray[own][i];
    if (beyond == 0) continue;
    const s4::Cell c = pos.board[Shogi4Nearest(beyond, i)];
    if (s4::Slides(s4::TypeOf(c)) && ((enemies >> s4::OwnerOf(c)) & 1)) pinned |= Shogi4Bit(own);
  }
  return pinned;
}

// Adds the board move from -> to of the piece `c` of `s` (plain and promoted, by the
// engine's rules) unless it leaves the king of `s` attacked; `test_king`: whether it can.
// `occupied`: every piece's square; `enemy`: those of the seats attacking `s`.
[[gnu::always_inline]] inline void AddBoardMove(const s4::Position& pos, int s, s4::Cell c,
                                                int from, int to, bool test_king,
                                                s4::Squares occupied, s4::Squares enemy,
                                                s4::MoveList* out) {
  const s4::Tables& t = s4::Tab();
  const int type = s4::TypeOf(c), f = s4::FacingOf(c);
  if (test_king) {
    // The position after the move, from its square sets: `from` empty, `to` ours.
    const s4::Squares to_bit = Shogi4Bit(to);
    if (Shogi4AttackedFrom(pos.board, type == s4::kKing ? to : pos.king[s], enemy & ~to_bit,
                           (occupied & ~Shogi4Bit(from)) | to_bit))
      return;
  }
  const bool pawn = type == s4::kPawn;
  const bool plain =
      !(pawn && (t.last[f][to] || (pos.rules.pawn_before_flipped && FlippedAhead(pos, to, f))));
  if (plain) out->Add(s4::MakeBoardMove(from, to, false));
  if (s4::CanPromote(type) && (t.zone[f][from] || t.zone[f][to]))
    out->Add(s4::MakeBoardMove(from, to, true));
}

// Has the king of `s` a legal step (singles: in pairs the partner rule is the engine's)?
// A legal move, so that "has a legal move" is answered without the engine's generator
// when the king can step out of check.
bool KingCanStep(const s4::Position& pos, int s) {
  if (pos.rules.format == s4::Format::kPairs) return false;
  const int ksq = pos.king[s];
  const s4::Squares occupied = Shogi4Occupied(pos), enemy = Shogi4PiecesOf(pos, pos.Enemies(s));
  s4::Squares kings = 0;
  for (int o = 0; o < s4::kSeats; ++o) kings |= Shogi4Bit(pos.king[o]);
  const s4::Squares vacated = occupied & ~Shogi4Bit(ksq);
  for (const int to : Shogi4SquaresOf(Shogi4RayTable().adjacent[ksq] & ~pos.pieces[s] & ~kings)) {
    const s4::Squares bit = Shogi4Bit(to);
    if (!Shogi4AttackedFrom(pos.board, to, enemy & ~bit, vacated | bit)) return true;
  }
  return false;
}

}  // namespace

Shogi4Node Shogi4NodeOf(const s4::Position& pos) {
  Shogi4Node node;
  node.pos = pos;
  Recount(node);
  return node;
}

namespace {

// Shogi4Make, recording in `u` (if not null) the square sets before a mate.
[[gnu::always_inline]] inline void Make(Shogi4Node& node, int seat, s4::Move m, Shogi4Undo* u) {
  s4::Position& p = node.pos;
  p.to_move = static_cast<int8_t>(seat);
  const int to = s4::MoveTo(m);
  const s4::Squares to_bit = Shogi4Bit(to);
  int from = -1;
  s4::Cell captured = 0;
  bool king = false;
  // The engine's DoMove (bot_lib_test holds the step to shogi4::MakeMove), with the
  // material, from the square-bit table.
  if (s4::IsDrop(m)) {
    const int type = s4::DropType(m);
    node.material[seat] += kShogi4BoardValue[type] - kShogi4HandValue[s4::HandIndex(type)];
    p.board[to] = s4::MakeCell(type, seat, seat);
    p.pieces[seat] |= to_bit;
    --p.hand[seat][s4::HandIndex(type)];
    node.sums.threat[seat] -= kShogi4HandThreat[s4::HandIndex(type)];
  } else {
    from = s4::MoveFrom(m);
    const s4::Cell c = p.board[from];
    captured = p.board[to];
    if (captured != 0) {
      const int owner = s4::OwnerOf(captured), taken = s4::kUnpromoted[s4::TypeOf(captured)];
      if (owner < s4::kSeats) node.material[owner] -= kShogi4BoardValue[s4::TypeOf(captured)];
      node.material[seat] += kShogi4HandValue[s4::HandIndex(taken)];
      ++p.hand[seat][s4::HandIndex(taken)];
      node.sums.threat[seat] += kShogi4HandThreat[s4::HandIndex(taken)];
      p.pieces[owner] &= ~to_bit;
    }
    p.pieces[seat] ^= Shogi4Bit(from) | to_bit;
    int type = s4::TypeOf(c);
    if (s4::IsPromotion(m)) {
      node.material[seat] += kShogi4BoardValue[s4::kPromoted[type]] - kShogi4BoardValue[type];
      type = s4::kPromoted[type];
    }
    p.board[to] = s4::MakeCell(type, seat, s4::FacingOf(c));
    p.board[from] = 0;
    king = type == s4::kKing;
    if (king) {
      p.king[seat] = static_cast<uint8_t>(to);
      Shogi4MarkKing(node.kings, seat, to);
    }
  }
  ++p.ply;
  p.last_mover = static_cast<int8_t>(seat);
  UpdateSums(node, seat, from, to, captured, king);
  const bool slider = s4::Slides(s4::TypeOf(p.board[to]));
  // The piece on `to` replaced any captured one; `from` is empty (a mate recounts).
  node.sliders &= ~(to_bit | (from >= 0 ? Shogi4Bit(from) : 0));
  if (slider) node.sliders |= to_bit;
  // Which seats are in check: only one in check before or whose king the move touches (a
  // step from `to`, a slider on its lines, a line opened at `from`: the only sliders are
  // orthogonal) needs the attack test. The mover's move was legal. From the kings' marks:
  // `to` and `from` are never another seat's king square, so "within one step" is "beside".
  const unsigned others = p.alive & ~(1u << seat) & 15u;
  const unsigned mt = node.kings[to], mf = from >= 0 ? node.kings[from] : 0;
  unsigned test = (node.checked | mt | (slider ? mt >> 8 : 0)) & others;
  // A line opened at `from` matters only with another seat's slider on the king's lines.
  const Shogi4Rays& rays = Shogi4RayTable();
  for (unsigned b = (mf >> 8) & others & ~test; b != 0; b &= b - 1) {
    const int t = __builtin_ctz(b);
    if ((node.sliders & rays.cross[p.king[t]] & ~p.pieces[t]) != 0) test |= 1u << t;
  }
  unsigned checked = 0;
  if (test != 0) {
    const s4::Squares occupied = Shogi4Occupied(p), alive = Shogi4PiecesOf(p, p.alive);
    for (; test != 0; test &= test - 1) {
      const int t = __builtin_ctz(test);
      if (Shogi4AttackedFrom(p.board, p.king[t], alive & ~p.pieces[t], occupied))
        checked |= 1u << t;
    }
  }
  node.checked = checked;
  // Check priority (shogi4::PickNext): the first seat in check after the mover, else the
  // next one playing (the mover itself last). Bit i of `after`: seat (seat + 1 + i) & 3.
  const bool check = checked != 0;
  const unsigned pick = check ? checked : p.alive & 15u;
  const unsigned after = ((pick | pick << 4) >> ((seat + 1) & 3)) & 15u;
  const int first = after != 0 ? (seat + 1 + __builtin_ctz(after)) & 3 : seat;
  if (!check) {
    // No seat in check: the picked seat is not asked (see Shogi4MateStuck), so Resolve
    // would only pick it and apply the move limit.
    p.to_move = static_cast<int8_t>(first);
    if (p.rules.move_limit != 0 && p.ply >= p.rules.move_limit) p.over = s4::EndReason::kMoveLimit;
    node.in_check = false;
    return;
  }
  const int mates = p.n_elim;
  bool asked = false;
  s4::Resolve(
      p,
      [&](const s4::Position& q, int s) {
        bool has;
        if (asked) {
          has = s4::HasLegalMove(q, s);
        } else {
          asked = true;
          has = KingCanStep(q, s) || s4::HasLegalMove(q, s, true, true);
        }
        if (!has && u != nullptr && q.n_elim == mates)
          std::memcpy(u->mated_pieces, q.pieces, sizeof q.pieces);
        return has;
      },
      [](int, int, int) {}, first);
  if (p.n_elim != mates) {
    Recount(node);
  } else {
    node.in_check = check;
  }
}

}  // namespace

void Shogi4Make(Shogi4Node& node, int seat, s4::Move m) { Make(node, seat, m, nullptr); }

void Shogi4Make(Shogi4Node& node, int seat, s4::Move m, Shogi4Undo* u) {
  const s4::Position& p = node.pos;
  u->sliders = node.sliders;
  std::memcpy(u->material, node.material, sizeof u->material);
  u->checked = node.checked;
  u->in_check = node.in_check;
  u->sums = node.sums;
  u->to = static_cast<uint8_t>(s4::MoveTo(m));
  u->from = static_cast<uint8_t>(s4::MoveFrom(m));
  u->to_cell = p.board[u->to];
  u->from_cell = s4::IsDrop(m) ? 0 : p.board[u->from];
  std::memcpy(u->tail, reinterpret_cast<const char*>(&p) + Shogi4Undo::kTailStart,
              Shogi4Undo::kTailBytes);
  Make(node, seat, m, u);
}

void Shogi4Unmake(Shogi4Node& node, const Shogi4Undo& u) {
  s4::Position& p = node.pos;
  // A mate made by the move (Eliminate passed the mated seat's pieces on, type and facing
  // kept, and emptied its hand): the square sets as they were after the move, and the
  // mated seats' pieces their own again.
  const int n_elim_was = u.tail[offsetof(s4::Position, n_elim) - Shogi4Undo::kTailStart];
  if (p.n_elim != n_elim_was) {
    for (int i = n_elim_was; i < p.n_elim; ++i) {
      const int s = p.elim[i];
      for (s4::Squares b = u.mated_pieces[s]; b != 0;) {
        const int sq = s4::PopSquare(b);
        const s4::Cell c = p.board[sq];
        p.board[sq] = s4::MakeCell(s4::TypeOf(c), s, s4::FacingOf(c));
      }
    }
    std::memcpy(p.pieces, u.mated_pieces, sizeof p.pieces);
  }
  // The move itself (DoMove's changes, by the seat that made it).
  const int s = p.last_mover;
  const s4::Squares to_bit = Shogi4Bit(u.to);
  if (u.from == s4::kNoSquare) {
    p.pieces[s] &= ~to_bit;
  } else {
    p.pieces[s] ^= Shogi4Bit(u.from) | to_bit;
    if (u.to_cell != 0) p.pieces[s4::OwnerOf(u.to_cell)] |= to_bit;
    p.board[u.from] = u.from_cell;
  }
  p.board[u.to] = u.to_cell;
  std::memcpy(reinterpret_cast<char*>(&p) + Shogi4Undo::kTailStart, u.tail, Shogi4Undo::kTailBytes);
  node.sliders = u.sliders;
  std::memcpy(node.material, u.material, sizeof u.material);
  node.checked = u.checked;
  node.in_check = u.in_check;
  node.sums = u.sums;
  if (u.from != s4::kNoSquare && s4::TypeOf(u.from_cell) == s4::kKing)
    Shogi4MarkKing(node.kings, s, u.from);
}

void Shogi4MateStuck(Shogi4Node& node) {
  s4::Position& p = node.pos;
  s4::Eliminate(p, p.to_move, p.last_mover);
  s4::Resolve(p, EngineHasMove, [](int, int, int) {});
  Recount(node);
}

void Shogi4BoardMoves(const s4::Position& pos, int s, bool in_check, s4::Squares targets,
                      bool quiet, s4::MoveList* out) {
  const s4::Tables& t = s4::Tab();
  const Shogi4Rays& rays = Shogi4RayTable();
  const s4::Squares pinned = Pinned(pos, s, pos.Enemies(s));
  const s4::Squares occupied = Shogi4Occupied(pos), enemy = Shogi4PiecesOf(pos, pos.Enemies(s));
  for (const int from : Shogi4SquaresOf(pos.pieces[s])) {
    const s4::Cell c = pos.board[from];
    const int type = s4::TypeOf(c), f = s4::FacingOf(c);
    const bool test_king = in_check || type == s4::kKing || (pinned & Shogi4Bit(from)) != 0;
    auto try_to = [&](int to) {
      AddBoardMove(pos, s, c, from, to, test_king, occupied, enemy, out);
    };
    for (unsigned steps = t.steps[type][f] & rays.dirs[from]; steps != 0; steps &= steps - 1) {
      const int to = t.next[from][__builtin_ctz(steps)];
      const s4::Cell tc = pos.board[to];
      if (tc == 0 ? !quiet : !((targets >> to) & 1)) continue;
      if (tc != 0 && (s4::TypeOf(tc) == s4::kKing || s4::OwnerOf(tc) == s)) continue;
      try_to(to);
    }
    if (s4::Slides(type)) {
      for (int d = 0; d < 8; d += 2) {
        for (int to = t.next[from][d]; to != s4::kNoSquare; to = t.next[to][d]) {
          const s4::Cell tc = pos.board[to];
          if (tc == 0) {
            if (quiet) try_to(to);
            continue;
          }
          if (((targets >> to) & 1) && s4::TypeOf(tc) != s4::kKing && s4::OwnerOf(tc) != s)
            try_to(to);
          break;
        }
      }
    }
  }
}

void Shogi4Captures(const s4::Position& pos, s4::Squares sliders, unsigned seats, bool in_check,
                    s4::Squares targets, s4::MoveList* out) {
  const s4::Tables& t = s4::Tab();
  const Shogi4Rays& rays = Shogi4RayTable();
  s4::Squares occupied = 0, movers = 0;
  for (int o = 0; o <= s4::kSeats; ++o) {
    occupied |= pos.pieces[o];
    if ((seats >> o) & 1) movers |= pos.pieces[o];
  }
  // Only a target beside a mover or on a line of a mover's slider can be taken.
  s4::Squares reach = Shogi4Dilate(movers);
  for (s4::Squares b = movers & sliders; b != 0;) reach |= rays.cross[s4::PopSquare(b)];
  targets &= occupied & reach;
  for (int o = 0; o < s4::kSeats; ++o) targets &= ~Shogi4Bit(pos.king[o]);
  // Per seat, found on first need (bit per seat in have_*); enemy is read only with test_king.
  s4::Squares pinned[s4::kSeats], enemy[s4::kSeats] = {};
  unsigned have_pinned = 0, have_enemy = 0;
  for (const int to : Shogi4SquaresOf(targets)) {
    const s4::Squares mine = movers & ~pos.pieces[s4::OwnerOf(pos.board[to])];
    if (mine == 0) continue;
    auto add = [&](int from) {
      const s4::Cell c = pos.board[from];
      const int s = s4::OwnerOf(c);
      // Only a piece on its king's lines can stand pinned (the sliders are orthogonal).
      bool test_king = in_check || s4::TypeOf(c) == s4::kKing;
      if (!test_king && ((rays.cross[pos.king[s]] >> from) & 1)) {
        if (!((have_pinned >> s) & 1)) pinned[s] = Pinned(pos, s, pos.Enemies(s));
        have_pinned |= 1u << s;
        test_king = (pinned[s] >> from) & 1;
      }
      if (test_king && !((have_enemy >> s) & 1)) {
        enemy[s] = Shogi4PiecesOf(pos, pos.Enemies(s));
        have_enemy |= 1u << s;
      }
      AddBoardMove(pos, s, c, from, to, test_king, occupied, enemy[s], out);
    };
    // Pieces one step away that step onto `to`, by direction d (to -> n).
    unsigned dirs = 0;
    for (const int n : Shogi4SquaresOf(mine & rays.adjacent[to])) {
      const s4::Cell c = pos.board[n];
      const int d = Shogi4StepDirection(to, n);
      dirs |= ((t.steps[s4::TypeOf(c)][s4::FacingOf(c)] >> ((d + 4) & 7)) & 1u) << d;
    }
    for (; dirs != 0; dirs &= dirs - 1) add(t.next[to][__builtin_ctz(dirs)]);
    // Sliders: the nearest piece on each line.
    const s4::Squares sliding = mine & sliders & rays.cross[to];
    for (int i = 0; i < 4 && sliding != 0; ++i) {
      const s4::Squares ray = rays.ray[to][i];
      if (!(sliding & ray)) continue;
      const int n = Shogi4Nearest(occupied & ray, i);
      if ((sliding >> n) & 1) add(n);
    }
  }
}

void Shogi4CapturesFrom(const s4::Position& pos, s4::Squares sliders, unsigned seats, int first,
                        bool in_check, s4::Squares targets, s4::MoveList* out) {
  const s4::Tables& t = s4::Tab();
  const Shogi4Rays& rays = Shogi4RayTable();
  const s4::Squares occupied = Shogi4Occupied(pos);
  s4::Squares kings = 0;
  for (int o = 0; o < s4::kSeats; ++o) kings |= Shogi4Bit(pos.king[o]);
  targets &= occupied & ~kings;
  for (int k = 0; k < s4::kSeats; ++k) {
    const int s = (first + k) & 3;
    if (!((seats >> s) & 1)) continue;
    const s4::Squares theirs = targets & ~pos.pieces[s];
    if (theirs == 0) continue;
    const s4::Squares king_lines = rays.cross[pos.king[s]];
    s4::Squares pinned = 0, enemy = 0;
    bool have_pinned = false, have_enemy = false;  // found on first need
    // Only a piece beside a target or a slider can take (the others add nothing).
    for (const int from : Shogi4SquaresOf(pos.pieces[s] & (Shogi4Dilate(theirs) | sliders))) {
      const s4::Cell c = pos.board[from];
      const int type = s4::TypeOf(c);
      // Steps onto a target: the step set against the targets, then by direction.
      unsigned step_dirs = 0;  // bit d: the step in direction d takes
      const int f = s4::FacingOf(c);
      for (const int to : Shogi4SquaresOf(rays.step[type][f][from] & theirs))
        step_dirs |= 1u << Shogi4StepDirection(from, to);
      int slide_to[4] = {s4::kNoSquare, s4::kNoSquare, s4::kNoSquare, s4::kNoSquare};
      bool slides = false;
      if (s4::Slides(type)) {
        for (int i = 0; i < 4; ++i) {  // the nearest piece on each line
          const s4::Squares blockers = occupied & rays.ray[from][i];
          if (blockers == 0) continue;
          const int n = Shogi4Nearest(blockers, i);
          if ((theirs >> n) & 1) slide_to[i] = n, slides = true;
        }
      }
      if (step_dirs == 0 && !slides) continue;
      // Only a piece on its king's lines can stand pinned (the sliders are orthogonal).
      bool test_king = in_check || type == s4::kKing;
      if (!test_king && ((king_lines >> from) & 1)) {
        if (!have_pinned) pinned = Pinned(pos, s, pos.Enemies(s)), have_pinned = true;
        test_king = (pinned >> from) & 1;
      }
      if (test_king && !have_enemy) enemy = Shogi4PiecesOf(pos, pos.Enemies(s)), have_enemy = true;
      // Shogi4BoardMoves's order: steps by direction, then slides by direction.
      for (unsigned d = step_dirs; d != 0; d &= d - 1)
        AddBoardMove(pos, s, c, from, t.next[from][__builtin_ctz(d)], test_king, occupied, enemy,
                     out);
      for (int i = 0; i < 4 && slides; ++i) {
        if (slide_to[i] != s4::kNoSquare)
          AddBoardMove(pos, s, c, from, slide_to[i], test_king, occupied, enemy, out);
      }
    }
  }
}

void Shogi4Drops(const s4::Position& pos, int s, bool in_check, s4::Squares squares,
                 s4::MoveList* out) {
  const s4::Tables& t = s4::Tab();
  const unsigned enemies = pos.Enemies(s);
  const int ksq = pos.king[s];
  // Gold, silver, rook first, pawns last (the engine's order).
  static constexpr int kDropOrder[s4::kHandTypes] = {s4::kGold, s4::kSilver, s4::kRook, s4::kPawn};
  s4::Squares occupied = 0;
  for (s4::Squares b : pos.pieces) occupied |= b;
  const s4::Squares empty = s4::kAllSquares & ~occupied & squares;
  if (empty == 0) return;
  unsigned pawn_lines = 0;  // nifu: lines holding an own unpromoted pawn facing forward
  if (pos.hand[s][s4::HandIndex(s4::kPawn)] != 0) {
    for (s4::Squares own = pos.pieces[s]; own != 0;) {
      const int sq = s4::PopSquare(own);
      if (pos.board[sq] == s4::MakeCell(s4::kPawn, s, s)) pawn_lines |= 1u << t.line[s][sq];
    }
  }
  const s4::Squares enemy = in_check ? Shogi4PiecesOf(pos, enemies) : 0;
  for (int type : kDropOrder) {
    if (pos.hand[s][s4::HandIndex(type)] == 0) continue;
    const s4::Cell c = s4::MakeCell(type, s, s);
    for (const int to : Shogi4SquaresOf(empty)) {
      if (type == s4::kPawn) {
        if (t.last[s][to] || ((pawn_lines >> t.line[s][to]) & 1)) continue;
        if (pos.rules.pawn_before_flipped && FlippedAhead(pos, to, s)) continue;
      }
      if (in_check && Shogi4AttackedFrom(pos.board, ksq, enemy, occupied | Shogi4Bit(to))) continue;
      if (type == s4::kPawn) {
        // Pawn-drop mate: the engine's own test (can the king's owner answer?).
        const int n = t.next[to][s4::Forward(s)];
        const s4::Cell k = n == s4::kNoSquare ? 0 : pos.board[n];
        if (s4::TypeOf(k) == s4::kKing && s4::OwnerOf(k) != s && pos.Alive(s4::OwnerOf(k))) {
          s4::Position w = pos;
          w.board[to] = c;
          w.pieces[s] |= Shogi4Bit(to);
          --w.hand[s][s4::HandIndex(s4::kPawn)];
          if (!s4::HasLegalMove(w, s4::OwnerOf(k), false)) continue;
        }
      }
      out->Add(s4::MakeDrop(type, to));
    }
  }
}

}  // namespace tablero::bot
