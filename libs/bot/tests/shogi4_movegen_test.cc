// The four-player shogi search's own pieces of rules work held to the engine on random
// playouts of every rule variant: its capture generation (shogi4::GenerateCaptures, used by
// the quiescence search for the seat to move and for every rival under best-reply) move for
// move and in order against GenerateLegal, for every seat still playing; its attack test
// (bot::Shogi4Attacked) against shogi4::Attacked on every square for every attacker set.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "libs/bot/shogi4_attacks.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/position.h"

namespace tablero::shogi4 {
namespace {

// GenerateLegal's board moves onto an occupied square, in its order.
std::vector<Move> CapturesOfLegal(const Position& pos, int seat) {
  static MoveList list;
  list.size = 0;
  GenerateLegal(pos, seat, &list);
  std::vector<Move> out;
  for (Move m : list)
    if (!IsDrop(m) && pos.board[MoveTo(m)] != 0) out.push_back(m);
  return out;
}

std::vector<Move> Captures(const Position& pos, int seat) {
  static MoveList list;
  list.size = 0;
  GenerateCaptures(pos, seat, &list);
  return std::vector<Move>(list.begin(), list.end());
}

TEST(Shogi4Movegen, CapturesAgreeWithTheEngineOnRandomPlayouts) {
  std::mt19937_64 rng(27);
  static MoveList legal;
  int checked = 0, with_captures = 0, mates = 0, in_check = 0, attack_tests = 0;
  for (int variant = 0; variant < 8; ++variant) {
    Rules rules;
    rules.format = variant & 1 ? Format::kPairs : Format::kSingles;
    rules.ending = variant & 2 ? Ending::kLastOneStanding : Ending::kTwoMates;
    rules.ownerless = variant & 4;
    rules.pawn_before_flipped = (variant >> 1) & 1;
    for (int game = 0; game < 12; ++game) {
      Position pos = StartPosition(rules, game & 3);
      for (int ply = 0; ply < 400 && pos.over == EndReason::kNone; ++ply) {
        for (int seat = 0; seat < kSeats; ++seat) {
          if (!pos.Alive(seat)) continue;
          const std::vector<Move> expected = CapturesOfLegal(pos, seat);
          ASSERT_EQ(Captures(pos, seat), expected) << "variant " << variant << " ply " << ply;
          ++checked;
          with_captures += !expected.empty();
          in_check += InCheck(pos, seat);
        }
        // The search's attack test against the engine's, on every square for every set
        // of attacking seats (every eighth position: thousands in all).
        for (int sq = 0; sq < kSquares && ply % 8 == 0; ++sq) {
          for (unsigned by = 1; by < 16; ++by) {
            ASSERT_EQ(bot::Shogi4Attacked(pos, sq, by), Attacked(pos.board, sq, by))
                << "variant " << variant << " ply " << ply << " square " << sq << " by " << by;
            ++attack_tests;
          }
        }
        legal.size = 0;
        GenerateLegal(pos, pos.to_move, &legal);
        ASSERT_GT(legal.size, 0);
        // Captures twice as likely as other moves: pieces change hands, kings get mated.
        Move m = legal.moves[rng() % legal.size];
        for (int t = 0; t < 2 && (IsDrop(m) || pos.board[MoveTo(m)] == 0); ++t)
          m = legal.moves[rng() % legal.size];
        const int before = pos.n_elim;
        MakeMove(pos, m);
        mates += pos.n_elim > before;
      }
    }
  }
  EXPECT_GT(checked, 50000);
  EXPECT_GT(with_captures, 10000);
  EXPECT_GT(in_check, 500);
  EXPECT_GT(mates, 20);
  EXPECT_GT(attack_tests, 2000000);
}

// The search's one-step spread of a square set against the engine's step table.
TEST(Shogi4Movegen, DilateAddsTheSquaresOneStepAway) {
  std::mt19937_64 rng(81);
  const Tables& t = Tab();
  for (int i = 0; i < 20000; ++i) {
    Squares b = ((Squares(rng()) << 64) | rng()) & kAllSquares;
    if (i % 2) b &= (Squares(rng()) << 64) | rng();  // sparser sets too
    if (i % 4 == 3) b = SquareBit(int(rng() % kSquares));
    Squares expected = b;
    for (int sq = 0; sq < kSquares; ++sq) {
      if (!((b >> sq) & 1)) continue;
      for (int d = 0; d < 8; ++d)
        if (t.next[sq][d] != kNoSquare) expected |= SquareBit(t.next[sq][d]);
    }
    ASSERT_TRUE(bot::Shogi4Dilate(b) == expected) << "set " << i;
  }
}

// The search's square range against popping squares off the set, lowest first.
TEST(Shogi4Movegen, SquareRangeGivesEverySquareInOrder) {
  std::mt19937_64 rng(128);
  for (int i = 0; i < 20000; ++i) {
    Squares b = ((Squares(rng()) << 64) | rng()) & kAllSquares;
    if (i % 2) b &= (Squares(rng()) << 64) | rng();
    if (i % 4 == 3) b &= i % 8 == 3 ? ~Squares(0) << 64 : ~(~Squares(0) << 64);  // one half
    if (i % 16 == 15) b = 0;
    std::vector<int> expected, got;
    for (Squares p = b; p != 0;) expected.push_back(PopSquare(p));
    for (const int sq : bot::Shogi4SquaresOf(b)) got.push_back(sq);
    ASSERT_EQ(got, expected) << "set " << i;
  }
}

}  // namespace
}  // namespace tablero::shogi4
