#include "libs/checkers/movegen.h"

#include <cstring>

namespace tablero::checkers {

Layout MakeLayout(int seats, bool japanese) {
  Layout s;
  s.seats = seats;
  s.japanese = japanese;
  for (int i = 0; i < seats; ++i) {
    s.start[i] = kSeatPoint[seats][i];
    s.goal[i] = static_cast<int8_t>(Opposite(s.start[i]));
  }
  if (!japanese) return s;
  // A move may not end in the 10-hole point of another player's start or goal, unless
  // that point is also the mover's own start or goal.
  for (int i = 0; i < seats; ++i) {
    for (int j = 0; j < seats; ++j) {
      if (j == i) continue;
      for (int p : {s.start[j], s.goal[j]}) {
        if (p == s.start[i] || p == s.goal[i]) continue;
        for (int w = 0; w < 2; ++w) s.closed[i].w[w] |= kGeo.point_set[p].w[w];
      }
    }
  }
  return s;
}

void StartCells(const Layout& layout, uint8_t* cell) {
  std::memset(cell, kEmpty, kHoles);
  for (int seat = 0; seat < layout.seats; ++seat) {
    const HoleSet& camp = layout.StartSet(seat);
    for (int h = 0; h < kHoles; ++h)
      if (camp.has(h)) cell[h] = static_cast<uint8_t>(seat + 1);
    if (layout.japanese) cell[kGeo.tip[layout.start[seat]]] |= kKingBit;
  }
}

int GenerateFrom(const Layout& layout, const uint8_t* cell, int from, uint8_t* dest,
                 int8_t* parent) {
  const uint8_t me = cell[from];
  const int seat = OwnerOf(me);
  const bool king = IsKing(me);
  const HoleSet& closed = layout.closed[seat];
  HoleSet seen, out;
  seen.set(from);
  int n = 0;
  for (int d = 0; d < kDirs; ++d) {
    int t = kGeo.nb[from][d];
    if (t < 0 || cell[t] != kEmpty) continue;
    out.set(t);
    if (!closed.has(t)) dest[n++] = static_cast<uint8_t>(t);
  }
  // Breadth-first over jump landings: every landing is reached once, so no chain ever
  // revisits a hole (the start included), and the first path found is a shortest one.
  uint8_t queue[kHoles];
  int head = 0, tail = 0;
  queue[tail++] = static_cast<uint8_t>(from);
  while (head < tail) {
    const int h = queue[head++];
    for (int d = 0; d < kDirs; ++d) {
      int x = kGeo.nb[h][d];
      // The start hole is empty while its piece is jumping.
      if (x < 0 || x == from || cell[x] == kEmpty) continue;
      if (IsKing(cell[x])) continue;  // nothing jumps a king (kings exist only in Japanese)
      x = kGeo.nb[x][d];
      if (king) {  // the king clears a contiguous line of non-king pieces
        while (x >= 0 && x != from && cell[x] != kEmpty && !IsKing(cell[x])) x = kGeo.nb[x][d];
        if (x >= 0 && x != from && IsKing(cell[x])) continue;
      }
      if (x < 0 || seen.has(x) || cell[x] != kEmpty) continue;
      seen.set(x);
      if (parent) parent[x] = static_cast<int8_t>(h);
      queue[tail++] = static_cast<uint8_t>(x);
      if (out.has(x)) continue;
      out.set(x);
      if (!closed.has(x)) dest[n++] = static_cast<uint8_t>(x);
    }
  }
  return n;
}

void Generate(const Layout& layout, const uint8_t* cell, int seat, MoveList* list) {
  list->size = 0;
  uint8_t dest[kHoles];
  for (int h = 0; h < kHoles; ++h) {
    if (cell[h] == kEmpty || OwnerOf(cell[h]) != seat) continue;
    int n = GenerateFrom(layout, cell, h, dest, nullptr);
    for (int i = 0; i < n; ++i) list->moves[list->size++] = {static_cast<uint8_t>(h), dest[i]};
  }
}

bool HasMove(const Layout& layout, const uint8_t* cell, int seat) {
  // A step to an empty hole a move may end in is a destination GenerateFrom lists; nearly
  // every position has one, found without a search of the jumps.
  const HoleSet& closed = layout.closed[seat];
  for (int h = 0; h < kHoles; ++h) {
    if (cell[h] == kEmpty || OwnerOf(cell[h]) != seat) continue;
    for (int d = 0; d < kDirs; ++d) {
      const int t = kGeo.nb[h][d];
      if (t >= 0 && cell[t] == kEmpty && !closed.has(t)) return true;
    }
  }
  uint8_t dest[kHoles];
  for (int h = 0; h < kHoles; ++h) {
    if (cell[h] == kEmpty || OwnerOf(cell[h]) != seat) continue;
    if (GenerateFrom(layout, cell, h, dest, nullptr) > 0) return true;
  }
  return false;
}

int PathTo(const Layout& layout, const uint8_t* cell, int from, int to, uint8_t* path) {
  if (cell[from] == kEmpty) return 0;
  uint8_t dest[kHoles];
  int8_t parent[kHoles];
  std::memset(parent, -1, sizeof parent);
  int n = GenerateFrom(layout, cell, from, dest, parent);
  bool found = false;
  for (int i = 0; i < n; ++i) found |= dest[i] == to;
  if (!found) return 0;
  return PathFromParents(from, to, parent, path);
}

int PathFromParents(int from, int to, const int8_t* parent, uint8_t* path) {
  path[0] = static_cast<uint8_t>(from);
  for (int d = 0; d < kDirs; ++d) {
    if (kGeo.nb[from][d] == to) {  // a legal destination next door is always a step
      path[1] = static_cast<uint8_t>(to);
      return 2;
    }
  }
  uint8_t rev[kHoles];
  int len = 0;
  for (int h = to; h != from && h >= 0 && len < kHoles - 1; h = parent[h]) {
    rev[len++] = static_cast<uint8_t>(h);
  }
  for (int i = 0; i < len; ++i) path[i + 1] = rev[len - 1 - i];
  return len + 1;
}

namespace {

// Direction and distance from a to b along a line, or false if not on one line.
bool LineTo(int a, int b, int* dir, int* dist) {
  int dq = kGeo.q[b] - kGeo.q[a], dr = kGeo.r[b] - kGeo.r[a];
  for (int d = 0; d < kDirs; ++d) {
    int k = kDq[d] != 0 ? dq / kDq[d] : dr / kDr[d];
    if (k > 0 && k * kDq[d] == dq && k * kDr[d] == dr) {
      *dir = d;
      *dist = k;
      return true;
    }
  }
  return false;
}

}  // namespace

bool CheckPath(const Layout& layout, const uint8_t* cell, int seat, const uint8_t* path, int n,
               std::string* why, std::string (*name)(int)) {
  if (n < 2) {
    *why = "a move needs at least two holes";
    return false;
  }
  const int from = path[0];
  if (cell[from] == kEmpty || OwnerOf(cell[from]) != seat) {
    *why = "hole " + name(from) + " holds no piece of the player to move";
    return false;
  }
  const bool king = IsKing(cell[from]);
  HoleSet seen;
  seen.set(from);
  for (int i = 0; i + 1 < n; ++i) {
    const int a = path[i], b = path[i + 1];
    int d = 0, k = 0;
    if (!LineTo(a, b, &d, &k)) {
      *why = name(a) + " to " + name(b) + " is not along a line";
      return false;
    }
    if (k == 1 && n > 2) {
      *why = "a step and jumps cannot be combined (" + name(a) + "-" + name(b) + ")";
      return false;
    }
    if (k == 2 || (k > 2 && king)) {
      for (int j = 1, x = kGeo.nb[a][d]; j < k; ++j, x = kGeo.nb[x][d]) {
        if (x < 0) {  // unreachable: lines of the star have no gaps
          *why = "bad path";
          return false;
        }
        if (x == from || cell[x] == kEmpty) {
          *why = "jump " + name(a) + "-" + name(b) + " passes over the empty hole " + name(x);
          return false;
        }
        if (IsKing(cell[x])) {
          *why = "cannot jump a king (" + name(x) + ")";
          return false;
        }
      }
    } else if (k > 2) {
      *why = name(a) + "-" + name(b) + " is too long for a jump";
      return false;
    }
    if (seen.has(b)) {
      *why = "jump would revisit " + name(b);
      return false;
    }
    if (cell[b] != kEmpty) {
      *why = "hole " + name(b) + " is occupied";
      return false;
    }
    seen.set(b);
  }
  if (layout.closed[seat].has(path[n - 1])) {
    *why = "a move may not end in another player's point (" + name(path[n - 1]) + ")";
    return false;
  }
  return true;
}

}  // namespace tablero::checkers
