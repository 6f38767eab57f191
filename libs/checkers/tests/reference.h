// A deliberately simple, independent reference move generator for the tests. It shares no
// code with the engine: it builds the star from its row lengths in doubled coordinates
// (x, y), names holes by the README's convention, reads position text itself, and finds
// destinations by a plain breadth-first search over holes. Slow and obvious on purpose.
#ifndef TABLERO_LIBS_CHECKERS_TESTS_REFERENCE_H_
#define TABLERO_LIBS_CHECKERS_TESTS_REFERENCE_H_

#include <cstdlib>
#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace reference {

struct Hole {
  int x, y;
  std::string name;
  int point;  // -1 hexagon, 0..5 as in the rules file (P0 south, clockwise)
};

struct Star {
  std::vector<Hole> holes;
  std::map<std::pair<int, int>, int> at;
  std::map<std::string, int> by_name;
  std::vector<std::set<int>> camp15 = std::vector<std::set<int>>(6);
  std::vector<std::set<int>> point = std::vector<std::set<int>>(6);
  std::vector<std::vector<int>> nb;  // neighbour per direction, -1 off the board
  int tip[6] = {};

  Star() {
    const int len[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
    for (int y = 0; y < 17; ++y) {
      for (int i = 0; i < len[y]; ++i) {
        Hole h;
        h.x = -(len[y] - 1) + 2 * i;
        h.y = y;
        h.name.push_back(static_cast<char>('a' + y));
        h.name.append(std::to_string(i + 1));
        int w = 9 - std::abs(y - 8);  // hexagon row width
        if (y <= 3) {
          h.point = 0;
        } else if (y >= 13) {
          h.point = 3;
        } else if (h.x < -(w - 1)) {
          h.point = y < 8 ? 1 : 2;
        } else if (h.x > w - 1) {
          h.point = y < 8 ? 5 : 4;
        } else {
          h.point = -1;
        }
        int id = static_cast<int>(holes.size());
        at[{h.x, h.y}] = id;
        by_name[h.name] = id;
        holes.push_back(h);
      }
    }
    for (int id = 0; id < static_cast<int>(holes.size()); ++id) {
      const Hole& h = holes[id];
      if (h.point >= 0) {
        point[h.point].insert(id);
        camp15[h.point].insert(id);
        continue;
      }
      int w = 9 - std::abs(h.y - 8);
      bool left = h.x == -(w - 1), right = h.x == w - 1;
      if (h.y == 4) camp15[0].insert(id);
      if (h.y == 12) camp15[3].insert(id);
      if (left && h.y <= 8) camp15[1].insert(id);
      if (left && h.y >= 8) camp15[2].insert(id);
      if (right && h.y >= 8) camp15[4].insert(id);
      if (right && h.y <= 8) camp15[5].insert(id);
    }
    static const int dx[6] = {2, 1, -1, -2, -1, 1}, dy[6] = {0, 1, 1, 0, -1, -1};
    for (const Hole& h : holes) {
      nb.emplace_back();
      for (int d = 0; d < 6; ++d) {
        auto it = at.find({h.x + dx[d], h.y + dy[d]});
        nb.back().push_back(it == at.end() ? -1 : it->second);
      }
    }
    tip[0] = at[{0, 0}];
    tip[1] = at[{-12, 4}];
    tip[2] = at[{-12, 12}];
    tip[3] = at[{0, 16}];
    tip[4] = at[{12, 12}];
    tip[5] = at[{12, 4}];
  }

  int Neighbour(int id, int d) const { return nb[id][d]; }
  int Distance(int a, int b) const {
    int dx = std::abs(holes[a].x - holes[b].x), dy = std::abs(holes[a].y - holes[b].y);
    return dy + (dx > dy ? (dx - dy) / 2 : 0);
  }
};

inline const Star& TheStar() {
  static const Star* s = new Star;
  return *s;
}

inline int SeatPoint(int seats, int seat) {
  static const int table[7][6] = {
      {}, {}, {0, 3}, {0, 2, 4}, {0, 1, 3, 4}, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4, 5}};
  return table[seats][seat];
}

// A position: owner (-1 empty) and king flag per hole, seat to move.
struct Pos {
  int seats = 2;
  bool japanese = false;
  std::vector<int> owner;
  std::vector<bool> king;
  int to_move = 0;
};

// Reads the engine's position text ("<seat lists> <to move> <places>").
inline bool Parse(const std::string& text, int seats, bool japanese, Pos* out) {
  const Star& star = TheStar();
  Pos p;
  p.seats = seats;
  p.japanese = japanese;
  p.owner.assign(star.holes.size(), -1);
  p.king.assign(star.holes.size(), false);
  std::istringstream in(text);
  std::string lists, turn;
  in >> lists >> turn;
  int seat = 0;
  std::string item;
  for (size_t i = 0; i <= lists.size(); ++i) {
    char c = i < lists.size() ? lists[i] : '/';
    if (c == ',' || c == '/') {
      if (!item.empty()) {
        bool k = item[0] == 'K';
        auto it = star.by_name.find(k ? item.substr(1) : item);
        if (it == star.by_name.end()) return false;
        p.owner[it->second] = seat;
        p.king[it->second] = k;
      }
      item.clear();
      if (c == '/') ++seat;
    } else {
      item.push_back(c);
    }
  }
  if (seat != seats) return false;
  p.to_move = std::atoi(turn.c_str());
  *out = p;
  return true;
}

