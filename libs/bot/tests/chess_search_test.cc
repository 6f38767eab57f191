// The chess searcher on its own: mates found, material not given away, limits obeyed.
#include "libs/bot/chess_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "libs/bot/chess_eval.h"
#include "libs/bot/chess_memory.h"
#include "libs/chess/game.h"
#include "libs/chess/movegen.h"
#include "libs/chess/notation.h"

namespace tablero::bot {
namespace {

using chess::Position;

Position Fen(const char* fen) {
  auto p = Position::ParseFen(fen);
  EXPECT_TRUE(p.ok()) << fen;
  return *p;
}

bool Mated(const Position& p) { return p.InCheck() && chess::CountLegal(p) == 0; }

// Exhaustive: can the side to move force mate within n of its moves?
bool ForcedMate(const Position& p, int n) {
  for (chess::Move m : chess::MoveList(p)) {
    Position a = p;
    a.DoMove(m);
    if (Mated(a)) return true;
    if (n == 1 || chess::CountLegal(a) == 0) continue;
    bool all = true;
    for (chess::Move r : chess::MoveList(a)) {
      Position b = a;
      b.DoMove(r);
      if (!ForcedMate(b, n - 1)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

ChessResult Think(const Position& p, int depth = 64, int64_t ms = 2000) {
  ChessLimits l;
  l.max_depth = depth;
  l.time_ms = ms;
  return SearchChess(p, {}, l);
}

TEST(ChessSearch, FindsMateInOne) {
  for (const char* fen : {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1",
                          "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"}) {
    const Position p = Fen(fen);
    const ChessResult r = Think(p, 64, 5000);
    Position after = p;
    after.DoMove(r.move);
    EXPECT_TRUE(Mated(after)) << fen << " chose " << chess::ToUci(r.move);
    EXPECT_EQ(r.score, kChessMate - 1) << fen;
  }
}

TEST(ChessSearch, FindsMateInTwo) {
  for (const char* fen : {"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
                          "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"}) {
    const Position p = Fen(fen);
    ASSERT_FALSE(ForcedMate(p, 1)) << fen;
    ASSERT_TRUE(ForcedMate(p, 2)) << fen;
    const ChessResult r = Think(p, 64, 5000);
    Position after = p;
    after.DoMove(r.move);
    bool forced = true;  // every reply allows mate at once
    for (chess::Move reply : chess::MoveList(after)) {
      Position b = after;
      b.DoMove(reply);
      forced = forced && ForcedMate(b, 1);
    }
    EXPECT_TRUE(Mated(after) || forced) << fen << " chose " << chess::ToUci(r.move);
    EXPECT_EQ(r.score, kChessMate - 3) << fen;
  }
}

TEST(ChessSearch, TakesAHangingQueenAndKeepsItsOwn) {
  // White to move can take the black queen on d5 with the knight.
  const Position p = Fen("rnb1kbnr/pppp1ppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3");
  const ChessResult r = Think(p, 6);
  EXPECT_EQ(chess::ToUci(r.move), "c3d5");
  EXPECT_GT(r.score, 600);
}

TEST(ChessSearch, AvoidsStalemateWhenWinning) {
  // Qb6 would stalemate; any sensible search mates or keeps playing.
  const Position p = Fen("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1");
  const ChessResult r = Think(p, 8);
  Position after = p;
  after.DoMove(r.move);
  EXPECT_FALSE(!after.InCheck() && chess::CountLegal(after) == 0) << chess::ToUci(r.move);
  EXPECT_GT(r.score, kChessMateBound);
}

// Plays `moves` (UCI) from `start` and searches the position reached with the positions
// before it as the game's history, 200k nodes.
ChessResult AfterMoves(const char* start, std::initializer_list<const char*> moves) {
  Position p = Fen(start);
  std::vector<uint64_t> history;
  for (const char* uci : moves) {
    history.push_back(chess::RepetitionKey(p));
    p.DoMove(*chess::ParseUci(p, uci));
  }
  ChessLimits l;
  l.max_nodes = 200000;
  return SearchChess(p, history, l);
}

TEST(ChessSearch, ASingleEarlierOccurrenceIsNotADraw) {
  // 1. Nc3 d5 2. Ne4 Be6 3. Nc5 Bc8: 4. Ne4 would repeat the position after 2. Ne4 once,
  // which is no draw; d5xe4 simply wins the knight. Scoring the repetition 0 made the
  // search play it when it saw itself a little worse.
  const ChessResult r = AfterMoves("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                   {"b1c3", "d7d5", "c3e4", "c8e6", "e4c5", "e6c8"});
  EXPECT_NE(chess::ToUci(r.move), "c5e4");
  // Two earlier occurrences are a draw (threefold): a queen down, White's knight goes to
  // g3 for the third time, from a third square, and the search scores that 0.
  const ChessResult draw =
      AfterMoves("3qk3/8/8/8/8/8/8/4K2N w - - 0 1",
                 {"h1g3", "e8d7", "g3f1", "d7e8", "f1g3", "e8d7", "g3e2", "d7e8"});
  EXPECT_EQ(chess::ToUci(draw.move), "e2g3");
  EXPECT_EQ(draw.score, 0) << chess::ToUci(draw.move);
}

TEST(ChessSearch, NodeLimitIsRepeatable) {
  const Position p = Position::StartPosition();
  ChessLimits l;
  l.max_nodes = 50000;
  l.noise_cp = 30;
  l.noise_seed = 7;
  const ChessResult a = SearchChess(p, {}, l);
  const ChessResult b = SearchChess(p, {}, l);
  EXPECT_EQ(a.move, b.move);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.score, b.score);
  EXPECT_LE(a.nodes, 50000u);
}

// What a search keeps for the next one (the table, the histories, the correction history)
// never reaches a search that does not reuse it: after reusing searches of other positions,
// a seeded search answers as it does on a fresh thread.
TEST(ChessSearch, ASearchWithoutReuseIgnoresEarlierSearches) {
  const Position p = Fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  ChessLimits seeded;
  seeded.max_nodes = 20000;
  ChessResult fresh;
  std::thread([&] { fresh = SearchChess(p, {}, seeded); }).join();
  ChessLimits reuse;
  reuse.max_nodes = 20000;
  reuse.reuse_table = true;
  for (const char* fen : {"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                          "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R b KQkq - 0 12"})
    SearchChess(Fen(fen), {}, reuse);
  const ChessResult after = SearchChess(p, {}, seeded);
  EXPECT_EQ(after.move, fresh.move);
  EXPECT_EQ(after.nodes, fresh.nodes);
  EXPECT_EQ(after.score, fresh.score);
}

// The correction history follows the errors the searches report, deeper ones faster, and
// never corrects by more than its bound.
TEST(ChessSearchMemory, CorrectionFollowsTheErrorWithinItsBound) {
  using M = ChessSearchMemory;
  int16_t shallow = 0, deep = 0;
  M::UpdateCorrection(shallow, 40, 1);
  M::UpdateCorrection(deep, 40, 12);
  EXPECT_GT(shallow, 0);
  EXPECT_GT(deep, shallow);
  for (int i = 0; i < 200; ++i) M::UpdateCorrection(deep, 40, 12);
  EXPECT_NEAR(M::Correction(deep), 40, 2);
  for (int i = 0; i < 200; ++i) M::UpdateCorrection(deep, -900, 20);
  EXPECT_EQ(M::Correction(deep), -M::kCorrectionMax / M::kCorrectionGrain);
  EXPECT_EQ(M::kCorrectionMax / M::kCorrectionGrain, 64);
}

TEST(ChessSearch, StopsOnTime) {
  const Position p = Position::StartPosition();
  ChessLimits l;
  l.time_ms = 50;
  const auto t0 = std::chrono::steady_clock::now();
  const ChessResult r = SearchChess(p, {}, l);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(ms, 250);  // generous: sanitizer builds are slow
  EXPECT_GE(r.depth, 1);
  EXPECT_TRUE(chess::MoveList(p).contains(r.move));
}

TEST(ChessEval, SymmetricAndSeeSane) {
  const Position p = Position::StartPosition();
  // The start position is symmetric: only the tempo bonus remains.
  EXPECT_EQ(Evaluate(p, TunedChessEvalParams()), TunedChessEvalParams()[eval_index::kTempo].mg);
  const Position q = Fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  chess::Move exd5 = *chess::ParseUci(q, "e4d5");
  EXPECT_EQ(See(q, exd5), 100);
  const Position r = Fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1");
  chess::Move qxd5 = *chess::ParseUci(r, "d2d5");
  EXPECT_LT(See(r, qxd5), 0);
}

// The same position with the colours exchanged and the board turned upside down.
Position Mirror(const Position& p) {
  std::string fen = p.Fen();
  std::vector<std::string> f = absl::StrSplit(fen, ' ');
  std::vector<std::string> ranks = absl::StrSplit(f[0], '/');
  std::reverse(ranks.begin(), ranks.end());
  auto swap_case = [](std::string s) {
    for (char& c : s)
      c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c))
                                                      : char(std::toupper(c));
    return s;
  };
  f[0] = swap_case(absl::StrJoin(ranks, "/"));
  f[1][0] = f[1][0] == 'w' ? 'b' : 'w';
  if (f[2] != "-") {
    std::string c = swap_case(f[2]);
    std::sort(c.begin(), c.end());  // upper case (White) first, as FEN writes them
    f[2] = c;
  }
  if (f[3] != "-") f[3][1] = f[3][1] == '3' ? '6' : '3';
  return Fen(absl::StrJoin(f, " ").c_str());
}

TEST(ChessEval, SameForTheMirroredPosition) {
  // Every term is computed for both sides: a position and its mirror image (colours swapped)
  // evaluate the same for the side to move, over positions of random games.
  std::mt19937 rng(5);
  int checked = 0;
  for (int game = 0; game < 40; ++game) {
    Position p = Position::StartPosition();
    for (int ply = 0; ply < 120; ++ply) {
      chess::MoveList legal(p);
      if (legal.size == 0) break;
      EXPECT_EQ(Evaluate(p), Evaluate(Mirror(p))) << p.Fen();
      ++checked;
      p.DoMove(legal.moves[rng() % legal.size]);
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(ChessEval, OutpostsConnectedPawnsAndThreats) {
  // With the handcrafted table, whose piece-square tables are smooth, each pair below
  // differs by the term alone (the tuned tables' squares differ by more than a term).
  auto Evaluate = [](const Position& p) { return bot::Evaluate(p, HandcraftedChessEvalParams()); };
  // A knight on d5 defended by a pawn that no black pawn can chase is worth more than the
  // same knight on a square where a pawn can chase it.
  const int outpost = Evaluate(Fen("4k3/1p6/8/3N4/4P3/8/8/4K3 w - - 0 1"));
  const int chased = Evaluate(Fen("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1"));
  EXPECT_GT(outpost, chased);
  // Pawns side by side are worth more than the same pawns apart.
  const int together = Evaluate(Fen("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1"));
  const int apart = Evaluate(Fen("4k3/8/8/8/2P2P2/8/8/4K3 w - - 0 1"));
  EXPECT_GT(together, apart);
  // A queen attacked by a knight is a liability for its side even before it is taken.
  const int attacked = Evaluate(Fen("4k3/8/8/3q4/8/4N3/8/4K3 b - - 0 1"));
  const int safe = Evaluate(Fen("4k3/8/8/3q4/8/5N2/8/4K3 b - - 0 1"));
  EXPECT_LT(attacked, safe);
}

}  // namespace
}  // namespace tablero::bot
