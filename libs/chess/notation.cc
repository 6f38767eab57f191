// UCI and SAN, both directions.
#include "libs/chess/notation.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "libs/chess/movegen.h"

namespace tablero::chess {
namespace {

constexpr char kPieceLetter[] = "PNBRQK";

[[gnu::cold]] absl::Status Malformed(absl::string_view what, absl::string_view text,
                                     absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat(what, " \"", text.substr(0, 40), "\" is malformed: ", why));
}

[[gnu::cold]] absl::Status Illegal(absl::string_view text, absl::string_view why) {
  return absl::FailedPreconditionError(absl::StrCat("move ", text.substr(0, 40), " ", why));
}

int PromotionFromChar(char c) {
  switch (c) {
    case 'q':
    case 'Q':
      return kQueen;
    case 'r':
    case 'R':
      return kRook;
    case 'b':
    case 'B':
      return kBishop;
    case 'n':
    case 'N':
      return kKnight;
    default:
      return -1;
  }
}

bool IsCapture(const Position& pos, Move m) {
  return m.kind() == Move::kEnPassant ||
         (m.kind() != Move::kCastling && pos.piece_on(m.to()) != kNoPiece);
}

bool IsSquare(absl::string_view t) {
  return t.size() == 2 && t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8';
}

}  // namespace

std::string SquareName(Square s) { return std::string(SquareNameView(s)); }

absl::StatusOr<Square> ParseSquare(absl::string_view text) {
  if (!IsSquare(text)) return Malformed("square", text, "expected a1..h8");
  return MakeSquare(text[0] - 'a', text[1] - '1');
}

std::string ToUci(Move m) {
  const char t[5] = {detail::kSquareNames.name[m.from()][0], detail::kSquareNames.name[m.from()][1],
                     detail::kSquareNames.name[m.to()][0], detail::kSquareNames.name[m.to()][1],
                     "nbrq"[m.promotion() - kKnight]};
  return std::string(t, m.kind() == Move::kPromotion ? 5 : 4);
}

absl::StatusOr<Move> ParseUci(const Position& pos, absl::string_view text) {
  return ParseUci(pos, MoveList(pos), text);
}

