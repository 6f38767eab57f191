#include "libs/checkers/state.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace tablero::checkers {

const char* ReasonName(Reason r) {
  switch (r) {
    case Reason::kAllFinished:
      return "all_finished";
    case Reason::kFirstFinished:
      return "first_finished";
    case Reason::kMoveLimit:
      return "move_limit";
    case Reason::kNoProgress:
      return "no_progress";
    case Reason::kResignation:
      return "resignation";
    default:
      return "";
  }
}

int InGoal(const State& st, int seat) {
  int n = 0;
  ForEachHole(st.layout.GoalSet(seat),
              [&](int h) { n += st.cell[h] != kEmpty && OwnerOf(st.cell[h]) == seat; });
  return n;
}

int RemainingDistance(const State& st, int seat) {
  const int goal = st.layout.goal[seat];
  const uint8_t* table = st.layout.japanese ? kGeo.dist_camp15[goal] : kGeo.dist_point[goal];
  int sum = 0;
  auto add = [&](int h) {
    const uint8_t c = st.cell[h];
    sum += IsKing(c) ? HexDistance(h, kGeo.tip[goal]) : table[h];
  };
  // The seat's pieces only, found eight holes at a time (every apply asks this of the
  // mover, whose pieces are a sixth to a half of the board's).
  int h = 0;
  if constexpr (std::endian::native == std::endian::little) {
    constexpr uint64_t kLow = 0x7F7F7F7F7F7F7F7FULL;
    const uint64_t owner = 0x0101010101010101ULL * static_cast<uint64_t>(seat + 1);
    for (; h + 8 <= kHoles; h += 8) {
      uint64_t w;
      std::memcpy(&w, st.cell + h, 8);
      const uint64_t x = (w & 0x0F0F0F0F0F0F0F0FULL) ^ owner;  // zero bytes: the seat's
      // The high bit of each zero byte of x, exactly (no carry crosses a byte).
      for (uint64_t z = ~(((x & kLow) + kLow) | x | kLow); z; z &= z - 1)
        add(h + (std::countr_zero(z) >> 3));
    }
  }
  for (; h < kHoles; ++h)
    if (OwnerOf(st.cell[h]) == seat) add(h);
  return sum;
}

bool IsFinished(const State& st, int seat) {
  const int goal = st.layout.goal[seat];
  const int tip = kGeo.tip[goal];
  if (st.layout.japanese && st.cell[tip] != ((seat + 1) | kKingBit)) return false;
  const HoleSet& set = st.layout.GoalSet(seat);
  // Nearly every goal has an empty hole: looked for first, stopping at the first one.
  for (int w = 0; w < 2; ++w) {
    for (uint64_t b = set.w[w]; b; b &= b - 1)
      if (st.cell[w * 64 + std::countr_zero(b)] == kEmpty) return false;
  }
  bool own_any = false, all_own = true;
  ForEachHole(set, [&](int h) {
    const uint8_t c = st.cell[h];
    if (OwnerOf(c) == seat) {
      own_any |= !(st.layout.japanese && h == tip);  // the king does not count as "one other"
    } else {
      all_own = false;
    }
  });
  return st.rules.anti_blocking ? own_any : all_own;
}

void FreePlaces(const State& st, int* lo, int* hi) {
  const int n = st.layout.seats;
  bool used[kMaxSeats + 2] = {};
  for (int s = 0; s < n; ++s) {
    if (st.place[s] == 0) continue;
    int k = 0;  // a place shared by k seats uses up k places
    for (int t = 0; t < n; ++t) k += st.place[t] == st.place[s];
    for (int j = 0; j < k && st.place[s] + j <= n; ++j) used[st.place[s] + j] = true;
  }
  *lo = n + 1;
  *hi = 0;
  for (int p = 1; p <= n; ++p) {
    if (used[p]) continue;
    *lo = std::min(*lo, p);
    *hi = std::max(*hi, p);
  }
}

