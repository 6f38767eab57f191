// Position and move text, the state encoding, and hostile input: malformed text and random
// or corrupted bytes give errors, never crashes.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "libs/checkers/checkers.h"
#include "libs/checkers/notation.h"
#include "libs/game/codec.h"

namespace tablero::checkers {
namespace {

game::NewGameParams Params(int seats, bool japanese = false) {
  game::NewGameParams p;
  p.kind = game::Kind::kCheckers;
  p.seats = seats;
  if (japanese) p.options["rules"] = "japanese";
  return p;
}

absl::StatusOr<std::unique_ptr<game::Game>> DecodeBytes(const std::string& bytes) {
  auto env = game::UnwrapState(bytes);
  if (!env.ok()) return env.status();
  if (env->kind != game::Kind::kCheckers) return absl::InvalidArgumentError("kind");
  return Decode(env->version, env->payload);
}

// Plays `n` random legal moves (fewer if the game ends).
void RandomMoves(game::Game& g, int n, std::mt19937& rng) {
  for (int i = 0; i < n && !g.result().over; ++i) {
    auto moves = g.LegalMoves();
    ASSERT_FALSE(moves.empty());
    ASSERT_TRUE(g.Play(moves[rng() % moves.size()]).ok());
  }
}

TEST(Text, HoleNames) {
  EXPECT_EQ(ParseHole("a1"), 0);
  EXPECT_EQ(ParseHole("q1"), 120);
  EXPECT_EQ(HoleName(60), "i5");
  for (const char* bad :
       {"", "a", "a0", "a2", "e14", "e01", "r1", "A1", "i5 ", "1a", "i-5", "e1x"}) {
    EXPECT_EQ(ParseHole(bad), -1) << bad;
  }
}

TEST(Text, PositionRoundTrip) {
  std::mt19937 rng(7);
  for (int seats = 2; seats <= 6; ++seats) {
    for (bool jp : {false, true}) {
      if (jp && seats > 3) continue;
      auto g = *NewGame(Params(seats, jp));
      RandomMoves(*g, 20, rng);
      const std::string text = g->PositionText();
      auto h = FromPosition(Params(seats, jp), text);
      ASSERT_TRUE(h.ok()) << text << ": " << h.status();
      EXPECT_EQ((*h)->PositionText(), text);
      EXPECT_EQ((*h)->Perft(2), g->Perft(2));
    }
  }
}

TEST(Text, MalformedPositionsAreRefused) {
  const char* bad[] = {
      "",
      "a1/q1",
      "a1/q1 0",
      "a1/q1 0 - extra",
      "a1 0 -",        // one list for two seats
      "a1/q1/i5 0 -",  // three lists
      "a1/z9 0 -",     // not a hole
      "a1/a1 0 -",     // a hole twice
      "a1,a1/q1 0 -",
      "a1/q1 2 -",  // no seat 2
      "a1/q1 x -",
      "a1/q1 - -",    // finished games are not loaded
      "a1/q1 0 1",    // places need a number per seat
      "a1/q1 0 1,0",  // only one seat still playing
      "a1/q1 0 3,0",  // place out of range
      "a1/q1 0 0,0,0",
      "Ka1/q1 0 -",                               // a king outside the Japanese rules
      "a1,b1,b2,c1,c2,c3,d1,d2,d3,d4,e5/q1 0 -",  // eleven pieces
      "/q1 0 -",                                  // a seat still playing without pieces
      "a1/q1 0 a,b",
      "a1/q1 00 -",
      "a1,/q1 0 -",
      "a1/q1\t0 -",
  };
  for (const char* text : bad) {
    auto g = FromPosition(Params(2), text);
    EXPECT_FALSE(g.ok()) << "\"" << text << "\"";
    if (!g.ok()) {
      EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument) << text;
    }
  }
  // Japanese: each seat still playing has exactly one king, at most 15 pieces.
  for (const char* text : {"a1/Kq1 0 -", "Ka1,Kb1/Kq1 0 -", "Ka1,b1/q1 0 -"}) {
    EXPECT_FALSE(FromPosition(Params(2, true), text).ok()) << text;
  }
  EXPECT_TRUE(FromPosition(Params(2, true), "Ka1/Kq1 0 -").ok());
  // Places: shared places use up the next ones; the free places must fit the players left.
  EXPECT_TRUE(FromPosition(Params(4), "a1/e1/q1/m13 2 1,1,0,0").ok());
  EXPECT_TRUE(FromPosition(Params(4), "a1/e1/q1/m13 2 1,2,0,0").ok());
  EXPECT_TRUE(FromPosition(Params(4), "a1/e1/q1/m13 2 1,0,0,4").ok());
  EXPECT_FALSE(FromPosition(Params(4), "a1/e1/q1/m13 2 1,1,2,0").ok());
  EXPECT_FALSE(FromPosition(Params(4), "a1/e1/q1/m13 2 2,0,0,0").ok());
}

TEST(Text, MalformedMovesAreInvalidArgument) {
  auto g = *NewGame(Params(2));
  for (const char* text : {"", "-", "d1", "d1-", "-e5", "d1--e5", "d1-e5-", "d1 e5", "d1-z1",
                           "D1-E5", "d1-e05", "d1-e5x"}) {
    auto m = g->ParseMove(text);
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument) << text;
  }
  std::string long_path = "d1";
  for (int i = 0; i < 200; ++i) long_path += "-e5";
  EXPECT_EQ(g->ParseMove(long_path).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(g->LegalMovesFrom("zz").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(g->LegalMovesFrom("q1")->empty());  // not the mover's piece
  game::Move m;
  m.seat = 0;
  m.path = {"d1", "nope"};
  EXPECT_EQ(g->Play(m).status().code(), absl::StatusCode::kInvalidArgument);
  m.path = {"d1", "e5"};
  m.seat = 1;
  EXPECT_EQ(g->Play(m).status().code(), absl::StatusCode::kFailedPrecondition);
  m.seat = 0;
  EXPECT_TRUE(g->Play(m).ok());
  EXPECT_EQ(g->View().last_move->notation, "d1-e5");
}

TEST(Text, RandomTextNeverCrashes) {
  std::mt19937 rng(11);
  const std::string alphabet = "abcdeiqK0123456789,/- \x01\xff";
  auto g = *NewGame(Params(3));
  for (int i = 0; i < 3000; ++i) {
    std::string s;
    int len = rng() % 40;
    for (int j = 0; j < len; ++j) s.push_back(alphabet[rng() % alphabet.size()]);
    auto pos = FromPosition(Params(2 + rng() % 5, rng() % 2 == 0), s);
    if (pos.ok()) (*pos)->LegalMoves();
    auto mv = g->ParseMove(s);
    if (mv.ok()) {
      EXPECT_EQ(mv->seat, 0);
    }
  }
}

TEST(Codec, EncodeDecodeContinuesExactly) {
  std::mt19937 rng(3);
  for (int seats = 2; seats <= 6; ++seats) {
    for (bool jp : {false, true}) {
      if (jp && seats > 3) continue;
      auto p = Params(seats, jp);
      p.options["move_limit"] = "40";
      p.options["anti_blocking"] = "off";
      p.first_seat = seats - 1;
      auto g = *NewGame(p);
      RandomMoves(*g, 25, rng);
      if (seats >= 3) {
        ASSERT_TRUE(g->Act(1, game::Action::kResign, "").ok());
      }
      auto h = DecodeBytes(g->Encode());
      ASSERT_TRUE(h.ok()) << h.status();
      EXPECT_EQ((*h)->Encode(), g->Encode());
      EXPECT_EQ((*h)->options(), g->options());
      EXPECT_EQ((*h)->PositionText(), g->PositionText());
      EXPECT_EQ((*h)->ply(), g->ply());
      EXPECT_EQ((*h)->result().places, g->result().places);
      EXPECT_EQ((*h)->View().last_move, g->View().last_move);
      // Both play on identically to the move limit.
      while (!g->result().over) {
        auto moves = g->LegalMoves();
        ASSERT_EQ(moves, (*h)->LegalMoves());
        const auto& m = moves[rng() % moves.size()];
        auto e1 = g->Play(m);
        auto e2 = (*h)->Play(m);
        ASSERT_TRUE(e1.ok() && e2.ok());
        ASSERT_EQ(e1->size(), e2->size());
      }
      EXPECT_TRUE((*h)->result().over);
      EXPECT_EQ((*h)->result().reason, g->result().reason);
      EXPECT_EQ((*h)->result().places, g->result().places);
      auto over = DecodeBytes(g->Encode());  // a finished game decodes too
      ASSERT_TRUE(over.ok()) << over.status();
      EXPECT_TRUE((*over)->result().over);
    }
  }
}

TEST(Codec, CorruptedAndRandomBytesAreRefusedOrSafe) {
  std::mt19937 rng(5);
  auto g = *NewGame(Params(3, true));
  RandomMoves(*g, 10, rng);
  const std::string good = g->Encode();
  auto env = game::UnwrapState(good);
  ASSERT_TRUE(env.ok());
  const std::string payload(env->payload);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string p = payload;
    switch (i % 4) {
      case 0:  // flip bytes
        for (int k = 0, n = 1 + rng() % 4; k < n; ++k) p[rng() % p.size()] = rng() % 256;
        break;
      case 1:  // truncate
        p.resize(rng() % p.size());
        break;
      case 2:  // append
        p.push_back(static_cast<char>(rng() % 256));
        break;
      default:  // random bytes
        p.resize(rng() % 300);
        for (char& c : p) c = static_cast<char>(rng() % 256);
    }
    auto d = Decode(1, p);
    if (!d.ok()) {
      EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
      continue;
    }
    // Whatever was accepted must be a usable game.
    ++accepted;
    auto& h = **d;
    auto moves = h.LegalMoves();
    h.Perft(1);
    h.PositionText();
    h.View();
    if (!moves.empty()) {
      EXPECT_TRUE(h.Play(moves[0]).ok());
    }
    EXPECT_TRUE(DecodeBytes(h.Encode()).ok());
  }
  EXPECT_LT(accepted, 20000);
  // Through the envelope: any flipped bit fails the checksum.
  for (size_t i = 0; i < good.size(); ++i) {
    std::string b = good;
    b[i] ^= 0x10;
    EXPECT_FALSE(DecodeBytes(b).ok());
  }
  EXPECT_FALSE(Decode(2, payload).ok());  // unknown version
}

}  // namespace
}  // namespace tablero::checkers