// Whether `seat` may end a move on `id` (Japanese: not in another player's point).
inline bool MayEnd(const Pos& p, int seat, int id) {
  const Star& star = TheStar();
  if (!p.japanese) return true;
  int pt = star.holes[id].point;
  if (pt < 0) return true;
  int mine = SeatPoint(p.seats, seat);
  if (pt == mine || pt == (mine + 3) % 6) return true;
  for (int s = 0; s < p.seats; ++s) {
    int other = SeatPoint(p.seats, s);
    if (s != seat && (pt == other || pt == (other + 3) % 6)) return false;
  }
  return true;
}

// Destinations of the piece on `from`, each with one path (step, or jumps by BFS).
inline std::map<int, std::vector<int>> Destinations(const Pos& p, int from) {
  const Star& star = TheStar();
  const int seat = p.owner[from];
  const bool king = p.king[from];
  std::map<int, std::vector<int>> out;
  std::vector<int> owner = p.owner;
  std::vector<bool> kings = p.king;
  owner[from] = -1;  // the moving piece has left its hole
  kings[from] = false;
  for (int d = 0; d < 6; ++d) {
    int t = star.Neighbour(from, d);
    if (t >= 0 && owner[t] < 0) out[t] = {from, t};
  }
  std::vector<std::vector<int>> path(star.holes.size());  // empty = not reached yet
  path[from] = {from};
  std::deque<int> todo{from};
  while (!todo.empty()) {
    int h = todo.front();
    todo.pop_front();
    for (int d = 0; d < 6; ++d) {
      int x = star.Neighbour(h, d);
      int over = 0;
      bool blocked = false;
      while (x >= 0 && owner[x] >= 0) {
        if (p.japanese && kings[x]) blocked = true;
        ++over;
        x = star.Neighbour(x, d);
        if (!king) break;
      }
      if (blocked || over == 0 || x < 0 || owner[x] >= 0 || !path[x].empty()) continue;
      path[x] = path[h];
      path[x].push_back(x);
      todo.push_back(x);
      if (!out.count(x)) out[x] = path[x];
    }
  }
  for (auto it = out.begin(); it != out.end();) {
    it = MayEnd(p, seat, it->first) ? std::next(it) : out.erase(it);
  }
  return out;
}

// All (from, to) pairs of the seat to move, by name.
inline std::set<std::pair<std::string, std::string>> Moves(const Pos& p) {
  const Star& star = TheStar();
  std::set<std::pair<std::string, std::string>> out;
  for (int h = 0; h < static_cast<int>(star.holes.size()); ++h) {
    if (p.owner[h] != p.to_move) continue;
    for (const auto& [to, path] : Destinations(p, h)) {
      out.insert({star.holes[h].name, star.holes[to].name});
    }
  }
  return out;
}

// Whether the path of hole names is a legal move for the seat to move.
inline bool ValidPath(const Pos& p, const std::vector<std::string>& names) {
  const Star& star = TheStar();
  std::vector<int> path;
  for (const std::string& n : names) {
    auto it = star.by_name.find(n);
    if (it == star.by_name.end()) return false;
    path.push_back(it->second);
  }
  if (path.size() < 2 || p.owner[path[0]] != p.to_move) return false;
  const bool king = p.king[path[0]];
  // The moving piece has left its hole.
  auto occupied = [&](int x) { return x != path[0] && p.owner[x] >= 0; };
  std::set<int> seen{path[0]};
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    bool ok = false;
    for (int d = 0; d < 6 && !ok; ++d) {
      int x = star.Neighbour(path[i], d);
      if (x == path[i + 1]) {  // a step, alone
        ok = path.size() == 2 && !occupied(x);
        continue;
      }
      int over = 0;
      bool blocked = false;
      while (x >= 0 && occupied(x)) {
        if (p.japanese && p.king[x]) blocked = true;
        ++over;
        x = star.Neighbour(x, d);
        if (!king) break;
      }
      ok = !blocked && over > 0 && x == path[i + 1] && !occupied(x);
    }
    if (!ok || seen.count(path[i + 1])) return false;
    seen.insert(path[i + 1]);
  }
  return MayEnd(p, p.to_move, path.back());
}

// Perft from a start position where nobody can finish within `depth` (turns simply
// rotate): counts distinct (from, to) pairs at the leaves.
inline long long Perft(Pos p, int depth) {
  if (depth == 0) return 1;
  const Star& star = TheStar();
  long long total = 0;
  for (int h = 0; h < static_cast<int>(star.holes.size()); ++h) {
    if (p.owner[h] != p.to_move) continue;
    for (const auto& [to, path] : Destinations(p, h)) {
      if (depth == 1) {
        ++total;
        continue;
      }
      Pos c = p;
      c.owner[to] = c.owner[h];
      c.king[to] = c.king[h];
      c.owner[h] = -1;
      c.king[h] = false;
      c.to_move = (c.to_move + 1) % c.seats;
      total += Perft(c, depth - 1);
    }
  }
  return total;
}

}  // namespace reference

#endif  // TABLERO_LIBS_CHECKERS_TESTS_REFERENCE_H_
