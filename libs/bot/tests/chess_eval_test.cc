// The chess evaluation's weight table and its tuner: the handcrafted table evaluates every
// position as the evaluation did before it was a table, the tuner's linear model agrees with
// the evaluation, and tuning lowers the loss on a small data set.
#include "libs/bot/chess_eval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "libs/bot/bot.h"
#include "libs/bot/chess_tune.h"
#include "libs/bot/levels.h"
#include "libs/bot/tests/random_positions.h"
#include "libs/chess/movegen.h"
#include "libs/games/games.h"

namespace tablero::bot {
namespace {

using chess::Position;

TEST(ChessEvalParams, HandcraftedTableEvaluatesAsTheFormulaEvaluationDid) {
  // kRecorded: the same fold of the evaluation before it became a table (commit f77130b's
  // chess_eval.cc) over the same positions.
  constexpr uint64_t kRecorded = 17677359527296817759ULL;
  constexpr int kRecordedCount = 57725;
  const std::vector<Position> positions = RandomGamePositions(11, 300, 200);
  uint64_t fold = 1469598103934665603ULL;
  for (const Position& p : positions) {
    fold ^= uint64_t(uint32_t(Evaluate(p, HandcraftedChessEvalParams())));
    fold *= 1099511628211ULL;
  }
  EXPECT_EQ(int(positions.size()), kRecordedCount);
  EXPECT_EQ(fold, kRecorded);
  // A few values spelled out, so a failure says more than a fold.
  EXPECT_EQ(Evaluate(Position::StartPosition(), HandcraftedChessEvalParams()), 10);
}

TEST(ChessEvalParams, TextRoundTripsAndTheShippedTableParses) {
  for (const ChessEvalParams* p : {&HandcraftedChessEvalParams(), &TunedChessEvalParams()}) {
    auto back = ParseChessEvalParams(FormatChessEvalParams(*p));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->w, p->w);
  }
  EXPECT_FALSE(ParseChessEvalParams("material.pawn 1 2\n").ok());  // the rest missing
  EXPECT_FALSE(ParseChessEvalParams("tempo 1 2\n").ok());          // out of order
}

TEST(ChessEvalParams, ScopedTableAppliesToThisThreadOnly) {
  ScopedChessNet table_only(nullptr);  // the tables, not the network the bot may ship
  const Position p = Position::StartPosition();
  ChessEvalParams bold = HandcraftedChessEvalParams();
  bold[eval_index::kTempo] = EvalScore{77, 77};
  EXPECT_EQ(Evaluate(p), Evaluate(p, TunedChessEvalParams()));
  {
    ScopedChessEvalParams scope(bold);
    EXPECT_EQ(Evaluate(p), 77);
  }
  EXPECT_EQ(Evaluate(p), Evaluate(p, TunedChessEvalParams()));
}

TEST(ChessEvalParams, LevelsBelowTheLearntLevelKeepTheHandcraftedTable) {
  // A table with a huge tempo changes every score a search reports: levels from
  // kChessLearntEvalLevel up play with the caller's table (here without a network), those
  // below with the handcrafted one whatever the caller set.
  ScopedChessNet table_only(nullptr);
  ChessEvalParams odd = HandcraftedChessEvalParams();
  odd[eval_index::kTempo] = EvalScore{400, 400};
  auto g = *games::NewGame({game::Kind::kChess, {}, 0, 0});
  for (int level : {5, kChessLearntEvalLevel - 1, kChessLearntEvalLevel, 10}) {
    Request r;
    r.level = level;
    r.budget_ms = 100;
    r.seed = 9;
    r.use_clock = false;
    auto plain = ChooseMove(*g, r);
    ASSERT_TRUE(plain.ok()) << plain.status();
    ScopedChessEvalParams scope(odd);
    auto scoped = ChooseMove(*g, r);
    ASSERT_TRUE(scoped.ok()) << scoped.status();
    if (level >= kChessLearntEvalLevel) {
      EXPECT_NE(scoped->eval, plain->eval) << level;
    } else {
      ScopedChessEvalParams handcrafted(HandcraftedChessEvalParams());
      auto reference = ChooseMove(*g, r);
      ASSERT_TRUE(reference.ok());
      EXPECT_EQ(scoped->eval, reference->eval) << level;
      EXPECT_EQ(scoped->nodes, reference->nodes) << level;
      EXPECT_EQ(scoped->move, reference->move) << level;
    }
  }
}

TEST(ChessEvalTrace, LinearModelAgreesWithTheEvaluation) {
  for (const ChessEvalParams* params : {&HandcraftedChessEvalParams(), &TunedChessEvalParams()}) {
    const std::vector<double> w = WeightsOf(*params);
    int checked = 0;
    for (const Position& p : RandomGamePositions(3, 60, 150)) {
      ChessEvalTrace t;
      const int v = Evaluate(p, *params, &t);
      EXPECT_EQ(v, Evaluate(p, *params));
      // Integer rounding of the taper, the halved terms and the scaling: a few centipawns.
      EXPECT_NEAR(TracedEval(t, w.data()), v, 4) << p.Fen();
      ++checked;
    }
    EXPECT_GT(checked, 5000);
  }
}

// What each term counts, on positions small enough to count by hand (uses are White's minus
// Black's).
float Uses(const char* fen, int index) {
  auto pos = Position::ParseFen(fen);
  EXPECT_TRUE(pos.ok()) << fen;
  ChessEvalTrace t;
  Evaluate(*pos, HandcraftedChessEvalParams(), &t);
  return t.uses[index];
}

TEST(ChessEvalTrace, TermsCountWhatTheyName) {
  namespace ix = eval_index;
  // The knight on d5 is attacked by the queen and defended by nothing.
  EXPECT_EQ(Uses("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", ix::kHanging), -1);
  EXPECT_EQ(Uses("4k3/8/4p3/3n4/8/8/8/3QK3 w - - 0 1", ix::kHanging), 0);  // e6 defends it
  // The rook can check from a8 (e1 is its own king's square).
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ix::kSafeCheck + 2), 1);
  // The queen checks from a4, h5 and e2; d7 and d8 are guarded by the king. It attacks d7
  // and d8 of the zone.
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", ix::kSafeCheck + 3), 3);
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", ix::kKingZoneAttack + 3), 2);
  // A passer whose next square is free and unguarded, then blocked.
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ix::kPassedFree + 1), 1);
  EXPECT_EQ(Uses("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", ix::kPassedFree + 1), 0);
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/4P1n1/6K1 w - - 0 1", ix::kPassedFree + 1), 0);  // e3 guarded
  // Both pawns stand on the dark squares of the c1 bishop.
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/3P1P2/2B1K3 w - - 0 1", ix::kBadBishop), 2);
  // One attacker on the zone; three squares beside the king that only the king guards.
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", ix::kKingAttackers + 0), 1);
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", ix::kWeakKingSquares), 3);
  // d3-d4 is safe and hits the c5 knight.
  EXPECT_EQ(Uses("4k3/8/8/2n5/8/3P4/8/4K3 w - - 0 1", ix::kPawnPushThreat), 1);
  // d2 cannot be supported (c4 is ahead of it) and d3 is met by the e4 pawn.
  EXPECT_EQ(Uses("4k3/8/8/8/2P1p3/8/3P4/4K3 w - - 0 1", ix::kBackward), 1);
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ix::kKingPawnDistance), 1);
  // White: c2-f4 but e4 (11), e2 and e3 again behind the pawn; Black: c5-f7 but the two the
  // pawn attacks (10).
  EXPECT_EQ(Uses("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", ix::kSpace), 3);
  // A knight in the corner reaches two squares.
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", ix::kMobilityCount + 2), 1);
  EXPECT_EQ(Uses("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", ix::kMobilityCount + 8), 0);
}

TEST(ChessTune, LossFallsAndWeightsMoveTowardTheLabels) {
  // Labels from the handcrafted evaluation with knights worth 420 instead of 320: tuning
  // from the handcrafted table must lower the loss and raise the knight's value.
  ChessEvalParams truth = HandcraftedChessEvalParams();
  truth[eval_index::kMaterial + chess::kKnight] = EvalScore{420, 400};
  std::vector<TuneSample> samples;
  for (const Position& p : RandomGamePositions(7, 40, 60))
    samples.push_back(MakeTuneSample(p, WinProbability(Evaluate(p, truth))));
  ASSERT_GT(samples.size(), 2000u);
  const std::vector<double> start = WeightsOf(HandcraftedChessEvalParams());
  TuneOptions options;
  options.epochs = 150;
  options.step = 2.0;
  const std::vector<double> tuned = TuneWeights(samples, start, options);
  const double before = TuneLoss(samples, start), after = TuneLoss(samples, tuned);
  EXPECT_LT(after, before * 0.5) << before << " -> " << after;
  EXPECT_GT(tuned[2 * (eval_index::kMaterial + chess::kKnight)], 360);
}

}  // namespace
}  // namespace tablero::bot
