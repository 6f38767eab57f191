#include "libs/checkers/notation.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace tablero::checkers {

const HoleNameTable& HoleNames() {
  static const HoleNameTable* names = [] {
    auto* n = new HoleNameTable;
    for (int h = 0; h < kHoles; ++h) {
      const std::string s =
          absl::StrCat(std::string(1, static_cast<char>('a' + kGeo.row[h])), kGeo.col[h] + 1);
      std::copy(s.begin(), s.end(), n->text[h]);
      n->len[h] = static_cast<uint8_t>(s.size());
    }
    return n;
  }();
  return *names;
}

namespace {

// Why CheckCells refuses the piece `c` on `hole`.
[[gnu::noinline, gnu::cold]] absl::Status BadCell(uint8_t c, int hole, const Layout& layout) {
  const int owner = OwnerOf(c);
  if ((c & ~(kSeatMask | kKingBit)) != 0 || owner < 0 || owner >= layout.seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("hole ", HoleName(hole), " holds a piece of no seat"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("hole ", HoleName(hole), ": kings exist only in the Japanese rules"));
}

// Out of line: the error path of a parse.
[[gnu::noinline, gnu::cold]] absl::Status NotAHole(absl::string_view text, absl::string_view part) {
  return absl::InvalidArgumentError(
      absl::StrCat("move \"", text, "\": \"", part, "\" is not a hole name"));
}

// Writes v (a seat or a place) in decimal at p; returns the end.
char* PutNumber(char* p, uint8_t v) {
  if (v >= 100) *p++ = static_cast<char>('0' + v / 100);
  if (v >= 10) *p++ = static_cast<char>('0' + v / 10 % 10);
  *p++ = static_cast<char>('0' + v % 10);
  return p;
}

}  // namespace

absl::string_view HoleNameView(int hole) {
  if (hole < 0 || hole >= kHoles) return "?";
  return HoleNames()[hole];
}

std::string HoleName(int hole) { return std::string(HoleNameView(hole)); }

int ParseHole(absl::string_view text) {
  if (text.size() < 2 || text.size() > 3) return -1;
  if (text[0] < 'a' || text[0] >= 'a' + kRows) return -1;
  const int row = text[0] - 'a';
  int col = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    col = col * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || col < 1 || col > kGeo.row_len[row]) return -1;
  return kGeo.row_start[row] + col - 1;
}

std::string PathText(const uint8_t* path, int n) {
  // At most kHoles names of 3 characters and their dashes: no room checks.
  const HoleNameTable& names = HoleNames();
  char buf[4 * kHoles];
  char* p = buf;
  for (int i = 0; i < n; ++i) {
    *p = '-';
    p += i > 0;
    std::memcpy(p, names.text[path[i]], sizeof names.text[0]);  // the whole slot: one move
    p += names.len[path[i]];
  }
  return std::string(buf, static_cast<size_t>(p - buf));
}

absl::StatusOr<std::vector<uint8_t>> ParsePath(absl::string_view text) {
  if (text.size() > 4 * kHoles) return absl::InvalidArgumentError("move text is too long");
  std::vector<uint8_t> path;
  for (size_t at = 0;;) {  // the parts between '-'s, empty ones included
    const size_t dash = text.find('-', at);
    const absl::string_view part = text.substr(at, dash - at);
    const int h = ParseHole(part);
    if (h < 0) return NotAHole(text, part);
    path.push_back(static_cast<uint8_t>(h));
    if (dash == absl::string_view::npos) break;
    at = dash + 1;
  }
  if (path.size() < 2 || path.size() > kHoles) {
    return absl::InvalidArgumentError(
        absl::StrCat("move \"", text, "\": a move is a path of 2 or more holes joined by '-'"));
  }
  return path;
}

std::string PositionText(const State& st) {
  const int n = st.layout.seats;
  // One pass over the board sorts the holes by seat (in hole order), then one string.
  uint8_t holes[kMaxSeats][kHoles];
  int count[kMaxSeats] = {};
  ForEachPiece(st.cell, [&](int h) {
    const int s = OwnerOf(st.cell[h]);
    if (s < n) holes[s][count[s]++] = static_cast<uint8_t>(h);
  });
  std::string text;
  PositionText(st, holes, count, &text);
  return text;
}

void PositionText(const State& st, const uint8_t (*holes)[kHoles], const int* count,
                  std::string* out) {
  const int n = st.layout.seats;
  const HoleNameTable& names = HoleNames();
  // Each hole at most once as ",K" and a 4-byte name slot, then under 64 characters of
  // separators, seat to move and places: no room checks.
  char buf[kHoles * 6 + 64];
  char* p = buf;
  for (int s = 0; s < n; ++s) {
    if (s > 0) *p++ = '/';
    for (int i = 0; i < count[s]; ++i) {
      const int h = holes[s][i];
      *p = ',';
      p += i > 0;
      *p = 'K';
      p += IsKing(st.cell[h]);
      std::memcpy(p, names.text[h], sizeof names.text[h]);  // the whole slot: one move
      p += names.len[h];
    }
  }
  *p++ = ' ';
  if (st.to_move < 0) {
    *p++ = '-';
  } else {
    p = PutNumber(p, static_cast<uint8_t>(st.to_move));
  }
  *p++ = ' ';
  bool placed = false;
  for (int s = 0; s < n; ++s) placed |= st.place[s] != 0;
  if (!placed) {
    *p++ = '-';
  } else {
    for (int s = 0; s < n; ++s) {
      if (s > 0) *p++ = ',';
      p = PutNumber(p, st.place[s]);
    }
  }
  out->assign(buf, static_cast<size_t>(p - buf));
}

