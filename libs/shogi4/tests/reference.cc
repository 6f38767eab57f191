#include "libs/shogi4/tests/reference.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace ref {
namespace {

// Forward vector of each facing (seat 0 faces north = rank decreasing).
const int kFwdR[4] = {-1, 0, 1, 0};
const int kFwdC[4] = {0, 1, 0, -1};
const char kFaceCh[4] = {'n', 'e', 's', 'w'};
const char kHandCh[4] = {'P', 'S', 'G', 'R'};

bool On(int r, int c) { return r >= 0 && r < 9 && c >= 0 && c < 9; }

int HandSlot(char k) { return std::string("PSGR").find(k); }

// Steps of a piece as (forward, right) pairs.
using Steps_ = std::vector<std::pair<int, int>>;
const Steps_& Steps(const Piece& p) {
  static const Steps_ king = {{1, 0}, {1, 1}, {1, -1}, {0, 1}, {0, -1}, {-1, 0}, {-1, 1}, {-1, -1}};
  static const Steps_ gold = {{1, 0}, {1, 1}, {1, -1}, {0, 1}, {0, -1}, {-1, 0}};
  static const Steps_ pawn = {{1, 0}};
  static const Steps_ silver = {{1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  static const Steps_ dragon = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  static const Steps_ none = {};
  if (p.kind == 'K') return king;
  if (p.kind == 'G' || (p.pro && (p.kind == 'P' || p.kind == 'S'))) return gold;
  if (p.kind == 'P') return pawn;
  if (p.kind == 'S') return silver;
  if (p.kind == 'R' && p.pro) return dragon;
  return none;
}

// Does the piece on (r, c) attack / reach (tr, tc)?
bool Reaches(const Pos& p, int r, int c, int tr, int tc) {
  const Piece& pc = p.b[r][c];
  bool near = std::abs(tr - r) <= 1 && std::abs(tc - c) <= 1;
  if (!near && (pc.kind != 'R' || (tr != r && tc != c))) return false;  // cheap filter
  int f = pc.face;
  int rr = kFwdC[f], rc = -kFwdR[f];  // "right" = forward turned clockwise
  for (auto [fw, rt] : Steps(pc)) {
    if (r + fw * kFwdR[f] + rt * rr == tr && c + fw * kFwdC[f] + rt * rc == tc) return true;
  }
  if (pc.kind == 'R') {
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; ++d) {
      for (int k = 1; k < 9; ++k) {
        int nr = r + k * dr[d], nc = c + k * dc[d];
        if (!On(nr, nc)) break;
        if (nr == tr && nc == tc) return true;
        if (p.b[nr][nc].kind) break;
      }
    }
  }
  return false;
}

bool Live(const Pos& p, int owner) { return owner >= 0 && p.alive[owner]; }

std::pair<int, int> KingOf(const Pos& p, int seat) {
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c)
      if (p.b[r][c].kind == 'K' && p.b[r][c].owner == seat) return {r, c};
  return {-1, -1};
}

std::set<int> Checkers(const Pos& p, int seat) {
  std::set<int> out;
  auto [kr, kc] = KingOf(p, seat);
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) {
      const Piece& pc = p.b[r][c];
      if (pc.kind && pc.owner != seat && Live(p, pc.owner) && Reaches(p, r, c, kr, kc))
        out.insert(r * 9 + c);
    }
  return out;
}

bool AnyChecker(const Pos& p, int seat) {
  auto [kr, kc] = KingOf(p, seat);
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) {
      const Piece& pc = p.b[r][c];
      if (pc.kind && pc.owner != seat && Live(p, pc.owner) && Reaches(p, r, c, kr, kc)) return true;
    }
  return false;
}

bool InZone(int face, int r, int c) {
  switch (face) {
    case 0:
      return r <= 2;
    case 1:
      return c >= 6;
    case 2:
      return r >= 6;
    default:
      return c <= 2;
  }
}

bool LastRank(int face, int r, int c) { return !On(r + kFwdR[face], c + kFwdC[face]); }

bool FlippedAhead(const Pos& p, int face, int r, int c) {
  int nr = r + kFwdR[face], nc = c + kFwdC[face];
  return On(nr, nc) && p.b[nr][nc].kind == 'K' && !p.alive[p.b[nr][nc].owner];
}

std::string Sq(int r, int c) { return std::string(1, char('9' - c)) + char('a' + r); }

bool NewPartnerCheck(const Pos& before, const Pos& after, int seat, int to) {
  if (!before.opt.pairs || !before.alive[seat ^ 2]) return false;
  std::set<int> b = Checkers(before, seat ^ 2), a = Checkers(after, seat ^ 2);
  for (int x : a)
    if (x == to || !b.count(x)) return true;
  return false;
}

