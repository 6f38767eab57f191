// SAN, UCI and FEN in and out: round trips over random playouts, the disambiguation and
// suffix cases, and malformed text (listed and random) giving errors, never crashes.
#include "libs/chess/notation.h"

#include <random>
#include <string>

#include "gtest/gtest.h"
#include "libs/chess/movegen.h"
#include "libs/chess/position.h"

namespace tablero::chess {
namespace {

Position Fen(const char* fen) {
  auto p = Position::ParseFen(fen);
  EXPECT_TRUE(p.ok()) << fen << " " << p.status();
  return p.ok() ? *p : Position::StartPosition();
}

std::string San(const char* fen, const char* uci) {
  Position p = Fen(fen);
  auto m = ParseUci(p, uci);
  EXPECT_TRUE(m.ok()) << uci << " " << m.status();
  return m.ok() ? ToSan(p, *m) : "";
}

TEST(San, Basics) {
  const char* start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(San(start, "e2e4"), "e4");
  EXPECT_EQ(San(start, "g1f3"), "Nf3");
  EXPECT_EQ(San("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"), "Qh4#");
  EXPECT_EQ(San("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "O-O");
  EXPECT_EQ(San("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"), "O-O-O");
  EXPECT_EQ(San("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q"), "bxa8=Q+");
  EXPECT_EQ(San("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n"), "b8=N");
  EXPECT_EQ(San("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
  EXPECT_EQ(San("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"), "Nbd2");
  EXPECT_EQ(San("4k3/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4"), "R1a4");
  EXPECT_EQ(San("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1"), "Qh4e1");
  EXPECT_EQ(San("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1", "e4e1"), "Qee1");
  EXPECT_EQ(San("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
}

TEST(San, ParsesVariantsAndRefusesBadText) {
  Position p = Position::StartPosition();
  for (const char* ok : {"e4", "e2e4", "Nf3", "g1f3", "Nf3+", "Nf3!?", " e4 ", "Ng1f3", "N1f3"}) {
    EXPECT_TRUE(ParseMoveText(p, ok).ok()) << ok;
  }
  Position castle = Fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  for (const char* t : {"O-O", "0-0", "e1g1", "O-O-O", "0-0-0", "e1c1"}) {
    auto m = ParseMoveText(castle, t);
    ASSERT_TRUE(m.ok()) << t;
    EXPECT_EQ(m->kind(), Move::kCastling) << t;
  }
  for (const char* bad : {"", "e9", "Zf3", "e2e4x", "e2e4qq", "xx", "Nf3=Q", "e7e8k", "i2i4",
                          "O-O-O-O", "Nxx", "e4=", "++", "1. e4", "e2-e4", "b2b1z"}) {
    auto m = ParseMoveText(p, bad);
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument) << bad << m.status();
  }
  for (const char* illegal : {"e5", "Nf6", "e2e5", "O-O", "Ke2", "a1a2", "Qxd7"}) {
    auto m = ParseMoveText(p, illegal);
    ASSERT_FALSE(m.ok()) << illegal;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition) << illegal;
    EXPECT_NE(m.status().message().find(illegal), std::string::npos) << m.status();
  }
  Position promo = Fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(ParseMoveText(promo, "b7b8").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ParseMoveText(promo, "b8").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ToUci(*ParseMoveText(promo, "b8=Q")), "b7b8q");
  EXPECT_EQ(ToUci(*ParseMoveText(promo, "b8N")), "b7b8n");
  Position knights = Fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
  EXPECT_EQ(ParseMoveText(knights, "Nd2").status().code(), absl::StatusCode::kFailedPrecondition);
  // A pawn move without a file is a push; a capture needs a piece to take.
  Position pawns = Fen("4k3/8/8/8/3p4/8/2P1P3/4K3 w - - 0 1");
  EXPECT_EQ(ToUci(*ParseMoveText(pawns, "e3")), "e2e3");
  EXPECT_EQ(ParseMoveText(pawns, "exd3").status().code(), absl::StatusCode::kFailedPrecondition);
}

// Every legal move of every position along random games survives SAN and UCI round trips.
TEST(San, RoundTripsAlongRandomGames) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"}) {
    for (int game = 0; game < 30; ++game) {
      Position p = Fen(fen);
      for (int ply = 0; ply < 80; ++ply) {
        MoveList list(p);
        if (list.size == 0) break;
        for (Move m : list) {
          const std::string san = ToSan(p, m);
          auto back = ParseSan(p, san);
          ASSERT_TRUE(back.ok()) << p.Fen() << " " << san << " " << back.status();
          EXPECT_EQ(*back, m) << p.Fen() << " " << san;
          auto uci = ParseUci(p, ToUci(m));
          ASSERT_TRUE(uci.ok());
          EXPECT_EQ(*uci, m);
          ++checked;
        }
        // FEN round trip of the position itself.
        auto again = Position::ParseFen(p.Fen());
        ASSERT_TRUE(again.ok()) << p.Fen();
        EXPECT_EQ(again->Fen(), p.Fen());
        p.DoMove(list.moves[rng() % list.size]);
      }
    }
  }
  EXPECT_GT(checked, 50000);
}

TEST(Fen, RoundTripsAndNormalisesEnPassant) {
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "8/8/8/8/8/8/8/K6k b - - 99 120"}) {
    EXPECT_EQ(Fen(fen).Fen(), fen);
  }
  // A double step that allows no legal capture writes no en passant square.
  EXPECT_EQ(Fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").Fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  // Pinned capturer: pseudo-legal only, so no square either.
  EXPECT_EQ(Fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").Fen(), "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
  EXPECT_EQ(Fen("4k3/8/8/8/8/8/8/4K3 w - -").Fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

TEST(Fen, RefusesMalformedAndImpossible) {
  for (const char* bad : {
           "",
           "8/8/8/8/8/8/8/8 w - - 0 1",                                   // no kings
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",    // side
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",      // 5 fields
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",  // 9 ranks
           "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    // 9 squares
           "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",   // two digits
           "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",   // 9 pieces
           "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    // 7 squares
           "rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    // bad piece
           "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    // k right, no rook
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",   // repeated right
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",   // ep without pawn
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",   // ep square
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",   // clock
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",    // move number
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",    // clock text
           "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",                              // two kings
           "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",                              // pawn on rank 1
           "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",                              // wrong side checked
           "QQQQQQQQ/QQQQQQQQ/QQQk4/8/8/8/8/4K3 w - - 0 1",               // 17+ pieces
           "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",                         // 7 fields
       }) {
    auto p = Position::ParseFen(bad);
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

// Random text and random mutations of good text: an error or a valid result, never a crash.
TEST(Fuzz, RandomAndMutatedTextNeverCrashes) {
  std::mt19937_64 rng(99);
  const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkqa-h0x=+#O";
  const std::string good = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  Position kiwi = Fen(good.c_str());
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    if (i % 2) {
      s = good;
      for (int k = 1 + int(rng() % 3); k > 0; --k) {
        size_t at = rng() % s.size();
        switch (rng() % 3) {
          case 0:
            s[at] = alphabet[rng() % alphabet.size()];
            break;
          case 1:
            s.erase(at, 1);
            break;
          default:
            s.insert(at, 1, alphabet[rng() % alphabet.size()]);
        }
      }
    } else {
      for (int n = int(rng() % 12); n > 0; --n) s += char(rng() % 256);
    }
    auto p = Position::ParseFen(s);
    if (p.ok()) {
      ++parsed;
      auto again = Position::ParseFen(p->Fen());
      ASSERT_TRUE(again.ok()) << s;
      EXPECT_GE(Perft(*p, 2), 0u);
    } else {
      EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    }
    auto m = ParseMoveText(kiwi, s.substr(0, 8));
    if (!m.ok()) {
      EXPECT_TRUE(m.status().code() == absl::StatusCode::kInvalidArgument ||
                  m.status().code() == absl::StatusCode::kFailedPrecondition);
    }
  }
  EXPECT_GT(parsed, 100);  // the mutations did produce valid positions too
  // Random short move-like strings, all through SAN and UCI.
  const std::string move_chars = "abcdefgh12345678NBRQKxO-0=+#qrbn";
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (int n = 1 + int(rng() % 7); n > 0; --n) s += move_chars[rng() % move_chars.size()];
    for (auto r : {ParseMoveText(kiwi, s), ParseSan(kiwi, s), ParseUci(kiwi, s)}) {
      if (r.ok()) {
        EXPECT_TRUE(MoveList(kiwi).contains(*r)) << s;
      } else {
        EXPECT_TRUE(r.status().code() == absl::StatusCode::kInvalidArgument ||
                    r.status().code() == absl::StatusCode::kFailedPrecondition);
      }
    }
  }
}

}  // namespace
}  // namespace tablero::chess
