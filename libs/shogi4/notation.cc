#include "libs/shogi4/notation.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/game/text_buffer.h"
#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {
namespace {

constexpr char kLetters[kPieceTypes] = {'?', 'P', 'S', 'G', 'R', 'K', 'P', 'S', 'R'};
constexpr char kFacings[4] = {'n', 'e', 's', 'w'};
// Hands print in this order (strongest first, as in SFEN).
constexpr int kHandOrder[kHandTypes] = {kRook, kGold, kSilver, kPawn};

[[gnu::cold, gnu::noinline]] absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("shogi4 position: ", what));
}

int LetterType(char ch) {
  switch (ch) {
    case 'P':
      return kPawn;
    case 'S':
      return kSilver;
    case 'G':
      return kGold;
    case 'R':
      return kRook;
    case 'K':
      return kKing;
    default:
      return kNone;
  }
}

}  // namespace

constexpr NameTable kNameTable = [] {
  NameTable t{};
  for (int sq = 0; sq < kSquares; ++sq) {
    t.square[sq][0] = static_cast<char>('9' - ColOf(sq));
    t.square[sq][1] = static_cast<char>('a' + RankOf(sq));
  }
  for (int type = 0; type < kPieceTypes; ++type) {
    t.piece[type][0] = type >= kProPawn ? '+' : kLetters[type];
    t.piece[type][1] = kLetters[type];
  }
  return t;
}();

std::string SquareName(int sq) { return std::string(SquareNameView(sq)); }

namespace {

// The square a two-character name names ("5e"), -1 for none.
int SquareAt(absl::string_view name) {
  if (name[0] < '1' || name[0] > '9' || name[1] < 'a' || name[1] > 'i') return -1;
  return MakeSquare(name[1] - 'a', '9' - name[0]);
}

// Refusals out of line and cold, so that the parsers' common paths stay dense.
[[gnu::cold, gnu::noinline]] absl::Status NotASquare(absl::string_view text) {
  return absl::InvalidArgumentError(
      absl::StrCat("\"", text, "\" is not a square (file 1-9 then rank a-i, e.g. 5e)"));
}

[[gnu::cold, gnu::noinline]] absl::Status NotAMove(absl::string_view text) {
  return absl::InvalidArgumentError(absl::StrCat(
      "\"", text, "\" is not a shogi4 move (board move like 7g7f or 7g7f+, drop like P*5e)"));
}

}  // namespace

absl::StatusOr<int> ParseSquare(absl::string_view text) {
  const int sq = text.size() == 2 ? SquareAt(text) : -1;
  if (sq < 0) return NotASquare(text);
  return sq;
}

std::string PieceName(int type) { return std::string(PieceNameView(type)); }

int WriteMoveText(Move m, char* out) {
  const char* to = kNameTable.square[MoveTo(m)];
  if (IsDrop(m)) {
    out[0] = kLetters[DropType(m)];
    out[1] = '*';
    out[2] = to[0];
    out[3] = to[1];
    return 4;
  }
  const char* from = kNameTable.square[MoveFrom(m)];
  out[0] = from[0];
  out[1] = from[1];
  out[2] = to[0];
  out[3] = to[1];
  out[4] = '+';
  return IsPromotion(m) ? 5 : 4;
}

std::string MoveText(Move m) {
  char text[kMaxMoveText];
  return std::string(text, WriteMoveText(m, text));
}

absl::StatusOr<Move> ParseMoveText(absl::string_view text) {
  if (text.size() == 4 && text[1] == '*') {
    const int type = LetterType(text[0]);
    const int to = SquareAt(text.substr(2));
    if (type == kNone || type == kKing || to < 0) return NotAMove(text);
    return MakeDrop(type, to);
  }
  if (text.size() != 4 && !(text.size() == 5 && text[4] == '+')) return NotAMove(text);
  const int from = SquareAt(text.substr(0, 2)), to = SquareAt(text.substr(2, 2));
  if (from < 0 || to < 0 || from == to) return NotAMove(text);
  return MakeBoardMove(from, to, text.size() == 5);
}