void Eliminate(Pos& p, int seat, int mater) {
  p.alive[seat] = false;
  p.elim[p.n_elim++] = {seat, mater};
  for (int i = 0; i < 4; ++i) {
    p.hand[mater][i] += p.hand[seat][i];
    p.hand[seat][i] = 0;
  }
  for (auto& row : p.b)
    for (Piece& pc : row)
      if (pc.kind && pc.kind != 'K' && pc.owner == seat) pc.owner = p.opt.ownerless ? -1 : mater;
  int left = 0;
  for (bool a : p.alive) left += a;
  if (p.opt.pairs)
    p.over = "pairs_mate";
  else if (left == 1)
    p.over = "last_one_standing";
  else if (!p.opt.last_one_standing && p.n_elim == 2)
    p.over = "two_mates";
}

int Pick(const Pos& p, int m) {
  for (int k = 1; k <= 3; ++k) {
    int t = (m + k) % 4;
    if (p.alive[t] && InCheck(p, t)) return t;
  }
  for (int k = 1; k <= 4; ++k)
    if (p.alive[(m + k) % 4]) return (m + k) % 4;
  return m;
}

// The move itself, no consequences.
int Execute(Pos& p, const std::string& mv) {
  int s = p.tomove;
  if (mv[1] == '*') {
    int r = mv[3] - 'a', c = '9' - mv[2];
    p.b[r][c] = Piece{mv[0], false, s, s};
    p.hand[s][HandSlot(mv[0])]--;
  } else {
    int fr = mv[1] - 'a', fc = '9' - mv[0], tr = mv[3] - 'a', tc = '9' - mv[2];
    Piece moving = p.b[fr][fc];
    if (p.b[tr][tc].kind) p.hand[s][HandSlot(p.b[tr][tc].kind)]++;
    if (mv.size() == 5) moving.pro = true;
    moving.owner = s;
    p.b[tr][tc] = moving;
    p.b[fr][fc] = Piece{};
  }
  p.ply++;
  return s;
}

void ResolveWith(Pos& p, int m, const std::function<bool(const Pos&, int)>& has_move) {
  while (p.over.empty()) {
    int t = Pick(p, m);
    p.tomove = t;
    if (has_move(p, t)) break;
    Eliminate(p, t, m);
  }
  if (!p.alive[p.tomove]) p.tomove = Pick(p, m);
  if (p.over.empty() && p.opt.limit > 0 && p.ply >= p.opt.limit) p.over = "move_limit";
}

}  // namespace

bool InCheck(const Pos& p, int seat) { return AnyChecker(p, seat); }

bool Parse(const std::string& text, const Options& opt, Pos* out) {
  Pos p;
  p.opt = opt;
  std::istringstream in(text);
  std::string board, tm, hands, el = "-", ply = "0";
  if (!(in >> board >> tm >> hands)) return false;
  in >> el >> ply;
  if (el != "-") {
    std::stringstream es(el);
    std::string e;
    while (std::getline(es, e, ',')) {
      if (e.size() != 3) return false;
      if (p.n_elim >= 4) return false;
      p.elim[p.n_elim++] = {e[0] - '0', e[2] - '0'};
      p.alive[e[0] - '0'] = false;
    }
  }
  int r = 0, c = 0;
  for (size_t i = 0; i < board.size(); ++i) {
    char ch = board[i];
    if (ch == '/') {
      ++r;
      c = 0;
      continue;
    }
    if (isdigit(ch)) {
      c += ch - '0';
      continue;
    }
    Piece pc;
    if (ch == '+') {
      pc.pro = true;
      ch = board[++i];
    }
    pc.kind = ch == 'k' ? 'K' : ch;
    pc.owner = board[i + 1] == 'x' ? -1 : board[i + 1] - '0';
    pc.face = std::string("nesw").find(board[i + 2]);
    i += 2;
    if (r > 8 || c > 8) return false;
    p.b[r][c++] = pc;
  }
  p.tomove = tm[0] - '0';
  std::stringstream hs(hands);
  std::string h;
  for (int s = 0; s < 4 && std::getline(hs, h, '/'); ++s) {
    if (h == "-") continue;
    int n = 0;
    for (char ch : h) {
      if (isdigit(ch)) {
        n = n * 10 + (ch - '0');
        continue;
      }
      p.hand[s][HandSlot(ch)] = n ? n : 1;
      n = 0;
    }
  }
  p.ply = std::stoi(ply);
  int left = 0;
  for (bool a : p.alive) left += a;
  if (opt.pairs && p.n_elim > 0)
    p.over = "pairs_mate";
  else if (left <= 1)
    p.over = "last_one_standing";
  else if (!opt.pairs && !opt.last_one_standing && p.n_elim >= 2)
    p.over = "two_mates";
  else if (opt.limit > 0 && p.ply >= opt.limit)
    p.over = "move_limit";
  *out = p;
  return true;
}

