#include "libs/bot/chess_net.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/bot/bot.h"
#include "libs/bot/chess_eval.h"
#include "libs/bot/chess_net_train.h"
#include "libs/bot/chess_search.h"
#include "libs/bot/chess_tune.h"
#include "libs/bot/levels.h"
#include "libs/bot/tests/random_positions.h"
#include "libs/chess/movegen.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

using chess::Position;

// Random weights large enough that every input moves the output.
FloatChessNet BoldNet(uint64_t seed) {
  FloatChessNet net = RandomChessNet(seed);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> b(0.0f, 0.3f);
  for (float& w : net.w1) w *= 4;
  for (float& w : net.b1) w = b(rng);
  for (float& w : net.w2) w *= 8;
  net.b2 = 0.01f;
  return net;
}

TEST(ChessNet, StackUpdatesGiveTheEvaluationFromScratch) {
  const auto net = QuantizeChessNet(BoldNet(3));
  ChessNetStack stack(*net, 64);
  std::mt19937_64 rng(8);
  // Lines of random moves (captures, promotions, castling and en passant among them; a
  // null move now and then), going back a few plies and on again as a search does,
  // evaluating at random plies only (the stack catches up over several moves).
  int checked = 0;
  for (int line = 0; line < 60; ++line) {
    std::vector<Position> at(64);
    at[0] = Position::StartPosition();
    stack.Enter(0, &at[0]);
    int ply = 0;
    for (int step = 0; step < 400; ++step) {
      if (ply > 0 && rng() % 4 == 0) {
        ply -= 1 + int(rng() % std::min(ply, 3));  // back up the line
        continue;
      }
      if (ply + 1 >= 64) break;
      chess::MoveList legal(at[ply]);
      if (legal.size == 0) continue;
      at[ply + 1] = at[ply];
      if (rng() % 20 == 0 && !at[ply].InCheck()) {
        at[ply + 1].DoNullMove();
      } else {
        at[ply + 1].DoMove(legal.moves[rng() % legal.size]);
      }
      ++ply;
      stack.Enter(ply, &at[ply]);
      if (rng() % 3 == 0) {
        ASSERT_EQ(stack.Evaluate(ply), EvaluateChessNet(*net, at[ply])) << at[ply].Fen();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(ChessNet, TheIntegersFollowTheFloats) {
  const FloatChessNet f = BoldNet(4);
  const auto q = QuantizeChessNet(f);
  double worst = 0, spread = 0;
  for (const Position& p : RandomGamePositions(5, 20, 100)) {
    const double want = FloatChessNetEval(f, MakeNetSample(p, 0.5));
    worst = std::max(worst, std::abs(EvaluateChessNet(*q, p) - want));
    spread = std::max(spread, std::abs(want));
  }
  // Rounding each weight (the output's to 1/64) moves no output by more than a few percent
  // of their range.
  EXPECT_GT(spread, 1000);
  EXPECT_LT(worst, spread / 30) << spread;
}

TEST(ChessNet, SameForTheMirroredPosition) {
  // Each view sees the board from its own side: a position and the same one with the
  // colours exchanged and the board turned evaluate the same.
  const auto net = QuantizeChessNet(BoldNet(6));
  int checked = 0;
  for (const Position& p : RandomGamePositions(7, 10, 100)) {
    std::string board;
    for (int rank = 7; rank >= 0; --rank) {
      int empty = 0;
      for (int file = 0; file < 8; ++file) {
        const chess::Piece pc = p.piece_on((rank * 8 + file) ^ 56);
        if (pc == chess::kNoPiece) {
          ++empty;
          continue;
        }
        if (empty) board += char('0' + empty);
        empty = 0;
        board += (chess::ColorOf(pc) == chess::kWhite ? "pnbrqk" : "PNBRQK")[chess::TypeOf(pc)];
      }
      if (empty) board += char('0' + empty);
      if (rank) board += '/';
    }
    const auto m =
        Position::ParseFen(board + (p.side_to_move() == chess::kWhite ? " b" : " w") + " - - 0 1");
    ASSERT_TRUE(m.ok()) << board;
    EXPECT_EQ(EvaluateChessNet(*net, p), EvaluateChessNet(*net, *m)) << p.Fen();
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

TEST(ChessNet, BytesRoundTripAndBadFilesAreRefused) {
  const auto net = QuantizeChessNet(BoldNet(9));
  const std::string bytes = SerializeChessNet(*net);
  auto back = ParseChessNet(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(SerializeChessNet(**back), bytes);
  EXPECT_FALSE(ParseChessNet("").ok());
  EXPECT_FALSE(ParseChessNet("TBNN0" + bytes.substr(5)).ok());
  EXPECT_FALSE(ParseChessNet(bytes.substr(0, bytes.size() - 1)).ok());
  std::string other = bytes;
  other[9] = 64;  // 768 x 64
  EXPECT_EQ(ParseChessNet(other).status().message(),
            "network of 768 x 64, this build reads 768 x 128");
}

TEST(ChessNetTrain, LearnsWhatItIsShown) {
  // Label: a side's material (pawn 1, knight and bishop 3, rook 5, queen 9) in pawns. The
  // untrained network knows nothing of it; trained, it gets most of the way.
  std::vector<NetSample> samples;
  for (const Position& p : RandomGamePositions(11, 60, 100)) {
    static constexpr int kValue[6] = {100, 300, 300, 500, 900, 0};
    int balance = 0;
    for (int s = 0; s < 64; ++s) {
      const chess::Piece pc = p.piece_on(s);
      if (pc == chess::kNoPiece) continue;
      balance += (chess::ColorOf(pc) == p.side_to_move() ? 1 : -1) * kValue[chess::TypeOf(pc)];
    }
    samples.push_back(MakeNetSample(p, WinProbability(balance)));
  }
  FloatChessNet net = RandomChessNet(1);
  const double before = ChessNetLoss(samples, net);
  NetTrainOptions options;
  options.epochs = 40;
  options.batch = 256;
  options.rate = 0.003;
  double last = 1;
  TrainChessNet(samples, options, &net, [&](int, double loss) { last = loss; });
  const double after = ChessNetLoss(samples, net);
  EXPECT_GT(before, 0.01);
  EXPECT_LT(after, before / 10);
  EXPECT_NEAR(last, after, 0.01);  // the reported loss is the loss
}

TEST(ChessNet, ScopedNetworkAppliesToThisThreadOnly) {
  const auto net = QuantizeChessNet(BoldNet(12));
  const Position p = *Position::ParseFen("4k3/8/8/3q4/8/5N2/8/4K3 b - - 0 1");
  const int shipped = Evaluate(p);
  {
    ScopedChessNet scope(net.get());
    EXPECT_EQ(ActiveChessNet(), net.get());
    EXPECT_EQ(Evaluate(p), EvaluateChessNet(*net, p));
    {
      ScopedChessNet table(nullptr);
      EXPECT_EQ(Evaluate(p), Evaluate(p, TunedChessEvalParams()));
    }
    // A lone king: the table's mop-up.
    const Position lone = *Position::ParseFen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    EXPECT_EQ(Evaluate(lone), Evaluate(lone, TunedChessEvalParams()));
    // The search evaluates by it too: its answer changes with the network.
    ChessLimits limits;
    limits.max_depth = 3;
    const Position start = Position::StartPosition();
    const ChessResult with_net = SearchChess(start, {}, limits);
    ScopedChessNet table(nullptr);
    const ChessResult with_table = SearchChess(start, {}, limits);
    EXPECT_NE(with_net.score, with_table.score);
  }
  EXPECT_EQ(Evaluate(p), shipped);
}

TEST(ChessNet, TheShippedNetworkLoadsAndKnowsMaterial) {
  // chess_net.inc parses into a network (a file of the wrong size would leave level 10 on
  // the table), and it has learnt something: a queen up is far better, for either side.
  const ChessNet* net = ShippedChessNet();
  ASSERT_NE(net, nullptr);
  const Position up = *Position::ParseFen("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1");
  const Position down = *Position::ParseFen("3qk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
  EXPECT_GT(EvaluateChessNet(*net, up), 400);
  EXPECT_LT(EvaluateChessNet(*net, down), -400);
  EXPECT_NEAR(EvaluateChessNet(*net, Position::StartPosition()), 0, 60);
}

TEST(ChessNet, LevelsFromTheLearntLevelEvaluateByTheNetwork) {
  // Levels from kChessLearntEvalLevel up search with the caller's network, those below with
  // the handcrafted table whatever network the caller set.
  const auto net = QuantizeChessNet(BoldNet(13));
  auto g = *games::NewGame({game::Kind::kChess, {}, 0, 0});
  for (int level : {5, kChessLearntEvalLevel - 1, kChessLearntEvalLevel, 10}) {
    Request r;
    r.level = level;
    r.budget_ms = 100;
    r.seed = 9;
    r.use_clock = false;
    absl::StatusOr<Choice> with_net, without;
    {
      ScopedChessNet scope(net.get());
      with_net = ChooseMove(*g, r);
    }
    {
      ScopedChessNet scope(nullptr);
      without = ChooseMove(*g, r);
    }
    ASSERT_TRUE(with_net.ok() && without.ok());
    if (level >= kChessLearntEvalLevel) {
      EXPECT_NE(with_net->eval, without->eval) << level;
    } else {
      EXPECT_EQ(with_net->eval, without->eval) << level;
      EXPECT_EQ(with_net->nodes, without->nodes) << level;
      EXPECT_EQ(with_net->move, without->move) << level;
    }
  }
}

}  // namespace
}  // namespace tablero::bot