// Straight through a pointer: the text is short and bounded, so no check per character.
char* WritePosition(const Position& pos, char* p) {
  for (int r = 0; r < 9; ++r) {
    if (r > 0) *p++ = '/';
    int empty = 0;
    for (int c = 0; c < 9; ++c) {
      Cell cell = pos.board[MakeSquare(r, c)];
      if (cell == 0) {
        ++empty;
        continue;
      }
      if (empty > 0) *p++ = static_cast<char>('0' + empty);
      empty = 0;
      int type = TypeOf(cell), owner = OwnerOf(cell);
      if (type >= kProPawn) *p++ = '+';
      bool flipped = type == kKing && !pos.Alive(owner);
      *p++ = flipped ? 'k' : kLetters[type];
      *p++ = owner == kOwnerless ? 'x' : static_cast<char>('0' + owner);
      *p++ = kFacings[FacingOf(cell)];
    }
    if (empty > 0) *p++ = static_cast<char>('0' + empty);
  }
  *p++ = ' ';
  p = game::PutDecimal(p, static_cast<int>(pos.to_move));
  *p++ = ' ';
  for (int s = 0; s < kSeats; ++s) {
    if (s > 0) *p++ = '/';
    const char* start = p;
    for (int type : kHandOrder) {
      int n = pos.hand[s][HandIndex(type)];
      if (n == 0) continue;
      if (n > 1) p = game::PutDecimal(p, n);
      *p++ = kLetters[type];
    }
    if (p == start) *p++ = '-';
  }
  *p++ = ' ';
  if (pos.n_elim == 0) *p++ = '-';
  for (int i = 0; i < pos.n_elim; ++i) {
    if (i > 0) *p++ = ',';
    p = game::PutDecimal(p, static_cast<int>(pos.elim[i]));
    *p++ = ':';
    p = game::PutDecimal(p, static_cast<int>(pos.mated_by[pos.elim[i]]));
  }
  *p++ = ' ';
  return game::PutDecimal(p, static_cast<uint64_t>(pos.ply));
}

std::string PositionText(const Position& pos) {
  char text[kMaxPositionText];
  return std::string(text, WritePosition(pos, text));
}

[[gnu::cold]] absl::Status PlaceError(const Position& pos, int sq, int type, int owner) {
  if (type == kKing && owner == kOwnerless) return Bad("a king cannot be ownerless");
  if (type != kKing && owner != kOwnerless && !pos.Alive(owner)) {
    return Bad(absl::StrCat("a mated seat (", owner, ") owns only its flipped king"));
  }
  return Bad(absl::StrCat("unpromoted pawn on ", SquareName(sq), " can never move"));
}

absl::Status SetEnding(Position& pos) {
  const Rules& rules = pos.rules;
  // Endings implied by the mates and the move count.
  int left = __builtin_popcount(pos.alive);
  if (pos.n_elim > 0 && rules.format == Format::kPairs) {
    pos.over = EndReason::kPairsMate;
  } else if (left <= 1) {
    pos.over = EndReason::kLastOneStanding;
  } else if (rules.ending == Ending::kTwoMates && pos.n_elim >= 2 &&
             rules.format == Format::kSingles) {
    pos.over = EndReason::kTwoMates;
  } else if (rules.move_limit != 0 && pos.ply >= rules.move_limit) {
    pos.over = EndReason::kMoveLimit;
  }
  if (rules.format == Format::kPairs && pos.n_elim > 1) {
    return Bad("pairs games end at the first mate");
  }
  if (rules.format == Format::kSingles && rules.ending == Ending::kTwoMates && pos.n_elim > 2) {
    return Bad("this game ends at the second mate");
  }
  return absl::OkStatus();
}

