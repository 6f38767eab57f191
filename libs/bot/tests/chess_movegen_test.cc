// The chess search's own move generation held to the engine's rules code (libs/chess
// GenerateLegal, the one source of legality) move for move on random positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "libs/bot/chess_captures.h"
#include "libs/chess/movegen.h"
#include "libs/chess/notation.h"

namespace tablero::bot {
namespace {

using chess::Move;
using chess::Position;

// What the quiescence search plays when not in check: the legal captures (en passant
// included; a capture that promotes only as a queen) and the legal queen promotions.
std::vector<uint16_t> EngineCaptures(const Position& pos) {
  std::vector<uint16_t> out;
  for (Move m : chess::MoveList(pos)) {
    const bool promo = m.kind() == Move::kPromotion;
    if (promo && m.promotion() != chess::kQueen) continue;
    if (pos.IsCapture(m) || promo) out.push_back(m.raw());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// GenerateCaptures filtered by LeavesKingSafe, as the search does.
std::vector<uint16_t> SearchCaptures(const Position& pos) {
  Move moves[chess::kMaxMoves];
  const int n = GenerateCaptures(pos, moves);
  std::vector<uint16_t> out;
  for (int i = 0; i < n; ++i) {
    Position next = pos;
    next.DoMove(moves[i]);
    if (LeavesKingSafe(next, pos.side_to_move())) out.push_back(moves[i].raw());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ChessMovegen, CapturesAgreeWithTheEngineOnRandomPlayouts) {
  std::mt19937_64 rng(27);
  int checked = 0, with_captures = 0;
  for (int game = 0; game < 300; ++game) {
    Position pos = Position::StartPosition();
    for (int ply = 0; ply < 200; ++ply) {
      chess::MoveList legal(pos);
      if (legal.size == 0) break;
      if (!pos.InCheck()) {
        const auto expected = EngineCaptures(pos);
        ASSERT_EQ(SearchCaptures(pos), expected) << pos.Fen();
        ++checked;
        with_captures += !expected.empty();
      }
      // Prefer captures a little so that endings with promotions are reached too.
      Move m = legal.moves[rng() % legal.size];
      for (int t = 0; t < 2 && !pos.IsCapture(m); ++t) m = legal.moves[rng() % legal.size];
      pos.DoMove(m);
    }
  }
  EXPECT_GT(checked, 20000);
  EXPECT_GT(with_captures, 5000);
}

TEST(ChessMovegen, CapturesAgreeOnHandPickedEdgeCases) {
  for (const char* fen : {// en passant that would expose the king along the rank
                          "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
                          // pinned pawn that may capture the pinner, promotions by push and capture
                          "4k3/1P6/8/8/8/2b5/3P4/4K3 w - - 0 1", "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
                          // the king may not take a defended knight
                          "4k3/8/8/8/8/3r4/3n4/4K3 w - - 0 1"}) {
    auto pos = Position::ParseFen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    ASSERT_FALSE(pos->InCheck()) << fen;
    EXPECT_EQ(SearchCaptures(*pos), EngineCaptures(*pos)) << fen;
  }
}

}  // namespace
}  // namespace tablero::bot
