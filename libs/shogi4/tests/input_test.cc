// Notation, options, encoding, and hostile input: malformed text and corrupted bytes give
// errors, never crashes.
#include <gtest/gtest.h>

#include <random>

#include "libs/game/codec.h"
#include "libs/game/testing/mutate.h"
#include "libs/shogi4/game.h"
#include "libs/shogi4/notation.h"
#include "libs/shogi4/shogi4.h"
#include "libs/shogi4/tests/helpers.h"

namespace tablero::shogi4::testing {
namespace {

constexpr char kStart[] =
    "2S2sG2sK2sG2sS2s2/3P2sR2sP2s3/S1e3P2s3S3w/G1eP1e5P3wG3w/K1eR1eP1e3P3wR3wK3w/"
    "G1eP1e5P3wG3w/S1e3P0n3S3w/3P0nR0nP0n3/2S0nG0nK0nG0nS0n2 0 -/-/-/- - 0";

std::unique_ptr<game::Game> New(game::Options options = {}, int first = 0) {
  game::NewGameParams p;
  p.kind = game::Kind::kShogi4;
  p.options = std::move(options);
  p.first_seat = first;
  auto g = games::NewGame(p);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? std::move(*g) : nullptr;
}

TEST(Notation, StartPosition) {
  auto g = New();
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->PositionText(), kStart);
  EXPECT_EQ(g->to_move(), 0);
  game::PublicView v = g->View();
  EXPECT_EQ(v.pieces.size(), 36u);
  EXPECT_EQ(v.hands.size(), 4u);
  EXPECT_EQ(v.active, (std::vector<bool>{true, true, true, true}));
  for (const game::PieceView& p : v.pieces) {
    if (p.square == "5i") {
      EXPECT_EQ(p.type, "K");
      EXPECT_EQ(p.owner, 0);
    }
    if (p.square == "9e") {
      EXPECT_EQ(p.type, "K");
      EXPECT_EQ(p.owner, 1);
      EXPECT_EQ(p.facing, 1);
    }
  }
  auto from = g->LegalMovesFrom("5g");
  ASSERT_TRUE(from.ok());
  ASSERT_EQ(from->size(), 1u);
  EXPECT_EQ((*from)[0].notation, "5g5f");
  EXPECT_EQ((*from)[0].path, (std::vector<std::string>{"5g", "5f"}));
  EXPECT_EQ(g->LegalMovesFrom("z9").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Notation, FirstSeatMovesFirst) {
  auto g = New({}, 2);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->to_move(), 2);
  EXPECT_EQ(g->LegalMoves()[0].seat, 2);
}

TEST(Notation, PositionRoundTripsAndMovesHaveStructure) {
  std::string text =
      "3G1eSxn4/G1e1k2s1S3w4/Pxs1+R3wSxsG3w3G3w/1G1ePxn2S3w3/1Pxs1R1e1Pxn3/"
      "K1e2P1ePxnS3wP3wS3w1/1P3w1Gxn4K3w/PxnP3w1+R1e5/3Gxs+Pxs3k0n 1 -/GP/-/R2S 0:3,2:3 263";
  auto g = Load(text, {{"ending", "last_one_standing"}, {"mated_pieces", "ownerless"}});
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->PositionText(), text);
  auto drops = g->LegalMovesFrom("G*");
  ASSERT_TRUE(drops.ok());
  ASSERT_FALSE(drops->empty());
  EXPECT_EQ((*drops)[0].drop, "G");
  EXPECT_EQ((*drops)[0].path.size(), 1u);
  for (const game::Move& m : g->LegalMoves()) {
    EXPECT_EQ(m.display, m.notation);
    auto back = g->ParseMove(m.notation);
    ASSERT_TRUE(back.ok()) << m.notation;
    EXPECT_EQ(*back, m);
  }
}

