// The four-player shogi search's node (shogi4_node.h) held to the engine on random playouts
// of every rule variant (singles and pairs, both endings, ownerless pieces, the flipped-king
// pawn rule, a move limit), thousands of positions with drops, promotions, checks and mated seats:
// - its generator move for move and in order against shogi4::GenerateLegal (board moves
//   then drops) and shogi4::GenerateCaptures, for every seat still playing, and onto
//   random target and drop square sets against the engine's list filtered to them; its
//   captures found from their targets (Shogi4Captures) as a set against the same, and
//   from the movers (Shogi4CapturesFrom) move for move and in order;
// - its move step against shogi4::MakeMove for a random move of every seat still playing:
//   the same position, or (a seat picked while not in check has no legal move) the same
//   after Shogi4MateStuck; its material, its evaluation's board sums and the evaluation
//   for every seat against counts from scratch, its check flag against the engine's
//   InCheck; the step taken back (Shogi4Unmake) gives the node it
//   was made on, and so do whole playouts (captures, drops, promotions, mates) made on
//   one node and taken back move by move.
#include "libs/bot/shogi4_node.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "libs/bot/shogi4_attacks.h"
#include "libs/bot/shogi4_eval.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/position.h"

namespace tablero::bot {
namespace {

namespace s4 = shogi4;

std::vector<s4::Move> Engine(const s4::Position& pos, int seat, bool captures) {
  static s4::MoveList list;
  list.size = 0;
  if (captures) {
    s4::GenerateCaptures(pos, seat, &list);
  } else {
    s4::GenerateLegal(pos, seat, &list);
  }
  return std::vector<s4::Move>(list.begin(), list.end());
}

std::vector<s4::Move> Fast(const s4::Position& pos, int seat, s4::Squares targets, bool quiet,
                           s4::Squares drops) {
  static s4::MoveList list;
  list.size = 0;
  const bool check = s4::InCheck(pos, seat);
  Shogi4BoardMoves(pos, seat, check, targets, quiet, &list);
  if (drops != 0) Shogi4Drops(pos, seat, check, drops, &list);
  return std::vector<s4::Move>(list.begin(), list.end());
}

// Shogi4CapturesFrom for `seats` in turn from `first`.
std::vector<s4::Move> FromMovers(const s4::Position& pos, unsigned seats, bool check,
                                 s4::Squares targets, int first) {
  static s4::MoveList list;
  list.size = 0;
  Shogi4CapturesFrom(pos, Shogi4Sliders(pos), seats, first, check, targets, &list);
  return std::vector<s4::Move>(list.begin(), list.end());
}

bool Same(const s4::Position& a, const s4::Position& b) {
  return std::memcmp(a.board, b.board, sizeof a.board) == 0 &&
         std::memcmp(a.pieces, b.pieces, sizeof a.pieces) == 0 &&
         std::memcmp(a.hand, b.hand, sizeof a.hand) == 0 &&
         std::memcmp(a.king, b.king, sizeof a.king) == 0 && a.alive == b.alive &&
         a.to_move == b.to_move && a.last_mover == b.last_mover && a.over == b.over &&
         a.n_elim == b.n_elim && std::memcmp(a.elim, b.elim, sizeof a.elim) == 0 &&
         std::memcmp(a.mated_by, b.mated_by, sizeof a.mated_by) == 0 && a.ply == b.ply;
}

s4::Squares RandomSquares(std::mt19937_64& rng) {
  return ((s4::Squares(rng()) << 64) | rng()) & s4::kAllSquares;
}

void ExpectNodeMatches(const Shogi4Node& node, const char* where) {
  for (int s = 0; s < s4::kSeats; ++s)
    ASSERT_EQ(node.material[s], Shogi4Material(node.pos, s)) << where << " seat " << s;
  if (node.pos.over == s4::EndReason::kNone) {
    ASSERT_EQ(node.in_check, s4::InCheck(node.pos, node.pos.to_move)) << where;
  }
  for (int s = 0; s < s4::kSeats; ++s) {
    ASSERT_EQ((node.checked >> s) & 1, node.pos.Alive(s) && s4::InCheck(node.pos, s))
        << where << " seat " << s;
  }
  for (int sq = 0; sq < s4::kSquares; ++sq) {
    const s4::Cell c = node.pos.board[sq];
    ASSERT_EQ(((node.sliders >> sq) & 1) != 0, c != 0 && s4::Slides(s4::TypeOf(c)))
        << where << " square " << sq;
  }
  const Shogi4Sums sums = Shogi4SumsOf(node.pos);
  ASSERT_EQ(std::memcmp(&node.sums, &sums, sizeof sums), 0) << where;
  // The kings' marks kept per move against the kings' squares.
  for (int sq = 0; sq < kShogi4MarkSquares; ++sq) {
    unsigned marks = 0;
    for (int s = 0; s < s4::kSeats && sq < s4::kSquares; ++s) {
      const int k = node.pos.king[s];
      const int d = std::max(std::abs(s4::RankOf(sq) - s4::RankOf(k)),
                             std::abs(s4::ColOf(sq) - s4::ColOf(k)));
      const bool line =
          sq != k && (s4::RankOf(sq) == s4::RankOf(k) || s4::ColOf(sq) == s4::ColOf(k));
      marks |= unsigned(d <= 1) << s | unsigned(d <= 2) << (4 + s) | unsigned(line) << (8 + s);
    }
    ASSERT_EQ(node.kings[sq], marks) << where << " square " << sq;
  }
  // The evaluation from the sums kept per move against the one counted from scratch.
  for (int me = 0; me < s4::kSeats; ++me) {
    for (bool brs : {false, true}) {
      ASSERT_EQ(Shogi4Evaluate(node, me, brs), Shogi4EvaluateFromScratch(node.pos, me, brs))
          << where << " me " << me << " brs " << brs;
    }
  }
}

// Everything a node holds, position and sums, the same (the rules never change).
void ExpectSameNode(const Shogi4Node& a, const Shogi4Node& b, const char* where) {
  ASSERT_TRUE(Same(a.pos, b.pos)) << where;
  ASSERT_EQ(std::memcmp(a.material, b.material, sizeof a.material), 0) << where;
  ASSERT_EQ(a.in_check, b.in_check) << where;
  ASSERT_EQ(a.checked, b.checked) << where;
  ASSERT_TRUE(a.sliders == b.sliders) << where;
  ASSERT_EQ(std::memcmp(&a.sums, &b.sums, sizeof a.sums), 0) << where;
  ASSERT_EQ(std::memcmp(a.kings, b.kings, sizeof a.kings), 0) << where;
}

TEST(Shogi4Node, GeneratorAndMoveStepAgreeWithTheEngineOnRandomPlayouts) {
  std::mt19937_64 rng(2027);
  int positions = 0, drops = 0, promotions = 0, in_check = 0, mates = 0, stuck = 0, eliminated = 0,
      steps = 0, captures = 0, line_moves = 0, line_mates = 0, move_limits = 0;
  for (int variant = 0; variant < 8; ++variant) {
    s4::Rules rules;
    rules.format = variant & 1 ? s4::Format::kPairs : s4::Format::kSingles;
    rules.ending = variant & 2 ? s4::Ending::kLastOneStanding : s4::Ending::kTwoMates;
    rules.ownerless = variant & 4;
    rules.pawn_before_flipped = (variant >> 1) & 1;
    const bool pairs = rules.format == s4::Format::kPairs;
    for (int game = 0; game < 10; ++game) {
      // Every fifth game under a move limit that its playout reaches.
      s4::Rules game_rules = rules;
      if (game % 5 == 4) game_rules.move_limit = 40;
      s4::Position pos = s4::StartPosition(game_rules, game & 3);
      // The playout made on one node with undo records (as the search makes a line), while
      // Shogi4Make gives the engine's position (not after a stuck seat, which the search
      // mates on a copy); then taken back move by move to the start.
      Shogi4Node line = Shogi4NodeOf(pos);
      std::vector<Shogi4Node> line_before;
      std::vector<Shogi4Undo> line_undo;
      bool following = true;
      for (int ply = 0; ply < 300 && pos.over == s4::EndReason::kNone; ++ply) {
        ++positions;
        eliminated += pos.n_elim > 0;
        s4::Squares occupied = 0;
        for (s4::Squares b : pos.pieces) occupied |= b;
        for (int seat = 0; seat < s4::kSeats; ++seat) {
          if (!pos.Alive(seat)) continue;
          const std::vector<s4::Move> legal = Engine(pos, seat, false);
          in_check += s4::InCheck(pos, seat);
          for (s4::Move m : legal) {
            drops += s4::IsDrop(m);
            promotions += s4::IsPromotion(m);
          }
          // Steps of every seat, as best-reply plays them (the engine's MakeMove with that
          // seat to move).
          if (!legal.empty()) {
            s4::Position engine = pos;
            engine.to_move = static_cast<int8_t>(seat);
            const s4::Move m = legal[rng() % legal.size()];
            s4::MakeMove(engine, m);
            s4::Position from = pos;
            from.to_move = static_cast<int8_t>(seat);
            Shogi4Node node = Shogi4NodeOf(from);
            Shogi4Make(node, seat, m);
            ASSERT_NO_FATAL_FAILURE(ExpectNodeMatches(node, "step"));
            if (!Same(node.pos, engine)) {
              // Only a seat picked while not in check and without a legal move may differ.
              ASSERT_FALSE(node.in_check);
              ASSERT_FALSE(s4::HasLegalMove(node.pos, node.pos.to_move));
              Shogi4MateStuck(node);
              ASSERT_NO_FATAL_FAILURE(ExpectNodeMatches(node, "stuck"));
              ++stuck;
            }
            ASSERT_TRUE(Same(node.pos, engine)) << "variant " << variant << " ply " << ply;
            ++steps;
            // The same step made with an undo record, the seat to move changed as best-reply
            // does, then taken back: the node as it was.
            const Shogi4Node before = Shogi4NodeOf(from);
            Shogi4Node made = before;
            Shogi4Undo undo;
            Shogi4Make(made, seat, m, &undo);
            made.pos.to_move = static_cast<int8_t>((made.pos.to_move + 1) & 3);
            Shogi4Unmake(made, undo);
            ASSERT_NO_FATAL_FAILURE(ExpectSameNode(made, before, "unmade"));
          }
          if (pairs) continue;  // the search generates pairs moves with the engine
          const s4::Squares others = occupied & ~pos.pieces[seat];
          ASSERT_EQ(Fast(pos, seat, others, true, s4::kAllSquares), legal)
              << "variant " << variant << " ply " << ply << " seat " << seat;
          ASSERT_EQ(Fast(pos, seat, others, false, 0), Engine(pos, seat, true))
              << "variant " << variant << " ply " << ply << " seat " << seat;
          {  // Captures found from their targets: the same moves in another order.
            static s4::MoveList list;
            list.size = 0;
            const s4::Squares targets = RandomSquares(rng);
            Shogi4Captures(pos, Shogi4Sliders(pos), 1u << seat, s4::InCheck(pos, seat), targets,
                           &list);
            std::vector<s4::Move> got(list.begin(), list.end());
            std::vector<s4::Move> want = Fast(pos, seat, targets, false, 0);
            std::sort(got.begin(), got.end());
            std::sort(want.begin(), want.end());
            ASSERT_EQ(got, want) << "variant " << variant << " ply " << ply << " seat " << seat;
            captures += int(want.size());
            // Found from the movers: the same list in the same order.
            EXPECT_EQ(FromMovers(pos, 1u << seat, s4::InCheck(pos, seat), targets, seat),
                      Fast(pos, seat, targets, false, 0))
                << "variant " << variant << " ply " << ply << " seat " << seat;
          }
          // Onto random target squares and drop squares: the engine's moves that go there.
          const s4::Squares targets = RandomSquares(rng), squares = RandomSquares(rng);
          std::vector<s4::Move> expected;
          for (s4::Move m : legal) {
            const s4::Squares bit = s4::SquareBit(s4::MoveTo(m));
            const bool capture = !s4::IsDrop(m) && pos.board[s4::MoveTo(m)] != 0;
            if (!s4::IsDrop(m) && (capture ? (targets & bit) != 0 : true)) expected.push_back(m);
          }
          for (s4::Move m : legal)
            if (s4::IsDrop(m) && (squares & s4::SquareBit(s4::MoveTo(m)))) expected.push_back(m);
          ASSERT_EQ(Fast(pos, seat, targets, true, squares), expected)
              << "variant " << variant << " ply " << ply << " seat " << seat;
        }
        {  // Every seat's captures at once (as best-reply asks them), when none is in check.
          unsigned seats = 0;
          std::vector<s4::Move> want;
          for (int seat = 0; seat < s4::kSeats; ++seat) {
            if (!pos.Alive(seat) || s4::InCheck(pos, seat)) continue;
            seats |= 1u << seat;
            const std::vector<s4::Move> c = Engine(pos, seat, true);
            want.insert(want.end(), c.begin(), c.end());
          }
          static s4::MoveList list;
          list.size = 0;
          Shogi4Captures(pos, Shogi4Sliders(pos), seats, false, s4::kAllSquares, &list);
          std::vector<s4::Move> got(list.begin(), list.end());
          std::sort(got.begin(), got.end());
          std::sort(want.begin(), want.end());
          if (!pairs) {
            ASSERT_EQ(got, want) << "variant " << variant << " ply " << ply;
            // From the movers, in generation order from each seat in turn: the seats' lists
            // one after the other.
            for (int first = 0; first < s4::kSeats; ++first) {
              std::vector<s4::Move> in_turn;
              for (int k = 0; k < s4::kSeats; ++k) {
                const int seat = (first + k) & 3;
                if (!((seats >> seat) & 1)) continue;
                const std::vector<s4::Move> c = Engine(pos, seat, true);
                in_turn.insert(in_turn.end(), c.begin(), c.end());
              }
              ASSERT_EQ(FromMovers(pos, seats, false, s4::kAllSquares, first), in_turn)
                  << "variant " << variant << " ply " << ply << " first " << first;
            }
          }
        }
        // The playout: captures twice as likely as other moves (pieces change hands,
        // kings get mated).
        const std::vector<s4::Move> legal = Engine(pos, pos.to_move, false);
        ASSERT_FALSE(legal.empty());
        s4::Move m = legal[rng() % legal.size()];
        for (int t = 0; t < 2 && (s4::IsDrop(m) || pos.board[s4::MoveTo(m)] == 0); ++t)
          m = legal[rng() % legal.size()];
        const int before = pos.n_elim;
        const int mover = pos.to_move;
        s4::MakeMove(pos, m);
        mates += pos.n_elim > before;
        if (following) {
          line_before.push_back(line);
          line_undo.emplace_back();
          Shogi4Make(line, mover, m, &line_undo.back());
          ASSERT_NO_FATAL_FAILURE(ExpectNodeMatches(line, "line"));
          following = Same(line.pos, pos);
          line_mates += following && line.pos.n_elim > before;
        }
      }
      for (size_t i = line_before.size(); i-- > 0;) {
        Shogi4Unmake(line, line_undo[i]);
        ASSERT_NO_FATAL_FAILURE(ExpectSameNode(line, line_before[i], "line unmade"));
      }
      line_moves += int(line_undo.size());
      move_limits += pos.over == s4::EndReason::kMoveLimit;
    }
  }
  EXPECT_GT(positions, 10000);
  EXPECT_GT(steps, 30000);
  EXPECT_GT(drops, 100000);
  EXPECT_GT(promotions, 10000);
  EXPECT_GT(in_check, 500);
  EXPECT_GT(captures, 10000);
  EXPECT_GT(mates, 20);
  EXPECT_GT(eliminated, 1000);
  EXPECT_GT(line_moves, 10000);
  EXPECT_GT(line_mates, 10);
  EXPECT_GT(move_limits, 10);
  RecordProperty("stuck", stuck);
}

// A seat picked while not in check and without a legal move (its king boxed in by two
// rooks, nothing in hand): the engine mates it at once; Shogi4Make leaves it to move, and
// Shogi4MateStuck then gives the engine's position.
TEST(Shogi4Node, AStuckSeatIsMatedAsTheEngineDoes) {
  s4::Position pos = s4::StartPosition(s4::Rules{}, 0);
  std::memset(pos.board, 0, sizeof pos.board);
  for (s4::Squares& b : pos.pieces) b = 0;
  auto put = [&](int sq, int type, int owner) {
    pos.board[sq] = s4::MakeCell(type, owner, owner);
    pos.pieces[owner] |= s4::SquareBit(sq);
    if (type == s4::kKing) pos.king[owner] = static_cast<uint8_t>(sq);
  };
  put(s4::MakeSquare(8, 8), s4::kKing, 0);
  put(s4::MakeSquare(2, 1), s4::kRook, 0);  // covers 8b and 8a
  put(s4::MakeSquare(1, 5), s4::kRook, 0);  // covers 9b
  put(s4::MakeSquare(0, 0), s4::kKing, 1);  // 9a: not attacked, every step is
  put(s4::MakeSquare(0, 8), s4::kKing, 2);
  put(s4::MakeSquare(8, 0), s4::kKing, 3);
  ASSERT_FALSE(s4::InCheck(pos, 1));
  ASSERT_FALSE(s4::HasLegalMove(pos, 1));
  const s4::Move m = s4::MakeBoardMove(s4::MakeSquare(8, 8), s4::MakeSquare(8, 7), false);
  ASSERT_TRUE(s4::IsLegal(pos, m));
  s4::Position engine = pos;
  s4::MakeMove(engine, m);
  ASSERT_EQ(engine.n_elim, 1);
  ASSERT_EQ(engine.elim[0], 1);
  ASSERT_EQ(engine.mated_by[1], 0);

  Shogi4Node node = Shogi4NodeOf(pos);
  Shogi4Make(node, 0, m);
  EXPECT_EQ(node.pos.to_move, 1);
  EXPECT_EQ(node.pos.n_elim, 0);
  EXPECT_FALSE(node.in_check);
  Shogi4MateStuck(node);
  EXPECT_TRUE(Same(node.pos, engine));
  ExpectNodeMatches(node, "stuck");
}

}  // namespace
}  // namespace tablero::bot
