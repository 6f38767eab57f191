// The chess game::Game adapter's encoded state (round trips, repetition across decodes,
// forged and garbage bytes refused) and random client input at the Game level.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/chess/game.h"
#include "libs/chess/tests/game_test_util.h"

namespace tablero::chess {
namespace {

using game::Action;
using game::EventType;
using StatusCode = absl::StatusCode;

TEST(State, RoundTripKeepsHistory) {
  auto g = New();
  PlayAll(*g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
  auto back = DecodeBytes(g->Encode());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->Encode(), g->Encode());
  EXPECT_EQ((*back)->PositionText(), g->PositionText());
  EXPECT_EQ((*back)->ply(), 7);
  const auto* cg = dynamic_cast<const ChessGame*>(back->get());
  ASSERT_NE(cg, nullptr);
  EXPECT_EQ(cg->repetition_keys().size(), 8u);
  EXPECT_EQ(cg->repetition_keys()[0], cg->repetition_keys()[4]);
  EXPECT_EQ(cg->moves().size(), 7u);
  EXPECT_EQ(cg->start_position().Fen(), std::string(kStartFen));
  PlayAll(**back, "Ng8");
  EXPECT_EQ((*back)->result().reason, "threefold_repetition");

  auto f = Fide();
  PlayAll(*f, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
  auto fb = DecodeBytes(f->Encode());
  ASSERT_TRUE(fb.ok());
  EXPECT_EQ((*fb)->options().at("draw_mode"), "fide");
  ASSERT_TRUE((*fb)->Act(0, Action::kClaimDraw, "").ok());
  auto claimed = DecodeBytes((*fb)->Encode());
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ((*claimed)->result().reason, "draw_claimed");
}

TEST(State, RoundTripsRandomGames) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 40; ++i) {
    auto g = i % 2 ? Fide() : New();
    for (int ply = 0; ply < 200 && !g->result().over; ++ply) {
      auto moves = g->LegalMoves();
      ASSERT_FALSE(moves.empty());
      ASSERT_TRUE(g->Play(moves[rng() % moves.size()]).ok());
    }
    const std::string bytes = g->Encode();
    // Two bytes a move, two packed positions, eight bytes per position that can repeat.
    const size_t keys = std::min(g->ply(), ParsedHalfmove(*g));
    EXPECT_LT(bytes.size(), 100 + 2 * size_t(g->ply()) + 8 * keys);
    auto back = DecodeBytes(bytes);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ((*back)->Encode(), bytes);
    EXPECT_EQ((*back)->result().reason, g->result().reason);
    EXPECT_EQ((*back)->result().places, g->result().places);
    EXPECT_EQ(*(*back)->Export("pgn"), *g->Export("pgn"));
    EXPECT_EQ((*back)->LegalMoves().size(), g->LegalMoves().size());
  }
}

// A repetition that spans decodes still counts: the keys since the last irreversible
// move travel in the state, and PGN export replays the (unchecked) move list.
TEST(State, RepetitionSpansDecodes) {
  auto g = New();
  PlayAll(*g, "e4 e5 Nf3 Nf6 Ng1 Ng8");
  auto a = DecodeBytes(g->Encode());
  ASSERT_TRUE(a.ok()) << a.status();
  const auto* cg = dynamic_cast<const ChessGame*>(a->get());
  ASSERT_NE(cg, nullptr);
  EXPECT_EQ(cg->repetition_keys().size(), 5u);  // only since e5 can repeat
  EXPECT_EQ(cg->RepetitionCount(), 2);
  PlayAll(**a, "Nf3 Nf6 Ng1");
  auto b = DecodeBytes((*a)->Encode());
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_FALSE((*b)->result().over);
  auto ev = PlayAll(**b, "Ng8");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -2, "threefold_repetition"));
  PlayAll(*g, "Nf3 Nf6 Ng1 Ng8");
  EXPECT_EQ(g->result().reason, "threefold_repetition");
  EXPECT_EQ((*b)->Encode(), g->Encode());
  auto pgn = (*b)->Export("pgn");
  ASSERT_TRUE(pgn.ok()) << pgn.status();
  EXPECT_EQ(*pgn, *g->Export("pgn"));
  EXPECT_NE(pgn->find("1. e4 e5 2. Nf3 Nf6"), std::string::npos) << *pgn;
  const game::PublicView v = (*b)->View();
  ASSERT_TRUE(v.last_move.has_value());
  EXPECT_EQ(v.last_move->display, "Ng8");

  // FIDE mode: the claim after decodes, with the claim's detail as common.proto names it.
  auto f = Fide();
  PlayAll(*f, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
  auto fb = DecodeBytes(f->Encode());
  ASSERT_TRUE(fb.ok());
  auto claim = (*fb)->Act(1, Action::kClaimDraw, "Ng8");
  ASSERT_TRUE(claim.ok()) << claim.status();
  EXPECT_TRUE(Has(*claim, EventType::kDrawClaimed, 1, "threefold_repetition"));
}

