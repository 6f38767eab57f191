#include "libs/bot/chess_eval_params.h"

#include <cstdlib>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tablero::bot {

namespace {

namespace ix = eval_index;

constexpr EvalScore S(int mg, int eg) { return EvalScore{mg, eg}; }

// Distance from the centre: 0 on d4/e4/d5/e5, 3 on the rim.
constexpr int CenterDist(int f, int r) {
  const int df = f < 4 ? 3 - f : f - 4;
  const int dr = r < 4 ? 3 - r : r - 4;
  return df > dr ? df : dr;
}

// The handcrafted table: pawns gain by advancing (more in the centre), minor pieces and the
// queen by being central, rooks on the seventh, the king hides in a corner in the
// middlegame and walks to the centre in the endgame.
ChessEvalParams MakeHandcrafted() {
  ChessEvalParams p;
  const EvalScore material[6] = {S(90, 120),  S(320, 300),  S(335, 315),
                                 S(480, 540), S(960, 1000), S(0, 0)};
  for (int t = 0; t < 6; ++t) p[ix::kMaterial + t] = material[t];
  constexpr int kKingFile[8] = {15, 25, 10, -5, -5, 5, 25, 15};
  constexpr int kPawn = 0, kKnight = 1, kBishop = 2, kRook = 3, kQueen = 4, kKing = 5;
  auto pst = [&](int t, int s) -> EvalScore& { return p[ix::kPst + t * 64 + s]; };
  for (int s = 0; s < 64; ++s) {
    const int f = s & 7, r = s >> 3, cd = CenterDist(f, r);
    const bool center_file = f == 3 || f == 4;
    pst(kPawn, s) = S(r >= 1 && r <= 6 ? (r - 1) * (center_file ? 8 : 3) : 0,
                      r >= 1 && r <= 6 ? (r - 1) * 8 : 0);
    if (center_file && r == 1) pst(kPawn, s).mg -= 10;  // get the centre pawns moving
    pst(kKnight, s) = S(20 - 12 * cd + (r == 0 ? -10 : 0), 15 - 10 * cd);
    pst(kBishop, s) = S(10 - 5 * cd + (r == 0 ? -8 : 0), 10 - 5 * cd);
    pst(kRook, s) = S(r == 6 ? 20 : (center_file && r == 0 ? 5 : 0), r == 6 ? 10 : 0);
    pst(kQueen, s) = S(5 - 3 * cd + (r == 0 ? -2 : 0), 10 - 5 * cd);
    pst(kKing, s) = S(r == 0 ? kKingFile[f] : -20 * r, 30 - 12 * cd);
  }
  const EvalScore mobility[6] = {S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)};
  for (int t = 0; t < 6; ++t) p[ix::kMobility + t] = mobility[t];
  const EvalScore passed[8] = {S(0, 0),   S(5, 10),   S(8, 18),   S(15, 35),
                               S(30, 60), S(50, 100), S(80, 150), S(0, 0)};
  for (int r = 0; r < 8; ++r) {
    p[ix::kPassed + r] = passed[r];
    p[ix::kPassedBlocked + r] = S(passed[r].mg / 2, passed[r].eg / 2);
  }
  p[ix::kKingPasser] = S(0, 5);
  p[ix::kDoubled] = S(-10, -20);
  p[ix::kIsolated] = S(-10, -15);
  p[ix::kConnected] = S(4, 3);
  p[ix::kBishopPair] = S(30, 50);
  p[ix::kRookOpen] = S(25, 10);
  p[ix::kRookSemiOpen] = S(12, 6);
  p[ix::kThreatByPawn] = S(-45, -35);
  p[ix::kThreatByMinor] = S(-30, -25);
  p[ix::kThreatByRook] = S(-30, -25);
  p[ix::kOutpost] = S(25, 15);
  p[ix::kOutpost + 1] = S(12, 6);
  p[ix::kShieldMissing] = S(-15, 0);
  p[ix::kShieldNear] = S(15, 0);
  p[ix::kShieldFar] = S(8, 0);
  p[ix::kTempo] = S(10, 10);
  return p;
}

constexpr char kTunedText[] =
#include "libs/bot/chess_eval_tuned.inc"
    ;

constexpr const char* kPieceNames[6] = {"pawn", "knight", "bishop", "rook", "queen", "king"};

}  // namespace

const ChessEvalParams& HandcraftedChessEvalParams() {
  static const ChessEvalParams p = MakeHandcrafted();
  return p;
}

const ChessEvalParams& TunedChessEvalParams() {
  static const ChessEvalParams p = [] {
    auto parsed = ParseChessEvalParams(kTunedText);
    if (!parsed.ok()) std::abort();  // the shipped table is checked by bot_lib_test
    return *parsed;
  }();
  return p;
}

