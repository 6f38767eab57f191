// FEN in and out. The parser is strict (the text may come from a client) but accepts the
// two trailing counters being absent, as many tools write four-field FENs.
#include <bit>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/chess/movegen.h"
#include "libs/chess/position.h"

namespace tablero::chess {
namespace {

constexpr absl::string_view kPieceChars = "PNBRQKpnbrqk";

[[gnu::cold]] absl::Status Bad(absl::string_view fen, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("FEN \"", fen.substr(0, 100), "\": ", why));
}

}  // namespace

const char* Position::Problem() const {
  for (Color c : {kWhite, kBlack}) {
    const bool w = c == kWhite;
    const Bitboard king = pieces(c, kKing);
    if (!king || MoreThanOne(king)) return w ? "White needs one king" : "Black needs one king";
    if (Popcount(pieces(c)) > 16)
      return w ? "White has over 16 pieces" : "Black has over 16 pieces";
    if (Popcount(pieces(c, kPawn)) > 8)
      return w ? "White has over 8 pawns" : "Black has over 8 pawns";
  }
  if (pieces(kPawn) & (Rank(0) | Rank(7))) return "pawn on the first or last rank";
  struct Need {
    uint8_t right;
    Square king, rook;
    Piece k, r;
  };
  const Need needs[] = {{kWhiteOO, 4, 7, MakePiece(kWhite, kKing), MakePiece(kWhite, kRook)},
                        {kWhiteOOO, 4, 0, MakePiece(kWhite, kKing), MakePiece(kWhite, kRook)},
                        {kBlackOO, 60, 63, MakePiece(kBlack, kKing), MakePiece(kBlack, kRook)},
                        {kBlackOOO, 60, 56, MakePiece(kBlack, kKing), MakePiece(kBlack, kRook)}};
  for (const Need& n : needs) {
    if ((castling_ & n.right) && (board_[n.king] != n.k || board_[n.rook] != n.r))
      return "castling right without king and rook on their home squares";
  }
  const Color us = side_, them = ~us;
  if (ep_ != kNoSquare) {
    const int up = us == kWhite ? 8 : -8;
    if (ep_ > 63 || RelativeRank(us, ep_) != 5 || board_[ep_ - up] != MakePiece(them, kPawn) ||
        board_[ep_] != kNoPiece || board_[ep_ + up] != kNoPiece ||
        !(PawnAttacks(them, ep_) & pieces(us, kPawn)))
      return "en passant square without a pawn that just made a double step";
  }
  if (AttackersTo(king_square(them), pieces()) & pieces(us))
    return "the side not to move is in check";
  return nullptr;
}