namespace {

// A move text read on its own, before the position's moves are looked at: the parsers
// below read it, find its destination, then match it against the legal moves to that
// square (no other legal move can match it).
struct Query {
  bool uci = false;
  bool castling = false, king_side = false;  // SAN castling
  PieceType pt = kPawn;                      // SAN: the piece named
  int promo = -1;
  Square from = 0, to = 0;   // UCI: both; SAN: to (castling: none)
  int file = -1, rank = -1;  // SAN disambiguation
};

absl::StatusOr<Query> ReadUci(absl::string_view text) {
  if (text.size() != 4 && text.size() != 5) return Malformed("UCI move", text, "wrong length");
  if (!IsSquare(text.substr(0, 2)) || !IsSquare(text.substr(2, 2))) {
    return Malformed("UCI move", text, "expected two squares like e2e4");
  }
  Query q;
  q.uci = true;
  if (text.size() == 5) {
    q.promo = PromotionFromChar(text[4]);
    if (q.promo < 0) return Malformed("UCI move", text, "promotion must be q, r, b or n");
  }
  q.from = MakeSquare(text[0] - 'a', text[1] - '1');
  q.to = MakeSquare(text[2] - 'a', text[3] - '1');
  return q;
}

absl::StatusOr<Query> ReadSan(absl::string_view text) {
  absl::string_view t = text;
  if (t.empty() || t.size() > 12) return Malformed("SAN move", text, "wrong length");
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?'))
    t.remove_suffix(1);
  Query q;
  if (t == "O-O" || t == "0-0" || t == "O-O-O" || t == "0-0-0") {
    q.castling = true;
    q.king_side = t.size() == 3;
    return q;
  }
  if (!t.empty() && t[0] != 'P' && std::string_view("NBRQK").find(t[0]) != std::string_view::npos) {
    q.pt = PieceType(std::string_view("PNBRQK").find(t[0]));
    t.remove_prefix(1);
  }
  if (t.size() >= 2 && t[t.size() - 2] == '=') {
    q.promo = PromotionFromChar(t.back());
    if (q.promo < 0) return Malformed("SAN move", text, "promotion must be Q, R, B or N");
    t.remove_suffix(2);
  } else if (q.pt == kPawn && !t.empty() &&
             std::string_view("QRBN").find(t.back()) != std::string_view::npos) {
    q.promo = PromotionFromChar(t.back());
    t.remove_suffix(1);
  }
  if (q.promo >= 0 && q.pt != kPawn) return Malformed("SAN move", text, "only pawns promote");
  if (t.size() < 2 || !IsSquare(t.substr(t.size() - 2))) {
    return Malformed("SAN move", text, "no destination square");
  }
  q.to = MakeSquare(t[t.size() - 2] - 'a', t[t.size() - 1] - '1');
  t.remove_suffix(2);
  if (!t.empty() && (t.back() == 'x' || t.back() == ':')) t.remove_suffix(1);
  if (!t.empty() && t[0] >= 'a' && t[0] <= 'h') {
    q.file = t[0] - 'a';
    t.remove_prefix(1);
  }
  if (!t.empty() && t[0] >= '1' && t[0] <= '8') {
    q.rank = t[0] - '1';
    t.remove_prefix(1);
  }
  if (!t.empty()) return Malformed("SAN move", text, "unexpected characters");
  if (q.pt == kPawn && q.rank >= 0)
    return Malformed("SAN move", text, "pawn moves name a file only");
  return q;
}

// The square every legal move matching `q` goes to in `pos` (castling: the king's).
Square Destination(const Position& pos, const Query& q) {
  if (!q.castling) return q.to;
  const Square home = pos.side_to_move() == kWhite ? 4 : 60;
  return q.king_side ? home + 2 : home - 2;
}

absl::StatusOr<Move> MatchUci(const MoveList& legal, const Query& q, absl::string_view text) {
  bool needs_promotion = false;
  for (Move m : legal) {
    if (m.from() != q.from || m.to() != q.to) continue;
    if (m.kind() == Move::kPromotion) {
      if (m.promotion() == q.promo) return m;
      needs_promotion = true;
    } else if (q.promo < 0) {
      return m;
    }
  }
  if (needs_promotion && q.promo < 0) return Illegal(text, "needs a promotion piece (q, r, b, n)");
  return Illegal(text, "is not legal in this position");
}

absl::StatusOr<Move> MatchSan(const Position& pos, const MoveList& legal, const Query& q,
                              absl::string_view text) {
  if (q.castling) {
    for (Move m : legal) {
      if (m.kind() == Move::kCastling && (m.to() > m.from()) == q.king_side) return m;
    }
    return Illegal(text, "(castling) is not legal in this position");
  }
  Move found;
  int matches = 0;
  bool needs_promotion = false;
  for (Move m : legal) {
    if (m.to() != q.to || m.kind() == Move::kCastling) continue;
    if (TypeOf(pos.piece_on(m.from())) != q.pt) continue;
    if (q.file >= 0 && FileOf(m.from()) != q.file) continue;
    // A pawn move without a file is a push: "e4" never means "dxe4".
    if (q.pt == kPawn && q.file < 0 && FileOf(m.from()) != FileOf(q.to)) continue;
    if (q.rank >= 0 && RankOf(m.from()) != q.rank) continue;
    if (m.kind() == Move::kPromotion) {
      if (q.promo < 0) needs_promotion = true;
      if (m.promotion() != q.promo) continue;
    } else if (q.promo >= 0) {
      continue;
    }
    found = m;
    ++matches;
  }
  if (matches == 1) return found;
  if (matches > 1) return Illegal(text, "is ambiguous (name the file or rank of the piece)");
  if (needs_promotion) return Illegal(text, "needs a promotion piece (=Q, =R, =B, =N)");
  return Illegal(text, "is not legal in this position");
}

absl::StatusOr<Move> Match(const Position& pos, const MoveList& legal, const Query& q,
                           absl::string_view text) {
  return q.uci ? MatchUci(legal, q, text) : MatchSan(pos, legal, q, text);
}

// Whether ParseMoveText reads `t` (stripped) as UCI.
bool LooksUci(absl::string_view t) {
  return (t.size() == 4 || t.size() == 5) && IsSquare(t.substr(0, 2)) && IsSquare(t.substr(2, 2));
}

}  // namespace

absl::StatusOr<Move> ParseUci(const Position& /*pos*/, const MoveList& legal,
                              absl::string_view text) {
  auto q = ReadUci(text);
  if (!q.ok()) return q.status();
  return MatchUci(legal, *q, text);
}