TEST(Notation, MalformedPositionsAreInvalidArgument) {
  const std::string s = kStart;
  const std::vector<std::string> bad = {
      "",
      "hello",
      "9/9/9/9/9/9/9/9 0 -/-/-/-",                              // 8 ranks
      s.substr(0, s.find(' ')) + " 0",                          // no hands
      s.substr(0, s.find(' ')) + " 4 -/-/-/-",                  // no such seat
      s.substr(0, s.find(' ')) + " 0 -/-/-",                    // three hands
      s.substr(0, s.find(' ')) + " 0 1P/-/-/-",                 // count 1 written
      s.substr(0, s.find(' ')) + " 0 PP/-/-/-",                 // repeated letter
      s.substr(0, s.find(' ')) + " 0 K/-/-/-",                  // king in hand
      s.substr(0, s.find(' ')) + " 0 99P/-/-/-",                // too many
      s.substr(0, s.find(' ')) + " 0 /-/-/-",                   // empty hand not '-'
      s.substr(0, s.find(' ')) + " 0 -/-/-/- 1:1",              // self-mate
      s.substr(0, s.find(' ')) + " 0 -/-/-/- 1-0",              // bad entry
      s.substr(0, s.find(' ')) + " 0 -/-/-/- - x",              // bad ply
      s.substr(0, s.find(' ')) + " 0 -/-/-/- - 0 extra",        // too many fields
      s.substr(0, s.find(' ')) + " 0 -/-/-/- 1:0",              // live king of mated seat
      "9/9/9/9/9/9/9/9/9 0 -/-/-/-",                            // no kings
      "K0nK0n7/9/9/9/K1e8/9/9/9/K2sK3w7 0 -/-/-/-",             // two kings of seat 0
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n5 0 -/-/-/-",              // 10 squares
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n3 0 -/-/-/-",              // 8 squares
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n3X0n 0 -/-/-/-",           // unknown letter
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n3+G0n 0 -/-/-/-",          // promoted gold
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n3P5n 0 -/-/-/-",           // bad owner
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n3P0q 0 -/-/-/-",           // bad facing
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n3P0 0 -/-/-/-",            // truncated piece
      "4K2s3P0n/9/9/9/K1e7K3w/9/9/9/4K0n4 0 -/-/-/-",           // pawn that can never move
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4Kxn4 0 -/-/-/-",              // ownerless king
      "4k2s4/9/9/9/K1e7K3w/9/9/9/4K0n4 0 -/-/-/-",              // flipped king of a live seat
      "4k2s3/9/9/9/K1e7K3w/9/9/9/4K0n3P2s 0 -/-/-/- 2:0",       // piece of a mated seat
      "4k2s4/9/9/9/K1e7K3w/9/9/9/4K0n4 2 -/-/-/- 2:0",          // mated seat to move
      "4k2s4/9/9/9/K1e7K3w/9/9/9/4K0n4 0 -/-/P/- 2:0",          // hand of a mated seat
      "4k2s4/9/9/9/k1e7k3w/9/9/9/4K0n4 0 -/-/-/- 2:0,1:0,3:0",  // over the two-mate end
      "4k2s4/9/9/9/k1e7K3w/9/9/9/4K0n4 0 -/-/-/- 1:0,2:1",      // mated by an eliminated seat
      "4K2s4/9/9/9/K1e7K3w/9/9/9/4K0n4 0 -/-/-/- - 0\x01",      // control byte
      std::string(3000, '9'),
  };
  for (const std::string& text : bad) {
    game::NewGameParams p;
    p.kind = game::Kind::kShogi4;
    auto g = games::FromPosition(p, text);
    EXPECT_FALSE(g.ok()) << text;
    if (!g.ok()) {
      EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument) << text;
    }
  }
}

TEST(Notation, MalformedAndIllegalMoves) {
  auto g = New();
  ASSERT_NE(g, nullptr);
  for (const char* text : {"", "7g", "7g7", "7g7g", "0a1a", "7j7f", "P*", "K*5e", "p*5e", "7g7f++",
                           "X*5e", "7g7f=", "7g-7f", "P*5e5", "P*0e", "\xff\xfe"}) {
    EXPECT_EQ(g->ParseMove(text).status().code(), absl::StatusCode::kInvalidArgument) << text;
  }
  for (const char* text : {"5g5e", "P*5e", "5i5h", "1a1b", "5g5f+"}) {
    EXPECT_EQ(g->ParseMove(text).status().code(), absl::StatusCode::kFailedPrecondition) << text;
  }
  game::Move m;
  m.seat = 0;
  m.path = {"5g", "5f", "5e"};
  EXPECT_FALSE(g->Play(m).ok());
  m.path = {"zz", "5f"};
  EXPECT_FALSE(g->Play(m).ok());
  EXPECT_EQ(g->ply(), 0);
}