// The payload of a game with no moves whose start position is given piece by piece
// (bypassing Position::Pack), to forge positions no FEN would give.
std::string ForgedState(const std::vector<std::pair<Square, Piece>>& pieces, uint8_t side_castling,
                        uint8_t ep_file = 0) {
  game::ByteWriter w;
  w.U8(0);
  uint64_t occ = 0;
  uint8_t code[64];
  for (auto [s, p] : pieces) {
    occ |= uint64_t(1) << s;
    code[s] = p;
  }
  w.U64(occ);
  std::vector<uint8_t> nibbles;
  for (int s = 0; s < 64; ++s)
    if (occ >> s & 1) nibbles.push_back(code[s]);
  for (size_t i = 0; i < nibbles.size(); i += 2)
    w.U8(uint8_t(nibbles[i] | (i + 1 < nibbles.size() ? nibbles[i + 1] << 4 : 0)));
  w.U8(side_castling);
  w.U8(ep_file);
  w.Varint(0);  // halfmove clock
  w.Varint(1);  // fullmove number
  w.Varint(0);  // moves
  w.Varint(0);  // repetition keys
  w.U8(0);      // draw offer
  w.U8(0);      // ending
  return game::WrapState(game::Kind::kChess, 2, w.bytes());
}

TEST(State, ForgedPositionsAreRefused) {
  const Piece K = MakePiece(kWhite, kKing), k = MakePiece(kBlack, kKing);
  const Piece R = MakePiece(kWhite, kRook), P = MakePiece(kWhite, kPawn);
  const Piece p = MakePiece(kBlack, kPawn);
  // The forging itself works: a legal position decodes.
  auto fine = DecodeBytes(ForgedState({{4, K}, {7, R}, {60, k}}, 0 | kWhiteOO << 1));
  ASSERT_TRUE(fine.ok()) << fine.status();
  EXPECT_EQ((*fine)->PositionText(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  auto refused = [](const std::string& bytes, absl::string_view why) {
    auto d = DecodeBytes(bytes);
    EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument) << why;
    EXPECT_NE(d.status().message().find(why), absl::string_view::npos) << d.status();
  };
  refused(ForgedState({{4, K}, {5, K}, {60, k}}, 0), "White needs one king");
  refused(ForgedState({{4, K}, {60, k}, {12, MakePiece(kBlack, kRook)}}, 1),
          "not to move is in check");
  refused(ForgedState({{4, K}, {12, R}, {60, k}}, 0), "not to move is in check");
  refused(ForgedState({{4, K}, {60, k}}, 0 | kWhiteOO << 1), "castling right");
  refused(ForgedState({{4, K}, {56, P}, {60, k}}, 0), "pawn on the first or last rank");
  // En passant on e6 needs a black pawn on e5 and a white pawn beside it.
  refused(ForgedState({{4, K}, {60, k}, {36, p}}, 0, 5), "en passant");
  auto ep = DecodeBytes(ForgedState({{4, K}, {60, k}, {36, p}, {35, P}}, 0, 5));
  ASSERT_TRUE(ep.ok()) << ep.status();
  EXPECT_EQ((*ep)->PositionText(), "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
  EXPECT_EQ((*ep)->LegalMoves().size(), 7u);  // 5 king moves, d6, dxe6
}

// A forged move list (the current position still legal) is caught when the moves are
// needed: Export replays them and says what is wrong.
TEST(State, ForgedHistoryIsCaughtOnExport) {
  auto g = New();
  PlayAll(*g, "e4 e5 Nf3");
  const std::string bytes = g->Encode();
  auto env = game::UnwrapState(bytes);
  ASSERT_TRUE(env.ok());
  std::string payload(env->payload);
  game::ByteWriter start;
  Position::StartPosition().Pack(&start);
  const size_t first = 1 + start.bytes().size() + 1;  // flags, start, move count
  const Move e2e4 = Move::Make(12, 28), e2e3 = Move::Make(12, 20);
  ASSERT_EQ(uint8_t(payload[first]), uint8_t(e2e4.raw()));
  payload[first] = char(uint8_t(e2e3.raw()));
  payload[first + 1] = char(uint8_t(e2e3.raw() >> 8));
  auto d = DecodeBytes(game::WrapState(game::Kind::kChess, 2, payload));
  ASSERT_TRUE(d.ok()) << d.status();  // not replayed on decode
  EXPECT_EQ((*d)->PositionText(), g->PositionText());
  auto pgn = (*d)->Export("pgn");
  EXPECT_EQ(pgn.status().code(), StatusCode::kInvalidArgument);
  const auto* cg = dynamic_cast<const ChessGame*>(d->get());
  EXPECT_FALSE(cg->CheckHistory().ok());
  EXPECT_TRUE(dynamic_cast<const ChessGame*>(g.get())->CheckHistory().ok());
  EXPECT_TRUE(PlayText(**d, "Nc6").ok());  // play goes on from the (legal) position
}

TEST(State, GarbageIsRefused) {
  std::mt19937_64 rng(11);
  auto g = New();
  PlayAll(*g, "e4 e5 Nf3 Nc6 Bb5 a6");
  ASSERT_TRUE(g->Act(0, Action::kOfferDraw, "").ok());
  const std::string good = g->Encode();
  auto env = game::UnwrapState(good);
  ASSERT_TRUE(env.ok());
  const std::string payload(env->payload);
  EXPECT_EQ(Decode(1, payload).status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(Decode(1, payload).status().message().find("version 1"), absl::string_view::npos);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string p = payload;
    switch (i % 4) {
      case 0:  // truncation
        p.resize(rng() % p.size());
        break;
      case 1:  // bit flips
        for (int k = 1 + int(rng() % 3); k > 0; --k) p[rng() % p.size()] ^= char(1 << (rng() % 8));
        break;
      case 2:  // random bytes
        p.resize(rng() % 64);
        for (char& c : p) c = char(rng());
        break;
      default:  // appended bytes
        p += char(rng());
    }
    auto d = Decode(2, p);
    if (d.ok()) {
      ++accepted;  // a flip may still spell a valid state: it must then be self-consistent
      auto again = DecodeBytes((*d)->Encode());
      ASSERT_TRUE(again.ok());
      EXPECT_EQ((*again)->Encode(), (*d)->Encode());
    } else {
      EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
    }
    // Through the envelope, the checksum refuses the change.
    if (p != payload) {
      std::string wrapped = good;
      wrapped.replace(4, payload.size(), p);
      EXPECT_FALSE(DecodeBytes(wrapped).ok());
    }
  }
  EXPECT_LT(accepted, 5000);
}

// Random client input at the Game level: errors of the documented kinds, never a crash.
TEST(Fuzz, RandomClientInput) {
  std::mt19937_64 rng(3);
  const std::string chars = "abcdefghi0123456789NBRQKqrbnxO-=+# ";
  auto text = [&](int max) {
    std::string s;
    for (int n = int(rng() % max); n > 0; --n) s += chars[rng() % chars.size()];
    return s;
  };
  auto ok_code = [](const absl::Status& s) {
    return s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kFailedPrecondition;
  };
  auto g = Fide("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (int i = 0; i < 5000 && !g->result().over; ++i) {
    auto from = g->LegalMovesFrom(text(4));
    if (!from.ok()) {
      EXPECT_EQ(from.status().code(), StatusCode::kInvalidArgument);
    }
    auto parsed = g->ParseMove(text(8));
    if (!parsed.ok()) {
      EXPECT_TRUE(ok_code(parsed.status())) << parsed.status();
    }
    game::Move m;
    m.seat = int(rng() % 3) - 1;
    for (int k = int(rng() % 4); k > 0; --k) m.path.push_back(text(4));
    m.promotion = text(2);
    auto played = g->Play(m);
    if (!played.ok()) {
      EXPECT_TRUE(ok_code(played.status())) << played.status();
    }
    const int seat = int(rng() % 4) - 1;
    if (rng() % 8 == 0) {
      auto claim = g->Act(seat, Action::kClaimDraw, text(6));
      if (!claim.ok()) {
        EXPECT_TRUE(ok_code(claim.status())) << claim.status();
      }
    }
    // Keep the game going with a real move now and then.
    if (i % 10 == 0 && !g->result().over) {
      auto moves = g->LegalMoves();
      ASSERT_TRUE(g->Play(moves[rng() % moves.size()]).ok());
    }
  }
  EXPECT_GT(g->ply(), 5);
}

}  // namespace
}  // namespace tablero::chess