char CheckSuffix(const Position& pos, Move m) {
  Position next = pos;
  next.DoMove(m);
  if (!next.InCheck()) return 0;
  return HasLegalMove(next) ? '+' : '#';
}

std::string ToSan(const Position& pos, Move m) {
  const PieceType pt = TypeOf(pos.piece_on(m.from()));
  const bool named = m.kind() != Move::kCastling && pt != kPawn && pt != kKing;
  // The legal moves are needed only to name a piece's move without ambiguity.
  return named ? ToSan(pos, m, MoveList(pos, m.to()), CheckSuffix(pos, m))
               : ToSan(pos, m, MoveList(), CheckSuffix(pos, m));
}

std::string ToSan(const Position& pos, Move m, const MoveList& legal, char suffix) {
  // Written into a buffer, then one string (at most 7 characters: "exd8=Q+", "Qh4xe1#").
  char buf[16];
  char* p = buf;
  const Square from = m.from(), to = m.to();
  const PieceType pt = TypeOf(pos.piece_on(from));
  if (m.kind() == Move::kCastling) {
    const absl::string_view castle = to > from ? "O-O" : "O-O-O";
    p = std::copy(castle.begin(), castle.end(), p);
  } else if (pt == kPawn) {
    if (IsCapture(pos, m)) {
      *p++ = char('a' + FileOf(from));
      *p++ = 'x';
    }
    *p++ = detail::kSquareNames.name[to][0];
    *p++ = detail::kSquareNames.name[to][1];
    if (m.kind() == Move::kPromotion) {
      *p++ = '=';
      *p++ = kPieceLetter[m.promotion()];
    }
  } else {
    *p++ = kPieceLetter[pt];
    if (pt != kKing) {
      bool clash = false, same_file = false, same_rank = false;
      for (Move o : legal) {
        if (o.to() != to || o.from() == from || TypeOf(pos.piece_on(o.from())) != pt) continue;
        clash = true;
        same_file |= FileOf(o.from()) == FileOf(from);
        same_rank |= RankOf(o.from()) == RankOf(from);
      }
      if (clash) {
        if (!same_file) {
          *p++ = char('a' + FileOf(from));
        } else if (!same_rank) {
          *p++ = char('1' + RankOf(from));
        } else {
          *p++ = detail::kSquareNames.name[from][0];
          *p++ = detail::kSquareNames.name[from][1];
        }
      }
    }
    if (IsCapture(pos, m)) *p++ = 'x';
    *p++ = detail::kSquareNames.name[to][0];
    *p++ = detail::kSquareNames.name[to][1];
  }
  if (suffix) *p++ = suffix;
  return std::string(buf, size_t(p - buf));
}

absl::StatusOr<Move> ParseSan(const Position& pos, absl::string_view text) {
  return ParseSan(pos, MoveList(pos), text);
}

absl::StatusOr<Move> ParseSan(const Position& pos, const MoveList& legal, absl::string_view text) {
  auto q = ReadSan(text);
  if (!q.ok()) return q.status();
  return MatchSan(pos, legal, *q, text);
}

absl::StatusOr<Move> ParseMoveText(const Position& pos, absl::string_view text) {
  MoveList to;
  return ParseMoveText(pos, text, &to);
}

absl::StatusOr<Move> ParseMoveText(const Position& pos, absl::string_view text, MoveList* to) {
  const absl::string_view t = absl::StripAsciiWhitespace(text);
  if (t.empty()) return absl::InvalidArgumentError("empty move text");
  auto q = LooksUci(t) ? ReadUci(t) : ReadSan(t);
  if (!q.ok()) return q.status();
  to->size = GenerateLegalTo(pos, Destination(pos, *q), to->moves);
  return Match(pos, *to, *q, t);
}

absl::StatusOr<Move> ParseMoveText(const Position& pos, const MoveList& legal,
                                   absl::string_view text) {
  const absl::string_view t = absl::StripAsciiWhitespace(text);
  if (t.empty()) return absl::InvalidArgumentError("empty move text");
  auto q = LooksUci(t) ? ReadUci(t) : ReadSan(t);
  if (!q.ok()) return q.status();
  return Match(pos, legal, *q, t);
}

}  // namespace tablero::chess