TEST(Options, TableMatchesTheRules) {
  const game::GameInfo& info = Info();
  EXPECT_EQ(info.name, "Four-player Shogi");
  EXPECT_EQ(info.min_seats, 4);
  EXPECT_EQ(info.max_seats, 4);
  std::map<std::string, std::pair<std::string, bool>> want = {
      {"format", {"singles", false}},
      {"ending", {"two_mates", false}},
      {"mated_pieces", {"to_mater", false}},
      {"move_limit", {"0", false}},
      {"pawn_before_flipped_king_forbidden", {"on", false}},
      {"show_legal_moves", {"on", true}},
      {"rotate_first_player", {"on", true}},
  };
  ASSERT_EQ(info.options.size(), want.size());
  for (const game::OptionSpec& o : info.options) {
    ASSERT_TRUE(want.count(o.name)) << o.name;
    EXPECT_EQ(o.default_value, want[o.name].first) << o.name;
    EXPECT_EQ(o.room_level, want[o.name].second) << o.name;
  }
  game::NewGameParams p;
  p.kind = game::Kind::kShogi4;
  for (game::Options bad : std::vector<game::Options>{{{"format", "trios"}},
                                                      {{"move_limit", "-1"}},
                                                      {{"move_limit", "100001"}},
                                                      {{"nope", "on"}},
                                                      {{"show_legal_moves", "yes"}}}) {
    p.options = bad;
    EXPECT_EQ(games::NewGame(p).status().code(), absl::StatusCode::kInvalidArgument);
  }
  p.options = {};
  p.seats = 3;
  EXPECT_FALSE(games::NewGame(p).ok());
}

// Plays `n` random moves (same seed, same moves).
void RandomMoves(game::Game& g, std::mt19937& rng, int n) {
  for (int i = 0; i < n && !g.result().over; ++i) {
    auto moves = g.LegalMoves();
    ASSERT_FALSE(moves.empty());
    auto ev = g.Play(moves[rng() % moves.size()]);
    ASSERT_TRUE(ev.ok()) << ev.status();
  }
}

TEST(Encoding, RoundTripContinuesExactly) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    auto g = New({{"ending", seed % 2 ? "two_mates" : "last_one_standing"},
                  {"mated_pieces", seed % 3 ? "to_mater" : "ownerless"}},
                 static_cast<int>(seed % 4));
    ASSERT_NE(g, nullptr);
    std::mt19937 rng(seed);
    RandomMoves(*g, rng, 60);
    auto d = games::Decode(g->Encode(), game::Kind::kShogi4);
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_EQ((*d)->Encode(), g->Encode());
    EXPECT_EQ((*d)->options(), g->options());
    std::mt19937 a(seed * 7), b(seed * 7);
    for (int i = 0; i < 40 && !g->result().over; ++i) {
      EXPECT_EQ((*d)->PositionText(), g->PositionText());
      ASSERT_EQ((*d)->LegalMoves().size(), g->LegalMoves().size());
      RandomMoves(*g, a, 1);
      RandomMoves(**d, b, 1);
    }
    EXPECT_EQ((*d)->result().places, g->result().places);
    EXPECT_EQ((*d)->View().last_move->notation, g->View().last_move->notation);
  }
}