std::string ChessEvalParamName(int i) {
  auto in = [&](int at, int n) { return i >= at && i < at + n; };
  if (in(ix::kMaterial, 6)) return absl::StrCat("material.", kPieceNames[i - ix::kMaterial]);
  if (in(ix::kPst, 6 * 64)) {
    const int t = (i - ix::kPst) / 64, s = (i - ix::kPst) % 64;
    return absl::StrCat("pst.", kPieceNames[t], ".", std::string(1, char('a' + s % 8)), s / 8 + 1);
  }
  if (in(ix::kMobility, 6)) return absl::StrCat("mobility.", kPieceNames[i - ix::kMobility]);
  if (in(ix::kPassed, 8)) return absl::StrCat("passed.", i - ix::kPassed);
  if (in(ix::kPassedBlocked, 8)) return absl::StrCat("passed_blocked.", i - ix::kPassedBlocked);
  if (in(ix::kOutpost, 2)) return i == ix::kOutpost ? "outpost.knight" : "outpost.bishop";
  for (int t = 1; t <= 4; ++t) {
    if (in(ix::kMobilityCount + ix::kMobilityCountAt[t], ix::kMobilityCountSize[t]))
      return absl::StrCat("mobility_count.", kPieceNames[t], ".",
                          i - ix::kMobilityCount - ix::kMobilityCountAt[t]);
  }
  if (in(ix::kKingZoneAttack, 4))
    return absl::StrCat("king_zone_attack.", kPieceNames[i - ix::kKingZoneAttack + 1]);
  if (in(ix::kSafeCheck, 4))
    return absl::StrCat("safe_check.", kPieceNames[i - ix::kSafeCheck + 1]);
  if (in(ix::kPassedFree, 8)) return absl::StrCat("passed_free.", i - ix::kPassedFree);
  if (in(ix::kKingAttackers, 4)) return absl::StrCat("king_attackers.", i - ix::kKingAttackers + 1);
  switch (i) {
    case ix::kKingPasser:
      return "king_passer";
    case ix::kDoubled:
      return "doubled";
    case ix::kIsolated:
      return "isolated";
    case ix::kConnected:
      return "connected";
    case ix::kBishopPair:
      return "bishop_pair";
    case ix::kRookOpen:
      return "rook_open";
    case ix::kRookSemiOpen:
      return "rook_semi_open";
    case ix::kThreatByPawn:
      return "threat_by_pawn";
    case ix::kThreatByMinor:
      return "threat_by_minor";
    case ix::kThreatByRook:
      return "threat_by_rook";
    case ix::kShieldMissing:
      return "shield_missing";
    case ix::kShieldNear:
      return "shield_near";
    case ix::kShieldFar:
      return "shield_far";
    case ix::kTempo:
      return "tempo";
    case ix::kHanging:
      return "hanging";
    case ix::kBadBishop:
      return "bad_bishop";
    case ix::kWeakKingSquares:
      return "weak_king_squares";
    case ix::kPawnPushThreat:
      return "pawn_push_threat";
    case ix::kBackward:
      return "backward";
    case ix::kKingPawnDistance:
      return "king_pawn_distance";
    case ix::kSpace:
      return "space";
  }
  return absl::StrCat("unknown.", i);
}

std::string FormatChessEvalParams(const ChessEvalParams& params) {
  std::string out;
  for (int i = 0; i < ix::kCount; ++i)
    absl::StrAppend(&out, ChessEvalParamName(i), " ", params[i].mg, " ", params[i].eg, "\n");
  return out;
}

absl::StatusOr<ChessEvalParams> ParseChessEvalParams(absl::string_view text) {
  ChessEvalParams p;
  int i = 0;  // the lines come in index order
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipWhitespace())) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (f.size() != 3) return absl::InvalidArgumentError(absl::StrCat("bad line: ", line));
    if (i >= ix::kCount || f[0] != ChessEvalParamName(i))
      return absl::InvalidArgumentError(absl::StrCat("unexpected weight ", f[0], " at line ", i + 1,
                                                     " (want ", ChessEvalParamName(i), ")"));
    if (!absl::SimpleAtoi(f[1], &p[i].mg) || !absl::SimpleAtoi(f[2], &p[i].eg))
      return absl::InvalidArgumentError(absl::StrCat("bad numbers: ", line));
    ++i;
  }
  if (i != ix::kCount)
    return absl::InvalidArgumentError(absl::StrCat("got ", i, " weights, want ", int(ix::kCount)));
  return p;
}

}  // namespace tablero::bot
