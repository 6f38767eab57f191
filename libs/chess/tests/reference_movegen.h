// A deliberately simple reference move generator for the differential test: a mailbox
// board, pseudo-legal moves by offsets, legality by making the move and scanning for
// attacks on the king. Shares no code with the engine (not even its types).
#ifndef TABLERO_LIBS_CHESS_TESTS_REFERENCE_MOVEGEN_H_
#define TABLERO_LIBS_CHESS_TESTS_REFERENCE_MOVEGEN_H_

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

namespace reference {

struct Board {
  char sq[64];          // 'P','n',... or '.'; index = rank * 8 + file
  bool white = true;    // side to move
  bool castle[4] = {};  // K Q k q
  int ep = -1;          // square behind a pawn that just made a double step

  explicit Board(const std::string& fen) {
    std::istringstream in(fen);
    std::string placement, side, rights, ep_text;
    in >> placement >> side >> rights >> ep_text;
    int r = 7, f = 0;
    for (int i = 0; i < 64; ++i) sq[i] = '.';
    for (char c : placement) {
      if (c == '/') {
        --r;
        f = 0;
      } else if (isdigit(c)) {
        f += c - '0';
      } else {
        sq[r * 8 + f++] = c;
      }
    }
    white = side == "w";
    for (char c : rights) {
      if (c == 'K') castle[0] = true;
      if (c == 'Q') castle[1] = true;
      if (c == 'k') castle[2] = true;
      if (c == 'q') castle[3] = true;
    }
    if (ep_text != "-") ep = (ep_text[1] - '1') * 8 + (ep_text[0] - 'a');
  }

  static bool Upper(char p) { return p >= 'A' && p <= 'Z'; }
  static char ToUpper(char p) { return Upper(p) ? p : char(p - 'a' + 'A'); }
  static char ToLower(char p) { return Upper(p) ? char(p - 'A' + 'a') : p; }
  static bool Mine(char p, bool white) { return p != '.' && Upper(p) == white; }