namespace {

// The first hole with a piece of no seat or a king out of the rules, or -1.
[[gnu::noinline, gnu::cold]] int FirstBadCell(const uint8_t* cell, const Layout& layout) {
  int bad = -1;
  ForEachPiece(cell, [&](int h) {
    const uint8_t c = cell[h];
    const int owner = OwnerOf(c);
    if (bad < 0 && ((c & ~(kSeatMask | kKingBit)) != 0 || owner < 0 || owner >= layout.seats ||
                    (IsKing(c) && !layout.japanese)))
      bad = h;
  });
  return bad;
}

// Why CheckCells refuses the counts of pieces and kings per seat: the first seat's first
// problem (the caller found one).
[[gnu::noinline, gnu::cold]] absl::Status BadCounts(const int* pieces, const int* kings,
                                                    const uint8_t* place, const Layout& layout) {
  for (int s = 0; s < layout.seats; ++s) {
    if (pieces[s] > layout.pieces()) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", s, " has ", pieces[s], " pieces; at most ", layout.pieces()));
    }
    if (kings[s] > 1) {
      return absl::InvalidArgumentError(absl::StrCat("seat ", s, " has ", kings[s], " kings"));
    }
    if (place[s] != 0) continue;
    if (pieces[s] == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", s, " is still playing but has no pieces"));
    }
    if (layout.japanese && kings[s] != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", s, " is still playing but has no king"));
    }
  }
  return absl::OkStatus();  // unreachable: the caller found a problem
}

}  // namespace

absl::Status CheckCells(const uint8_t* cell, const uint8_t* place, const Layout& layout) {
  // The pieces counted by cell value: a valid one is seat + 1, with the king bit in the
  // Japanese rules; any other value makes the valid ones fall short of all the pieces.
  uint8_t count[256] = {};
  int all = 0;
  ForEachPiece(cell, [&](int h) {
    ++count[cell[h]];
    ++all;
  });
  int pieces[kMaxSeats] = {}, kings[kMaxSeats] = {};
  int valid = 0;
  for (int s = 0; s < layout.seats; ++s) {
    kings[s] = layout.japanese ? count[(s + 1) | kKingBit] : 0;
    pieces[s] = count[s + 1] + kings[s];
    valid += pieces[s];
  }
  if (valid != all) {
    const int bad = FirstBadCell(cell, layout);
    return BadCell(cell[bad], bad, layout);
  }
  for (int s = 0; s < layout.seats; ++s) {
    if (pieces[s] > layout.pieces() || kings[s] > 1 ||
        (place[s] == 0 && (pieces[s] == 0 || (layout.japanese && kings[s] != 1))))
      return BadCounts(pieces, kings, place, layout);
  }
  return absl::OkStatus();
}

absl::StatusOr<ParsedPosition> ParsePosition(absl::string_view text, const Layout& layout) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("position \"", text.substr(0, 200), "\": ", why));
  };
  if (text.size() > 2000) return bad("too long");
  std::vector<absl::string_view> fields = absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (fields.size() != 3) return bad("expected \"<seat 0>/<seat 1>/... <to move> <places>\"");
  const int n = layout.seats;
  ParsedPosition pos;
  std::vector<absl::string_view> groups = absl::StrSplit(fields[0], '/');
  if (static_cast<int>(groups.size()) != n) {
    return bad(absl::StrCat("has ", groups.size(), " seat lists for ", n, " seats"));
  }
  for (int s = 0; s < n; ++s) {
    if (groups[s].empty()) continue;
    for (absl::string_view item : absl::StrSplit(groups[s], ',')) {
      bool king = !item.empty() && item[0] == 'K';
      if (king) item.remove_prefix(1);
      int h = ParseHole(item);
      if (h < 0) return bad(absl::StrCat("\"", item, "\" is not a hole name"));
      if (pos.cell[h] != kEmpty) return bad(absl::StrCat("hole ", item, " is listed twice"));
      pos.cell[h] = static_cast<uint8_t>((s + 1) | (king ? kKingBit : 0));
    }
  }
  if (fields[1].size() != 1 || fields[1][0] < '0' || fields[1][0] >= '0' + n) {
    return bad(absl::StrCat("\"", fields[1], "\" is not a seat to move (0-", n - 1,
                            "; a finished game cannot be loaded)"));
  }
  pos.to_move = fields[1][0] - '0';
  if (fields[2] != "-") {
    std::vector<absl::string_view> places = absl::StrSplit(fields[2], ',');
    if (static_cast<int>(places.size()) != n) return bad("places need one number per seat");
    for (int s = 0; s < n; ++s) {
      if (places[s].size() != 1 || places[s][0] < '0' || places[s][0] > '0' + n) {
        return bad(absl::StrCat("\"", places[s], "\" is not a place from 0 to ", n));
      }
      pos.place[s] = static_cast<uint8_t>(places[s][0] - '0');
    }
    if (!PlacesConsistent(pos.place, n)) return bad("the places are inconsistent");
  }
  int playing = 0;
  for (int s = 0; s < n; ++s) playing += pos.place[s] == 0;
  if (playing < 2) return bad("at least two seats must still be playing");
  if (pos.place[pos.to_move] != 0) return bad("the seat to move is already placed");
  if (absl::Status st = CheckCells(pos.cell, pos.place, layout); !st.ok()) return bad(st.message());
  return pos;
}

}  // namespace tablero::checkers