std::string Print(const Pos& p) {
  std::string s;
  for (int r = 0; r < 9; ++r) {
    if (r) s += '/';
    int e = 0;
    for (int c = 0; c < 9; ++c) {
      const Piece& pc = p.b[r][c];
      if (!pc.kind) {
        ++e;
        continue;
      }
      if (e) s += char('0' + e);
      e = 0;
      if (pc.pro) s += '+';
      s += (pc.kind == 'K' && !p.alive[pc.owner]) ? 'k' : pc.kind;
      s += pc.owner < 0 ? 'x' : char('0' + pc.owner);
      s += kFaceCh[pc.face];
    }
    if (e) s += char('0' + e);
  }
  s += ' ' + std::to_string(p.tomove) + ' ';
  for (int seat = 0; seat < 4; ++seat) {
    if (seat) s += '/';
    std::string h;
    for (int i : {3, 2, 1, 0}) {
      if (p.hand[seat][i] > 1) h += std::to_string(p.hand[seat][i]);
      if (p.hand[seat][i] > 0) h += kHandCh[i];
    }
    s += h.empty() ? "-" : h;
  }
  s += ' ';
  if (p.n_elim == 0) s += '-';
  for (int i = 0; i < p.n_elim; ++i) {
    if (i) s += ',';
    s += std::to_string(p.elim[i].first) + ":" + std::to_string(p.elim[i].second);
  }
  return s + ' ' + std::to_string(p.ply);
}

std::vector<std::string> Legal(const Pos& p, int s, bool pdm) {
  std::vector<std::string> out;
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) {
      const Piece& pc = p.b[r][c];
      if (!pc.kind || pc.owner != s) continue;
      for (int tr = 0; tr < 9; ++tr)
        for (int tc = 0; tc < 9; ++tc) {
          const Piece& t = p.b[tr][tc];
          if (t.kind && (t.owner == s || t.kind == 'K')) continue;
          if (!Reaches(p, r, c, tr, tc)) continue;
          bool can_pro = !pc.pro && pc.kind != 'K' && pc.kind != 'G' &&
                         (InZone(pc.face, r, c) || InZone(pc.face, tr, tc));
          for (int pro = 0; pro < 2; ++pro) {
            if (pro && !can_pro) continue;
            if (!pro && pc.kind == 'P' && !pc.pro &&
                (LastRank(pc.face, tr, tc) ||
                 (p.opt.pawn_rule && FlippedAhead(p, pc.face, tr, tc))))
              continue;
            std::string mv = Sq(r, c) + Sq(tr, tc) + (pro ? "+" : "");
            Pos q = p;
            q.tomove = s;
            Execute(q, mv);
            if (InCheck(q, s) || NewPartnerCheck(p, q, s, tr * 9 + tc)) continue;
            out.push_back(mv);
          }
        }
    }
  for (int i = 0; i < 4; ++i) {
    if (!p.hand[s][i]) continue;
    char k = kHandCh[i];
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c) {
        if (p.b[r][c].kind) continue;
        if (k == 'P') {
          if (LastRank(s, r, c)) continue;
          if (p.opt.pawn_rule && FlippedAhead(p, s, r, c)) continue;
          bool nifu = false;
          for (int x = 0; x < 9; ++x) {
            const Piece& o = s % 2 == 0 ? p.b[x][c] : p.b[r][x];
            if (o.kind == 'P' && !o.pro && o.owner == s && o.face == s) nifu = true;
          }
          if (nifu) continue;
        }
        std::string mv = std::string(1, k) + "*" + Sq(r, c);
        Pos q = p;
        q.tomove = s;
        Execute(q, mv);
        if (InCheck(q, s) || NewPartnerCheck(p, q, s, r * 9 + c)) continue;
        if (k == 'P' && pdm) {
          int nr = r + kFwdR[s], nc = c + kFwdC[s];
          const Piece& t = q.b[nr][nc];  // LastRank excluded: (nr, nc) is on the board
          if (t.kind == 'K' && t.owner != s && q.alive[t.owner] && Legal(q, t.owner, false).empty())
            continue;
        }
        out.push_back(mv);
      }
  }
  return out;
}