TEST(Encoding, FinishedGamesRoundTrip) {
  // Two mates: seat 3 was mated before; seat 1 mates seat 2 with a gold drop.
  auto h = Load("K2s8/4R1e4/9/8k3w/9/9/9/4S2s3K1e/4K0n4 1 -/G/RP/- 3:0 30");
  ASSERT_NE(h, nullptr);
  ASSERT_TRUE(h->Play(*h->ParseMove("G*9b")).ok());
  ASSERT_TRUE(h->result().over);
  auto d = games::Decode(h->Encode());
  ASSERT_TRUE(d.ok()) << d.status() << "\n" << h->PositionText();
  EXPECT_EQ((*d)->result().places, h->result().places);
  EXPECT_EQ((*d)->result().reason, "two_mates");
  EXPECT_EQ((*d)->to_move(), -1);
  // A fourth occurrence (only the history shows it).
  auto r =
      Load(Text({{"9b", "R0n"}, {"1a", "K3w"}, {"5d", "K2s"}, {"7g", "K1e"}, {"5i", "K0n"}}, 0));
  ASSERT_NE(r, nullptr);
  const char* cycle[] = {"9b9a", "1a1b", "9a9b", "1b1a"};
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(r->Play(*r->ParseMove(cycle[i % 4])).ok());
  ASSERT_EQ(r->result().reason, "fourth_occurrence");
  auto e = games::Decode(r->Encode());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ((*e)->result().reason, "fourth_occurrence");
  EXPECT_EQ((*e)->result().places, r->result().places);
}

TEST(Encoding, VersionOneStatesStillDecode) {
  // States of games running when version 2 came are version 1 (text): they decode, and
  // the game goes on exactly as from the version-2 state.
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    auto g = New({{"format", seed % 3 ? "singles" : "pairs"},
                  {"ending", seed % 2 ? "two_mates" : "last_one_standing"},
                  {"move_limit", seed == 4 ? "90" : "0"}},
                 static_cast<int>(seed % 4));
    ASSERT_NE(g, nullptr);
    std::mt19937 rng(seed);
    RandomMoves(*g, rng, 40 + 10 * seed);
    auto* sg = dynamic_cast<Shogi4Game*>(g.get());
    ASSERT_NE(sg, nullptr);
    const std::string v1 = sg->EncodeV1();
    auto env = game::UnwrapState(v1);
    ASSERT_TRUE(env.ok());
    EXPECT_EQ(env->version, 1);
    auto d = games::Decode(v1, game::Kind::kShogi4);
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_EQ((*d)->Encode(), g->Encode());
    EXPECT_EQ((*d)->options(), g->options());
    EXPECT_EQ((*d)->PositionText(), g->PositionText());
    EXPECT_EQ(game::UnwrapState(g->Encode())->version, kStateVersion);
    std::mt19937 a(seed * 5), b(seed * 5);
    for (int i = 0; i < 30 && !g->result().over; ++i) {
      ASSERT_EQ((*d)->LegalMoves().size(), g->LegalMoves().size());
      RandomMoves(*g, a, 1);
      RandomMoves(**d, b, 1);
      EXPECT_EQ((*d)->Encode(), g->Encode());
    }
  }
}