  // Moves are ints: (from * 64 + to) * 8 + promotion (0 none, else index in "?qrbn").
  static int Code(int from, int to, int promo = 0) { return (from * 64 + to) * 8 + promo; }
  static std::string Uci(int code) {
    std::string s = Name(code / 512) + Name(code / 8 % 64);
    if (code % 8) s += "?qrbn"[code % 8];
    return s;
  }
  static bool On(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

  // Is square s attacked by the side `by_white`?
  bool Attacked(int s, bool by_white) const {
    const int f = s % 8, r = s / 8;
    auto is = [&](int ff, int rr, char piece) {
      if (!On(ff, rr)) return false;
      char p = sq[rr * 8 + ff];
      return p == (by_white ? piece : ToLower(piece));
    };
    int pawn_rank = by_white ? r - 1 : r + 1;
    if (is(f - 1, pawn_rank, 'P') || is(f + 1, pawn_rank, 'P')) return true;
    const int kn[8][2] = {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    for (auto& d : kn)
      if (is(f + d[0], r + d[1], 'N')) return true;
    for (int df = -1; df <= 1; ++df)
      for (int dr = -1; dr <= 1; ++dr)
        if ((df || dr) && is(f + df, r + dr, 'K')) return true;
    for (int df = -1; df <= 1; ++df) {
      for (int dr = -1; dr <= 1; ++dr) {
        if (!df && !dr) continue;
        const bool diag = df && dr;
        for (int ff = f + df, rr = r + dr; On(ff, rr); ff += df, rr += dr) {
          char p = sq[rr * 8 + ff];
          if (p == '.') continue;
          if (Mine(p, by_white)) {
            char u = ToUpper(p);
            if (u == 'Q' || (diag && u == 'B') || (!diag && u == 'R')) return true;
          }
          break;
        }
      }
    }
    return false;
  }

  int King(bool w) const {
    for (int i = 0; i < 64; ++i)
      if (sq[i] == (w ? 'K' : 'k')) return i;
    return -1;
  }

  static std::string Name(int s) { return {char('a' + s % 8), char('1' + s / 8)}; }

  // Applies a move code (assumed pseudo-legal, from Moves()).
  void Play(int code) {
    const int from = code / 512, to = code / 8 % 64, promo = code % 8;
    char p = sq[from];
    const char u = ToUpper(p);
    if (u == 'P' && to == ep) sq[to + (white ? -8 : 8)] = '.';
    if (u == 'K' && (to - from == 2 || from - to == 2)) {
      const int rook_from = to > from ? from + 3 : from - 4,
                rook_to = to > from ? from + 1 : from - 1;
      sq[rook_to] = sq[rook_from];
      sq[rook_from] = '.';
    }
    if (promo) p = white ? "?QRBN"[promo] : "?qrbn"[promo];
    sq[to] = p;
    sq[from] = '.';
    ep = (u == 'P' && (to - from == 16 || from - to == 16)) ? (from + to) / 2 : -1;
    for (int s : {from, to}) {
      if (s == 4) castle[0] = castle[1] = false;
      if (s == 60) castle[2] = castle[3] = false;
      if (s == 7) castle[0] = false;
      if (s == 0) castle[1] = false;
      if (s == 63) castle[2] = false;
      if (s == 56) castle[3] = false;
    }
    white = !white;
  }

  // Legal move codes.
  std::vector<int> Moves() const {
    std::vector<int> pseudo;
    auto add = [&](int from, int to) { pseudo.push_back(Code(from, to)); };
    for (int s = 0; s < 64; ++s) {
      const char p = sq[s];
      if (!Mine(p, white)) continue;
      const int f = s % 8, r = s / 8;
      const char u = ToUpper(p);
      if (u == 'P') {
        const int dir = white ? 1 : -1, start = white ? 1 : 6, last = white ? 7 : 0;
        auto pawn_to = [&](int to) {
          if (to / 8 == last) {
            for (int promo = 1; promo <= 4; ++promo) pseudo.push_back(Code(s, to, promo));
          } else {
            add(s, to);
          }
        };
        if (On(f, r + dir) && sq[(r + dir) * 8 + f] == '.') {
          pawn_to((r + dir) * 8 + f);
          if (r == start && sq[(r + 2 * dir) * 8 + f] == '.') add(s, (r + 2 * dir) * 8 + f);
        }
        for (int df : {-1, 1}) {
          if (!On(f + df, r + dir)) continue;
          const int t = (r + dir) * 8 + f + df;
          if (Mine(sq[t], !white)) pawn_to(t);
          if (t == ep) add(s, t);
        }
        continue;
      }
      static constexpr int kKnight[8][2] = {{1, 2},  {2, 1},  {-1, 2},  {-2, 1},
                                            {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
      static constexpr int kQueen[8][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1},
                                           {1, 0}, {-1, 0}, {0, 1},  {0, -1}};
      const bool slide = u != 'N' && u != 'K';
      // Bishops use the first four queen directions, rooks the last four.
      const int(*dirs)[2] = u == 'N' ? kKnight : u == 'R' ? kQueen + 4 : kQueen;
      const int count = (u == 'B' || u == 'R') ? 4 : 8;
      for (int d = 0; d < count; ++d) {
        const int df = dirs[d][0], dr = dirs[d][1];
        for (int ff = f + df, rr = r + dr; On(ff, rr); ff += df, rr += dr) {
          const char q = sq[rr * 8 + ff];
          if (Mine(q, white)) break;
          add(s, rr * 8 + ff);
          if (q != '.' || !slide) break;
        }
      }
    }
    // Castling: rights, empty squares, and no attacked square on the king's way.
    const int k = white ? 4 : 60;
    const char rook = white ? 'R' : 'r';
    if (sq[k] == (white ? 'K' : 'k') && !Attacked(k, !white)) {
      if (castle[white ? 0 : 2] && sq[k + 3] == rook && sq[k + 1] == '.' && sq[k + 2] == '.' &&
          !Attacked(k + 1, !white) && !Attacked(k + 2, !white))
        add(k, k + 2);
      if (castle[white ? 1 : 3] && sq[k - 4] == rook && sq[k - 1] == '.' && sq[k - 2] == '.' &&
          sq[k - 3] == '.' && !Attacked(k - 1, !white) && !Attacked(k - 2, !white))
        add(k, k - 2);
    }
    std::vector<int> legal;
    for (int m : pseudo) {
      Board next = *this;
      next.Play(m);
      if (!next.Attacked(next.King(white), !white)) legal.push_back(m);
    }
    return legal;
  }
};

}  // namespace reference

#endif  // TABLERO_LIBS_CHESS_TESTS_REFERENCE_MOVEGEN_H_