absl::StatusOr<Position> Position::ParseFen(absl::string_view fen) {
  Position pos;
  if (fen.size() > 200) return Bad(fen, "too long");
  std::vector<absl::string_view> f = absl::StrSplit(fen, ' ', absl::SkipEmpty());
  if (f.size() != 4 && f.size() != 6) return Bad(fen, "expected 6 space-separated fields");

  // Placement, from rank 8 down to rank 1.
  std::vector<absl::string_view> ranks = absl::StrSplit(f[0], '/');
  if (ranks.size() != 8) return Bad(fen, "placement needs 8 ranks separated by '/'");
  for (int r = 0; r < 8; ++r) {
    int file = 0;
    bool last_digit = false;
    for (char c : ranks[r]) {
      if (c >= '1' && c <= '8') {
        if (last_digit) return Bad(fen, "two digits in a row in a rank");
        file += c - '0';
        last_digit = true;
      } else {
        size_t k = kPieceChars.find(c);
        if (k == absl::string_view::npos) {
          return Bad(fen, absl::StrCat("unknown piece character '", std::string(1, c), "'"));
        }
        if (file >= 8) return Bad(fen, absl::StrCat("rank ", 8 - r, " has more than 8 squares"));
        pos.Put(MakePiece(Color(k / 6), PieceType(k % 6)), MakeSquare(file, 7 - r));
        ++file;
        last_digit = false;
      }
      if (file > 8) return Bad(fen, absl::StrCat("rank ", 8 - r, " has more than 8 squares"));
    }
    if (file != 8) return Bad(fen, absl::StrCat("rank ", 8 - r, " does not have 8 squares"));
  }
  if (f[1] == "w") {
    pos.side_ = kWhite;
  } else if (f[1] == "b") {
    pos.side_ = kBlack;
  } else {
    return Bad(fen, "side to move must be w or b");
  }

  if (f[2] != "-") {
    if (f[2].size() > 4) return Bad(fen, "bad castling field");
    for (char c : f[2]) {
      uint8_t right = c == 'K'   ? kWhiteOO
                      : c == 'Q' ? kWhiteOOO
                      : c == 'k' ? kBlackOO
                      : c == 'q' ? kBlackOOO
                                 : 0;
      if (!right || (pos.castling_ & right)) return Bad(fen, "bad castling field");
      pos.castling_ |= right;
    }
  }

  if (f[3] != "-") {
    const absl::string_view e = f[3];
    if (e.size() != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8') {
      return Bad(fen, "bad en passant square");
    }
    const Square ep = MakeSquare(e[0] - 'a', e[1] - '1');
    const Color us = pos.side_, them = ~us;
    const int up = us == kWhite ? 8 : -8;
    if (RelativeRank(us, ep) != 5 || pos.board_[ep - up] != MakePiece(them, kPawn) ||
        pos.board_[ep] != kNoPiece || pos.board_[ep + up] != kNoPiece) {
      return Bad(fen, "en passant square without a pawn that just made a double step");
    }
    // Kept only when an enemy pawn could capture, as DoMove does.
    if (PawnAttacks(them, ep) & pos.pieces(us, kPawn)) pos.ep_ = uint8_t(ep);
  }

  if (f.size() == 6) {
    int half = 0, full = 0;
    if (!absl::SimpleAtoi(f[4], &half) || half < 0 || half > 10000) {
      return Bad(fen, "halfmove clock must be an integer from 0 to 10000");
    }
    if (!absl::SimpleAtoi(f[5], &full) || full < 1 || full > 10000) {
      return Bad(fen, "fullmove number must be an integer from 1 to 10000");
    }
    pos.halfmove_ = uint16_t(half);
    pos.fullmove_ = uint16_t(full);
  }

  if (const char* why = pos.Problem()) return Bad(fen, why);
  pos.key_ = pos.ComputeKey();
  return pos;
}

namespace {

// Writes v in decimal at t; returns the end.
char* PutNumber(char* t, unsigned v) {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *t++ = digits[--n];
  return t;
}

}  // namespace

std::string Position::Fen() const {
  std::string s;
  Fen(&s);
  return s;
}

void Position::Fen(std::string* out) const {
  // At most 64 + 7 characters of placement and 23 of the other fields: no room checks.
  char buf[96];
  char* t = buf;
  for (int r = 7; r >= 0; --r) {
    int file = 0;  // the next square to write
    for (unsigned row = unsigned(pieces() >> (8 * r)) & 255; row; row &= row - 1) {
      const int f = std::countr_zero(row);
      if (f > file) *t++ = char('0' + f - file);
      *t++ = kPieceChars[board_[MakeSquare(f, r)]];
      file = f + 1;
    }
    if (file < 8) *t++ = char('0' + 8 - file);
    *t++ = r ? '/' : ' ';
  }
  *t++ = side_ == kWhite ? 'w' : 'b';
  *t++ = ' ';
  if (!castling_) *t++ = '-';
  for (int i = 0; i < 4; ++i)
    if (castling_ & (1 << i)) *t++ = "KQkq"[i];  // kWhiteOO, kWhiteOOO, kBlackOO, kBlackOOO
  *t++ = ' ';
  if (HasLegalEnPassant(*this)) {
    *t++ = char('a' + FileOf(ep_));
    *t++ = char('1' + RankOf(ep_));
  } else {
    *t++ = '-';
  }
  *t++ = ' ';
  t = PutNumber(t, halfmove_);
  *t++ = ' ';
  t = PutNumber(t, fullmove_);
  out->assign(buf, size_t(t - buf));
}

}  // namespace tablero::chess