// Corrupts `payload` (1-3 byte edits) and checks that `version` decodes it only into a
// consistent game, which behaves; returns how many were accepted.
int CorruptPayloads(const std::string& payload, uint8_t version, std::mt19937& rng, int rounds) {
  int accepted = 0;
  for (int i = 0; i < rounds; ++i) {
    std::string p = payload;
    game::testing::Mutate(&p, rng, 4);
    auto d = games::Decode(game::WrapState(game::Kind::kShogi4, version, p));
    if (d.ok()) {  // still a consistent game: it must behave
      ++accepted;
      (*d)->LegalMoves();
      EXPECT_TRUE(games::Decode((*d)->Encode()).ok());
      // The binary checks are no weaker than the text's: its position parses as text.
      auto rules = RulesFromOptions((*d)->options());
      EXPECT_TRUE(rules.ok());
      if (rules.ok()) {
        EXPECT_TRUE(ParsePosition((*d)->PositionText(), *rules).ok()) << (*d)->PositionText();
      }
    } else {
      EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
  return accepted;
}

TEST(Encoding, LongHistoriesDecode) {
  // Over 192 positions since the last mate: the repetition counts are checked on a sorted
  // copy of the keys instead of the decoder's table.
  bool long_one = false;
  for (uint32_t seed = 1; seed <= 8 && !long_one; ++seed) {
    auto g = New();
    ASSERT_NE(g, nullptr);
    std::mt19937 rng(seed);
    for (int ply = 0; ply < 400 && !g->result().over; ply += 20) {
      RandomMoves(*g, rng, 20);
      const std::string bytes = g->Encode();
      auto d = games::Decode(bytes, game::Kind::kShogi4);
      ASSERT_TRUE(d.ok()) << d.status();
      EXPECT_EQ((*d)->Encode(), bytes);
      long_one |= bytes.size() > 200 * 9 + 300;
    }
  }
  EXPECT_TRUE(long_one);
}

TEST(Encoding, CorruptedBytesAreRefusedNeverTrusted) {
  auto g = New();
  ASSERT_NE(g, nullptr);
  std::mt19937 rng(7);
  RandomMoves(*g, rng, 30);
  const std::string good = g->Encode();
  // Raw corruption: the envelope's checksum catches it.
  for (int i = 0; i < 300; ++i) {
    std::string bytes = good;
    bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
    EXPECT_FALSE(games::Decode(bytes).ok());
  }
  // Corrupted payloads in a valid envelope: the engine's own validation.
  auto env = game::UnwrapState(good);
  ASSERT_TRUE(env.ok());
  const std::string payload(env->payload.data(), env->payload.size());
  EXPECT_LT(CorruptPayloads(payload, kStateVersion, rng, 3000), 3000);
  // The same for a version-1 (text) state.
  auto* sg = dynamic_cast<Shogi4Game*>(g.get());
  ASSERT_NE(sg, nullptr);
  const std::string good1 = sg->EncodeV1();
  auto env1 = game::UnwrapState(good1);
  ASSERT_TRUE(env1.ok());
  const std::string payload1(env1->payload.data(), env1->payload.size());
  EXPECT_LT(CorruptPayloads(payload1, 1, rng, 3000), 3000);
  // Random bytes, with and without a valid envelope.
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(rng() % 200, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    EXPECT_FALSE(games::Decode(bytes).ok());
    EXPECT_FALSE(games::Decode(game::WrapState(game::Kind::kShogi4, 1, bytes)).ok());
    EXPECT_FALSE(games::Decode(game::WrapState(game::Kind::kShogi4, kStateVersion, bytes)).ok());
  }
  // Another version's payload, or an unknown version, is refused.
  {
    auto d2 = games::Decode(game::WrapState(game::Kind::kShogi4, kStateVersion, payload));
    EXPECT_TRUE(d2.ok()) << d2.status();
    auto d1 = games::Decode(game::WrapState(game::Kind::kShogi4, 1, payload1));
    EXPECT_TRUE(d1.ok()) << d1.status();
  }
  EXPECT_FALSE(games::Decode(game::WrapState(game::Kind::kShogi4, 1, payload)).ok());
  EXPECT_FALSE(games::Decode(game::WrapState(game::Kind::kShogi4, kStateVersion, payload1)).ok());
  EXPECT_FALSE(games::Decode(game::WrapState(game::Kind::kShogi4, 3, payload)).ok());
  EXPECT_FALSE(games::Decode(game::WrapState(game::Kind::kShogi4, 0, payload)).ok());
}

TEST(Notation, RandomTextNeverCrashes) {
  std::mt19937 rng(11);
  const std::string alphabet = "0123456789KRGSPkx+nesw/ -*:,abci";
  int ok = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string text;
    if (i % 2) {
      text = kStart;
      for (int k = 0; k < 3; ++k) text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
    } else {
      text.resize(rng() % 120);
      for (char& c : text) c = alphabet[rng() % alphabet.size()];
    }
    game::NewGameParams p;
    p.kind = game::Kind::kShogi4;
    auto g = games::FromPosition(p, text);
    if (g.ok()) {
      ++ok;
      (*g)->LegalMoves();
      EXPECT_TRUE(games::Decode((*g)->Encode()).ok());
    } else {
      EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
    }
    auto g0 = New();
    g0->ParseMove(text.substr(0, rng() % 7)).status().IgnoreError();
  }
  EXPECT_GT(ok, 0);
}

TEST(Perft, DivideSumsToPerft) {
  auto g = New();
  ASSERT_NE(g, nullptr);
  uint64_t total = 0;
  auto div = g->Divide(3);
  EXPECT_EQ(div.size(), 9u);
  for (const auto& [move, n] : div) total += n;
  EXPECT_EQ(total, g->Perft(3));
  EXPECT_EQ(g->Perft(0), 1u);
}

}  // namespace
}  // namespace tablero::shogi4::testing