bool PlacesConsistent(const uint8_t* place, int seats) {
  int count[kMaxSeats + 1] = {};
  for (int s = 0; s < seats; ++s) {
    if (place[s] > seats) return false;
    ++count[place[s]];
  }
  bool used[kMaxSeats + 1] = {};
  for (int p = 1; p <= seats; ++p) {
    for (int j = 0; j < count[p]; ++j) {
      if (p + j > seats || used[p + j]) return false;
      used[p + j] = true;
    }
  }
  int lo = seats + 1, hi = 0, free = 0;
  for (int p = 1; p <= seats; ++p) {
    if (used[p]) continue;
    ++free;
    lo = std::min(lo, p);
    hi = std::max(hi, p);
  }
  return free == count[0] && (free == 0 || hi - lo + 1 == free);
}

namespace {

int Unplaced(const State& st) {
  int n = 0;
  for (int s = 0; s < st.layout.seats; ++s) n += st.place[s] == 0;
  return n;
}

int NextUnplaced(const State& st, int seat) {
  const int n = st.layout.seats;
  for (int i = 1; i <= n; ++i) {
    int t = (seat + i) % n;
    if (st.place[t] == 0) return t;
  }
  return seat;
}

void End(State* st, Reason reason, Notes* notes) {
  st->to_move = -1;
  st->reason = reason;
  if (notes) notes->push_back({Note::kGameOver, -1, 0});
}

// Places every seat still playing by pieces in goal (more is better), then remaining
// distance (less is better); equal seats share a place.
void PlaceByProgress(State* st) {
  int lo = 0, hi = 0;
  FreePlaces(*st, &lo, &hi);
  const int n = st->layout.seats;
  int goal[kMaxSeats], dist[kMaxSeats];
  for (int s = 0; s < n; ++s) {
    goal[s] = InGoal(*st, s);
    dist[s] = RemainingDistance(*st, s);
  }
  uint8_t place[kMaxSeats] = {};
  for (int s = 0; s < n; ++s) {
    if (st->place[s] != 0) continue;
    int better = 0;
    for (int t = 0; t < n; ++t) {
      if (st->place[t] != 0 || t == s) continue;
      better += goal[t] > goal[s] || (goal[t] == goal[s] && dist[t] < dist[s]);
    }
    place[s] = static_cast<uint8_t>(lo + better);
  }
  for (int s = 0; s < n; ++s)
    if (st->place[s] == 0) st->place[s] = place[s];
}

void PlaceLast(State* st) {
  int lo = 0, hi = 0;
  FreePlaces(*st, &lo, &hi);
  for (int s = 0; s < st->layout.seats; ++s)
    if (st->place[s] == 0) st->place[s] = static_cast<uint8_t>(lo);
}

bool AnyFinisher(const State& st) {
  for (int s = 0; s < st.layout.seats; ++s)
    if (st.place[s] != 0 && !st.resigned[s]) return true;
  return false;
}

// Gives the turn to `seat` or the first seat after it that can move, ending the game on
// the move limit, the no-progress rule, or when nobody can move at all.
void Advance(State* st, int seat, Notes* notes) {
  const int unplaced = Unplaced(*st);
  int skipped = 0;
  for (;;) {
    if (st->rules.move_limit > 0 && st->moves[seat] >= st->rules.move_limit) {
      // A draw if nobody finished: everyone still playing shares the best free place.
      if (AnyFinisher(*st)) {
        PlaceByProgress(st);
      } else {
        PlaceLast(st);
      }
      return End(st, Reason::kMoveLimit, notes);
    }
    if (st->idle >= kNoProgressRounds * unplaced) {
      PlaceByProgress(st);
      return End(st, Reason::kNoProgress, notes);
    }
    if (HasMove(st->layout, st->cell, seat)) {
      st->to_move = seat;
      return;
    }
    if (notes) notes->push_back({Note::kSkipped, seat, 0});
    if (st->idle < UINT16_MAX) ++st->idle;
    if (++skipped >= unplaced) {
      PlaceByProgress(st);
      return End(st, Reason::kNoProgress, notes);
    }
    seat = NextUnplaced(*st, seat);
  }
}

// Places every seat whose goal is now complete (all who complete on the same move share
// the place). Returns whether anyone finished.
bool PlaceFinishers(State* st, Notes* notes) {
  int lo = 0, hi = 0;
  FreePlaces(*st, &lo, &hi);
  bool done[kMaxSeats] = {};
  bool any = false;
  for (int s = 0; s < st->layout.seats; ++s) {
    done[s] = st->place[s] == 0 && IsFinished(*st, s);
    any |= done[s];
  }
  for (int s = 0; s < st->layout.seats; ++s) {
    if (!done[s]) continue;
    st->place[s] = static_cast<uint8_t>(lo);
    if (notes) notes->push_back({Note::kFinished, s, lo});
  }
  return any;
}

// The endings that follow from places alone. Returns true if the game ended.
bool EndByPlaces(State* st, bool finished_now, Notes* notes) {
  if (Unplaced(*st) <= 1) {
    PlaceLast(st);
    End(st, Reason::kAllFinished, notes);
    return true;
  }
  if (finished_now && !st->rules.play_to_end && st->layout.seats >= 3) {
    PlaceByProgress(st);
    End(st, Reason::kFirstFinished, notes);
    return true;
  }
  return false;
}

void SetRecords(State* st) {
  for (int s = 0; s < st->layout.seats; ++s) {
    st->best_goal[s] = static_cast<uint8_t>(InGoal(*st, s));
    st->best_dist[s] = static_cast<int16_t>(RemainingDistance(*st, s));
  }
  st->idle = 0;
}

}  // namespace

