#include "tools/tablero/board.h"

#include <cctype>
#include <map>
#include <string>

namespace tablero::cli {
namespace {

namespace v1 = ::tablero::v1;

// Chess: White upper case, Black lower case; rank 8 on top for White.
std::string DrawChess(const v1::PublicView& view, int seat) {
  char grid[8][8];
  for (auto& row : grid)
    for (char& c : row) c = '.';
  for (const auto& p : view.pieces()) {
    const std::string& sq = p.square();
    if (sq.size() != 2 || p.type().empty()) continue;
    int f = sq[0] - 'a', r = sq[1] - '1';
    if (f < 0 || f > 7 || r < 0 || r > 7) continue;
    char t = p.type()[0];
    grid[r][f] =
        p.owner() == 0 ? static_cast<char>(std::toupper(t)) : static_cast<char>(std::tolower(t));
  }
  bool flip = seat == 1;
  std::string files = flip ? "    h g f e d c b a\n" : "    a b c d e f g h\n";
  std::string out = files;
  for (int i = 0; i < 8; ++i) {
    int r = flip ? i : 7 - i;
    out += ' ' + std::to_string(r + 1) + "  ";
    for (int j = 0; j < 8; ++j) {
      int f = flip ? 7 - j : j;
      out += grid[r][f];
      out += ' ';
    }
    out += ' ' + std::to_string(r + 1) + '\n';
  }
  return out + files;
}

// Four-player shogi: each piece as letter, owner digit and facing arrow (^ > v < = the
// forward of seats 0 1 2 3), e.g. "K0^"; files 9..1 left to right, ranks a..i top down.
std::string DrawShogi4(const v1::PublicView& view) {
  static const char* kArrow = "^>v<";
  std::map<std::pair<int, int>, std::string> cells;
  for (const auto& p : view.pieces()) {
    const std::string& sq = p.square();
    if (sq.size() != 2) continue;
    int f = sq[0] - '1';
    int r = std::isdigit(static_cast<unsigned char>(sq[1])) ? sq[1] - '1' : sq[1] - 'a';
    if (f < 0 || f > 8 || r < 0 || r > 8) continue;
    std::string c = p.flipped() ? "x" : p.type();
    c += p.owner() < 0 ? '-' : static_cast<char>('0' + p.owner());
    c += p.facing() >= 0 && p.facing() < 4 ? kArrow[p.facing()] : ' ';
    cells[{r, f}] = c;
  }
  std::string head = "     9    8    7    6    5    4    3    2    1\n";
  std::string out = head;
  for (int r = 0; r < 9; ++r) {
    out += "  ";
    out += static_cast<char>('a' + r);
    out += ' ';
    for (int f = 8; f >= 0; --f) {
      auto it = cells.find({r, f});
      std::string c = it == cells.end() ? " . " : it->second;
      out += ' ' + c + std::string(c.size() < 4 ? 4 - c.size() : 0, ' ');
    }
    out += ' ';
    out += static_cast<char>('a' + r);
    out += '\n';
  }
  out += head;
  for (const auto& h : view.hands()) {
    out += "  hand of seat " + std::to_string(h.seat()) + ":";
    if (h.pieces().empty()) out += " -";
    for (const auto& hp : h.pieces()) out += ' ' + hp.piece() + "x" + std::to_string(hp.count());
    out += '\n';
  }
  out += "  (piece: letter, owner seat, facing ^ > v <; x = a mated player's king)\n";
  return out;
}

// Chinese Checkers: the star, north up; an empty hole shows its name, a piece "@<seat>"
// (a Japanese king "K<seat>").
std::string DrawCheckers(const v1::PublicView& view) {
  static const int kLen[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
  std::map<std::string, std::string> at;
  for (const auto& p : view.pieces()) {
    at[p.square()] = (p.type() == "K" ? "K" : "@") + std::to_string(p.owner());
  }
  std::string out;
  for (int row = 16; row >= 0; --row) {
    int len = kLen[row];
    bool point = row < 4 || row > 12;
    int indent = point ? 36 - (len - 1) * 3 : (13 - len) * 3;
    std::string line(static_cast<size_t>(indent), ' ');
    for (int i = 1; i <= len; ++i) {
      std::string name = std::string(1, static_cast<char>('a' + row)) + std::to_string(i);
      auto it = at.find(name);
      std::string c = it == at.end() ? name : it->second;
      line += c + std::string(6 - c.size(), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  return out;
}

}  // namespace

std::string DrawBoard(v1::GameKind kind, const v1::PublicView& view, int seat) {
  switch (kind) {
    case v1::GAME_KIND_CHESS:
      return DrawChess(view, seat);
    case v1::GAME_KIND_SHOGI4:
      return DrawShogi4(view);
    case v1::GAME_KIND_CHECKERS:
      return DrawCheckers(view);
    default:
      return view.position() + '\n';
  }
}

}  // namespace tablero::cli
