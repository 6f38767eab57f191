// Text forms: hole names, move paths and position text (see README.md for the picture).
//
// Hole: row letter a..q from the south tip (seat 0's start) to the north tip, then the
// 1-based index within the row from west to east: "a1" is the south tip, "i5" the centre,
// "q1" the north tip, "e1" and "e13" the ends of the long southern row.
// Move: holes joined by '-', e.g. "d2-e3" (step) or "c2-e2-g4-e4" (jump chain).
// Position: "<seat 0>/<seat 1>/... <to move> <places>", each seat a comma list of holes
// (a Japanese king written "K" + hole), <to move> a seat number, <places> "-" when nobody
// is placed or one number per seat (0 = still playing), e.g.
//   "a1,b1,b2,c1,c2,c3,d1,d2,d3,d4/n1,n2,n3,n4,o1,o2,o3,p1,p2,q1 0 -"
#ifndef TABLERO_LIBS_CHECKERS_NOTATION_H_
#define TABLERO_LIBS_CHECKERS_NOTATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/checkers/state.h"

namespace tablero::checkers {

std::string HoleName(int hole);
// The same name, from a table built once ("?" when out of range): no formatting per call.
absl::string_view HoleNameView(int hole);
// Every hole's name, for loops over holes (one call, no check per hole): `len[h]`
// characters of `text[h]`, compact (a loop over the board touches a few cache lines).
struct HoleNameTable {
  char text[kHoles][4];
  uint8_t len[kHoles];
  absl::string_view operator[](int hole) const { return absl::string_view(text[hole], len[hole]); }
};
const HoleNameTable& HoleNames();
// -1 if `text` is not exactly a hole name.
int ParseHole(absl::string_view text);

// The holes (each below kHoles, n at most kHoles) joined by '-'.
std::string PathText(const uint8_t* path, int n);
// Holes of a '-'-separated path (2..121 holes); INVALID_ARGUMENT naming the problem.
absl::StatusOr<std::vector<uint8_t>> ParsePath(absl::string_view text);

std::string PositionText(const State& st);
// The same from the holes of each seat in hole order (holes[s][0..count[s])), for a caller
// that walks the board anyway, into `out` (keeping its room).
void PositionText(const State& st, const uint8_t (*holes)[kHoles], const int* count,
                  std::string* out);

struct ParsedPosition {
  uint8_t cell[kHoles] = {};
  int to_move = 0;
  uint8_t place[kMaxSeats] = {};
};
// Parses and checks position text for a game of `layout` (INVALID_ARGUMENT on any problem).
absl::StatusOr<ParsedPosition> ParsePosition(absl::string_view text, const Layout& layout);

// Checks board contents against the layout: owners exist, piece and king counts, seats
// still playing have pieces (and their king). Shared by position text and Decode.
absl::Status CheckCells(const uint8_t* cell, const uint8_t* place, const Layout& layout);

}  // namespace tablero::checkers

#endif  // TABLERO_LIBS_CHECKERS_NOTATION_H_