void StartState(State* st, const Layout& layout, const Rules& rules, int first) {
  *st = State{};
  st->layout = layout;
  st->rules = rules;
  StartCells(layout, st->cell);
  st->to_move = first;
  SetRecords(st);
}

void Normalize(State* st, Notes* notes) {
  SetRecords(st);
  if (st->over()) return;
  bool any = PlaceFinishers(st, notes);
  if (EndByPlaces(st, any, notes)) return;
  int seat = st->place[st->to_move] == 0 ? st->to_move : NextUnplaced(*st, st->to_move);
  Advance(st, seat, notes);
}

void ApplyMove(State* st, int from, int to, Notes* notes) {
  const int m = st->to_move;
  st->cell[to] = st->cell[from];
  st->cell[from] = kEmpty;
  if (st->moves[m] < UINT16_MAX) ++st->moves[m];
  ++st->ply;
  const bool any = PlaceFinishers(st, notes);
  if (any) {
    st->idle = 0;
  } else {
    // Progress means a new record: more pieces in goal or less distance than ever before,
    // so shuffling a piece back and forth does not count.
    int g = InGoal(*st, m), d = RemainingDistance(*st, m);
    if (g > st->best_goal[m] || d < st->best_dist[m]) {
      st->best_goal[m] = static_cast<uint8_t>(std::max<int>(g, st->best_goal[m]));
      st->best_dist[m] = static_cast<int16_t>(std::min<int>(d, st->best_dist[m]));
      st->idle = 0;
    } else if (st->idle < UINT16_MAX) {
      ++st->idle;
    }
  }
  if (EndByPlaces(st, any, notes)) return;
  Advance(st, NextUnplaced(*st, m), notes);
}

void Resign(State* st, int seat, Notes* notes) {
  for (int h = 0; h < kHoles; ++h)
    if (st->cell[h] != kEmpty && OwnerOf(st->cell[h]) == seat) st->cell[h] = kEmpty;
  int lo = 0, hi = 0;
  FreePlaces(*st, &lo, &hi);
  st->place[seat] = static_cast<uint8_t>(hi);
  st->resigned[seat] = true;
  if (notes) notes->push_back({Note::kResigned, seat, hi});
  if (Unplaced(*st) <= 1) {
    PlaceLast(st);
    return End(st, Reason::kResignation, notes);
  }
  if (st->to_move == seat) return Advance(st, NextUnplaced(*st, seat), notes);
  // The resigner's pieces may have been the only ones the player to move could jump.
  if (!HasMove(st->layout, st->cell, st->to_move)) Advance(st, st->to_move, notes);
}

uint64_t Perft(const State& st, int depth) {
  if (depth == 0) return 1;
  if (st.over()) return 0;
  MoveList list;
  Generate(st.layout, st.cell, st.to_move, &list);
  if (depth == 1) return list.size;
  uint64_t total = 0;
  for (int i = 0; i < list.size; ++i) {
    State child = st;
    ApplyMove(&child, list.moves[i].from, list.moves[i].to, nullptr);
    total += Perft(child, depth - 1);
  }
  return total;
}

}  // namespace tablero::checkers