void Apply(Pos& p, const std::string& mv) {
  int m = Execute(p, mv);
  ResolveWith(p, m, [](const Pos& q, int t) { return !Legal(q, t).empty(); });
}

std::vector<int> Places(const Pos& p) {
  std::vector<int> pl(4, 0);
  if (p.over.empty()) return pl;
  if (p.over == "pairs_mate") {
    int lose = p.elim[0].first % 2;
    for (int s = 0; s < 4; ++s) pl[s] = s % 2 == lose ? 2 : 1;
    return pl;
  }
  if (p.opt.pairs) return {1, 1, 1, 1};
  for (int i = 0; i < p.n_elim; ++i) pl[p.elim[i].first] = 4 - i;
  bool full = p.over == "two_mates" || p.over == "last_one_standing";
  std::vector<std::vector<int>> score(4);
  for (int s = 0; s < 4; ++s) {
    int mates = 0, last = 0, pieces = 0;
    for (int i = 0; i < p.n_elim; ++i)
      if (p.elim[i].second == s) {
        ++mates;
        last = i + 1;
      }
    for (auto& row : p.b)
      for (const Piece& pc : row) pieces += pc.kind && pc.owner == s;
    for (int i = 0; i < 4; ++i) pieces += p.hand[s][i];
    score[s] =
        full ? std::vector<int>{mates, pieces + mates, last} : std::vector<int>{mates, pieces};
  }
  for (int s = 0; s < 4; ++s) {
    if (!p.alive[s]) continue;
    pl[s] = 1;
    for (int t = 0; t < 4; ++t) pl[s] += p.alive[t] && score[t] > score[s];
  }
  return pl;
}

uint64_t Perft(const Pos& p, int depth) {
  if (depth == 0) return 1;
  if (!p.over.empty()) return 0;
  std::vector<std::string> moves = Legal(p, p.tomove);
  if (depth == 1) return moves.size();
  uint64_t n = 0;
  for (const std::string& mv : moves) {
    Pos q = p;
    Apply(q, mv);
    n += Perft(q, depth - 1);
  }
  return n;
}

Game::Game(const Pos& p) : pos_(p) { hist_.push_back(Entry(p, -1)); }

Game::Seen Game::Entry(const Pos& p, int mover) {
  std::string id = Print(p);
  id = id.substr(0, id.rfind(' '));  // the ply is not part of the identity
  return Seen{id, mover, p.alive[p.tomove] && InCheck(p, p.tomove)};
}

namespace {

bool AnyTriple(const std::vector<Game::Seen>& h) {
  std::map<std::string, int> n;
  for (const auto& e : h)
    if (++n[e.id] >= 3) return true;
  return false;
}

}  // namespace

std::vector<std::string> Game::LegalWith(const Pos& p, const std::vector<Seen>& h) const {
  if (!AnyTriple(h)) return Legal(p, p.tomove);
  std::vector<std::string> out;
  for (const std::string& mv : Legal(p, p.tomove)) {
    Pos q = p;
    int x = Execute(q, mv);
    q.tomove = Pick(q, x);
    Seen e = Entry(q, x);
    int count = 0;
    size_t first = h.size();
    for (size_t i = 0; i < h.size(); ++i)
      if (h[i].id == e.id) {
        ++count;
        if (first == h.size()) first = i;
      }
    if (count >= 3) {
      bool perpetual = e.check;
      for (size_t j = first + 1; j < h.size(); ++j)
        if (!(h[j].mover == x ? h[j].check : h[j - 1].check)) perpetual = false;
      if (perpetual) continue;
    }
    out.push_back(mv);
  }
  return out;
}

std::vector<std::string> Game::LegalMoves() const {
  if (!pos_.over.empty()) return {};
  if (cached_) return *cached_;
  return LegalWith(pos_, hist_);
}

void Game::Play(const std::string& mv) {
  cached_.reset();
  int m = Execute(pos_, mv);
  Pos probe = pos_;
  probe.tomove = Pick(probe, m);
  Seen e = Entry(probe, m);
  int count = 0;
  for (const Seen& s : hist_) count += s.id == e.id;
  if (count >= 3) {
    pos_ = probe;
    hist_.push_back(e);
    pos_.over = "fourth_occurrence";
    return;
  }
  ResolveWith(pos_, m, [&](const Pos& q, int t) {
    Pos r = q;
    r.tomove = t;
    std::vector<Seen> h = hist_;
    h.push_back(Entry(r, m));
    cached_ = LegalWith(r, h);  // the same list LegalMoves will give for this position
    return !cached_->empty();
  });
  if (!pos_.over.empty()) cached_.reset();
  hist_.push_back(Entry(pos_, m));
}

}  // namespace ref
