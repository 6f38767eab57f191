// Differential test: the engine and the simple mailbox reference generator must agree on
// the legal move list of every position along 20,000 random playouts (fixed seed). The
// playouts prefer castling, en passant and promotion whenever available, and start from
// several positions rich in them, so those rules are exercised thousands of times.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/chess/movegen.h"
#include "libs/chess/notation.h"
#include "libs/chess/position.h"
#include "libs/chess/tests/reference_movegen.h"

namespace tablero::chess {
namespace {

constexpr const char* kStarts[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "4k3/1P6/8/2pP4/8/8/6p1/4K3 w - c6 0 1",
    "r3k2r/8/8/8/3pPp2/8/8/R3K1R1 b Qkq e3 0 1",
};

struct Stats {
  uint64_t positions = 0, castling = 0, en_passant = 0, promotion = 0, checks = 0, mates = 0;
};

// Engine moves in the reference's integer form, via UCI text (no shared encoding).
int RefCode(const std::string& uci) {
  const int from = (uci[1] - '1') * 8 + (uci[0] - 'a'), to = (uci[3] - '1') * 8 + (uci[2] - 'a');
  const int promo = uci.size() == 5 ? int(std::string_view("?qrbn").find(uci[4])) : 0;
  return reference::Board::Code(from, to, promo);
}

std::vector<int> EngineMoves(const Position& pos) {
  std::vector<int> out;
  for (Move m : MoveList(pos)) out.push_back(RefCode(ToUci(m)));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Differential, EngineAgreesWithReferenceOnRandomPlayouts) {
  std::mt19937_64 rng(20240601);
  Stats st;
  int failures = 0;
  constexpr int kPlayouts = 20000;
  for (int game = 0; game < kPlayouts && failures < 5; ++game) {
    const char* fen = kStarts[game % std::size(kStarts)];
    auto pos = Position::ParseFen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    reference::Board ref(fen);
    const int length = 10 + int(rng() % 60);
    for (int ply = 0; ply < length; ++ply) {
      std::vector<int> want = ref.Moves();
      std::sort(want.begin(), want.end());
      const std::vector<int> got = EngineMoves(*pos);
      ++st.positions;
      if (got != want) {
        ADD_FAILURE() << "move lists differ at " << pos->Fen() << " (game " << game << ")";
        ++failures;
        break;
      }
      if (pos->InCheck()) ++st.checks;
      if (got.empty()) {
        st.mates += pos->InCheck();
        break;
      }
      // Prefer the special moves when there are any.
      MoveList list(*pos);
      std::vector<Move> special;
      for (Move m : list) {
        if (m.kind() != Move::kNormal) special.push_back(m);
        // Pawn pushes toward promotion now and then, so promotions happen.
        if (TypeOf(pos->piece_on(m.from())) == kPawn && rng() % 4 == 0) special.push_back(m);
      }
      Move m = !special.empty() && rng() % 3 != 0 ? special[rng() % special.size()]
                                                  : list.moves[rng() % list.size];
      st.castling += m.kind() == Move::kCastling;
      st.en_passant += m.kind() == Move::kEnPassant;
      st.promotion += m.kind() == Move::kPromotion;
      ref.Play(RefCode(ToUci(m)));
      pos->DoMove(m);
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(st.positions, 500000u);
  EXPECT_GT(st.castling, 2000u);
  EXPECT_GT(st.en_passant, 1000u);
  EXPECT_GT(st.promotion, 5000u);
  EXPECT_GT(st.checks, 10000u);
  RecordProperty("positions", std::to_string(st.positions));
  std::printf(
      "positions %llu castling %llu en_passant %llu promotion %llu checks %llu mates %llu\n",
      (unsigned long long)st.positions, (unsigned long long)st.castling,
      (unsigned long long)st.en_passant, (unsigned long long)st.promotion,
      (unsigned long long)st.checks, (unsigned long long)st.mates);
}

}  // namespace
}  // namespace tablero::chess