absl::StatusOr<Position> ParsePosition(absl::string_view text, const Rules& rules) {
  if (text.size() > 2000) return Bad("text too long");
  std::vector<absl::string_view> fields = absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (fields.size() < 3 || fields.size() > 5) {
    return Bad("expected \"<board> <to-move> <hands> [<eliminated> [<ply>]]\"");
  }
  Position pos;
  pos.rules = rules;
  pos.alive = 0xF;
  int total = 0;

  // Eliminated seats first: the board's king letters are checked against them.
  if (fields.size() >= 4 && fields[3] != "-") {
    for (absl::string_view e : absl::StrSplit(fields[3], ',')) {
      if (e.size() != 3 || e[1] != ':' || e[0] < '0' || e[0] > '3' || e[2] < '0' || e[2] > '3') {
        return Bad(absl::StrCat("eliminated entry \"", e, "\" is not <seat>:<mater>"));
      }
      int seat = e[0] - '0', mater = e[2] - '0';
      if (!pos.Alive(seat)) return Bad(absl::StrCat("seat ", seat, " eliminated twice"));
      if (!pos.Alive(mater) || mater == seat) {
        return Bad(absl::StrCat("seat ", seat, " cannot be mated by seat ", mater));
      }
      if (pos.n_elim >= 3) return Bad("at most three seats can be eliminated");
      pos.alive &= static_cast<uint8_t>(~(1u << seat));
      pos.elim[pos.n_elim++] = static_cast<int8_t>(seat);
      pos.mated_by[seat] = static_cast<int8_t>(mater);
    }
  }

  std::vector<absl::string_view> ranks = absl::StrSplit(fields[0], '/');
  if (ranks.size() != 9) return Bad("the board needs 9 ranks separated by '/'");
  int kings[kSeats] = {0, 0, 0, 0};
  for (int r = 0; r < 9; ++r) {
    absl::string_view row = ranks[r];
    int c = 0;
    size_t i = 0;
    while (i < row.size()) {
      char ch = row[i];
      if (ch >= '1' && ch <= '9') {
        c += ch - '0';
        ++i;
        if (c > 9) break;
        continue;
      }
      bool promoted = ch == '+';
      if (promoted) ++i;
      if (i + 3 > row.size()) return Bad(absl::StrCat("truncated piece on rank ", r + 1));
      char letter = row[i], owner_ch = row[i + 1], facing_ch = row[i + 2];
      i += 3;
      bool flipped = letter == 'k';
      int type = flipped ? kKing : LetterType(letter);
      if (type == kNone)
        return Bad(absl::StrCat("unknown piece letter '", std::string(1, letter), "'"));
      if (promoted) {
        if (!CanPromote(type)) return Bad("only R, S and P can be promoted");
        type = kPromoted[type];
      }
      int owner = owner_ch == 'x' ? kOwnerless : owner_ch - '0';
      if (owner < 0 || owner > kOwnerless) return Bad("owner must be 0-3 or x");
      int facing = -1;
      for (int f = 0; f < 4; ++f) {
        if (facing_ch == kFacings[f]) facing = f;
      }
      if (facing < 0) return Bad("facing must be n, e, s or w");
      if (c >= 9) return Bad(absl::StrCat("rank ", r + 1, " has more than 9 squares"));
      int sq = MakeSquare(r, c++);
      if (type == kKing && owner != kOwnerless && flipped == pos.Alive(owner)) {
        return Bad(absl::StrCat("seat ", owner, "'s king must be ",
                                pos.Alive(owner) ? "K (seat is playing)" : "k (seat is mated)"));
      }
      if (absl::Status s = PlacePiece(pos, sq, type, owner, facing, kings); !s.ok()) return s;
      ++total;
    }
    if (c != 9)
      return Bad(absl::StrCat("rank ", std::string(1, static_cast<char>('a' + r)),
                              " does not have 9 squares"));
  }
  for (int s = 0; s < kSeats; ++s) {
    if (kings[s] != 1) return Bad(absl::StrCat("seat ", s, " needs exactly one king"));
  }

  if (fields[1].size() != 1 || fields[1][0] < '0' || fields[1][0] > '3') {
    return Bad("the seat to move must be 0-3");
  }
  pos.to_move = static_cast<int8_t>(fields[1][0] - '0');
  if (!pos.Alive(pos.to_move)) return Bad("the seat to move has been mated");

  std::vector<absl::string_view> hands = absl::StrSplit(fields[2], '/');
  if (hands.size() != 4) return Bad("hands: four seats separated by '/' ('-' = empty)");
  for (int s = 0; s < kSeats; ++s) {
    absl::string_view h = hands[s];
    if (h == "-") continue;
    if (h.empty()) return Bad("empty hand must be written '-'");
    size_t i = 0;
    while (i < h.size()) {
      int n = 0;
      size_t digits = 0;
      while (i < h.size() && h[i] >= '0' && h[i] <= '9' && digits < 3) {
        n = n * 10 + (h[i++] - '0');
        ++digits;
      }
      if (digits == 0) n = 1;
      if (n < 1 || n > 81 || (digits > 0 && n == 1) || i >= h.size()) {
        return Bad(absl::StrCat("bad hand \"", h, "\""));
      }
      int type = LetterType(h[i++]);
      if (type == kNone || type == kKing) return Bad(absl::StrCat("bad hand \"", h, "\""));
      if (!pos.Alive(s)) return Bad("a mated seat has an empty hand");
      if (pos.hand[s][HandIndex(type)] != 0) return Bad(absl::StrCat("bad hand \"", h, "\""));
      pos.hand[s][HandIndex(type)] = static_cast<uint8_t>(n);
      total += n;
    }
  }
  if (total > 120) return Bad("more than 120 pieces");

  if (fields.size() == 5) {
    uint32_t ply = 0;
    if (!absl::SimpleAtoi(fields[4], &ply) || ply > 1000000000u) return Bad("bad ply count");
    pos.ply = ply;
  }

  if (absl::Status s = SetEnding(pos); !s.ok()) return s;
  return pos;
}

}  // namespace tablero::shogi4
