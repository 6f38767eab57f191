// The partial generators against GenerateLegal on every position of shallow trees from
// the perft positions (checks, pins, en passant, castling, promotions): GenerateLegalTo
// lists exactly the full list's moves to the square; HasLegalMove and
// HasLegalEnPassant agree with the full list. The rules service decides legality and the
// endings with them, on positions a client sent.
#include <algorithm>

#include "gtest/gtest.h"
#include "libs/chess/movegen.h"
#include "libs/chess/position.h"

namespace tablero::chess {
namespace {

constexpr const char* kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",    // en passant exposes the king along the rank
    "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",   // the same for Black
    "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",   // a pinned pawn
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",      // stalemate
    "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",    // smothered mate
    "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",  // castling out of check
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
};

void Check(const Position& pos, int depth) {
  Move all[kMaxMoves];
  const int n = GenerateLegal(pos, all);
  ASSERT_EQ(HasLegalMove(pos), n > 0) << pos.Fen();
  bool ep = false;
  for (int i = 0; i < n; ++i) ep |= all[i].kind() == Move::kEnPassant;
  ASSERT_EQ(HasLegalEnPassant(pos), ep) << pos.Fen();
  for (Square to = 0; to < 64; ++to) {
    Move want[kMaxMoves], got[64];
    int w = 0;
    for (int i = 0; i < n; ++i)
      if (all[i].to() == to) want[w++] = all[i];
    const int k = GenerateLegalTo(pos, to, got);
    auto by_raw = [](Move a, Move b) { return a.raw() < b.raw(); };
    std::sort(want, want + w, by_raw);
    std::sort(got, got + k, by_raw);
    ASSERT_TRUE(k == w && std::equal(got, got + k, want)) << pos.Fen() << " to " << to;
  }
  if (depth == 0) return;
  for (int i = 0; i < n; ++i) {
    Position next = pos;
    next.DoMove(all[i]);
    Check(next, depth - 1);
  }
}

TEST(MovegenToTest, MatchesTheFullList) {
  for (const char* fen : kFens) {
    auto pos = Position::ParseFen(fen);
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.status();
    Check(*pos, 3);
  }
}

}  // namespace
}  // namespace tablero::chess
