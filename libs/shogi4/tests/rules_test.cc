// Scenario tests: one per rule, each built from a position in the notation.
#include <gtest/gtest.h>

#include "libs/shogi4/tests/helpers.h"

namespace tablero::shogi4::testing {
namespace {

using game::EventType;

TEST(CheckPriority, DoubleCheckIsAnsweredInClockwiseOrderAndSkippedTurnsAreLost) {
  // Seat 0's rook goes to 6e and checks seats 1 (9e) and 3 (1e) along rank e.
  auto g =
      Load(Text({{"5a", "K2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"6f", "R0n"}, {"5i", "K0n"}}, 0));
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "6f6e");
  EXPECT_TRUE(Has(ev, EventType::kCheck, 1, 0));
  EXPECT_TRUE(Has(ev, EventType::kCheck, 3, 0));
  EXPECT_EQ(InCheck(*g), (std::vector<int>{1, 3}));
  EXPECT_EQ(g->to_move(), 1);  // nearest checked seat clockwise from the mover
  Play(*g, "9e9d");
  EXPECT_EQ(g->to_move(), 3);  // seat 3 is still in check: it answers before seat 2
  Play(*g, "1e1d");
  EXPECT_EQ(g->to_move(), 0);  // play continues clockwise from seat 3: seat 2's turn is lost
}

TEST(CheckPriority, CheckFromAnEarlierMoveStillTakesPriority) {
  // Seat 3 is in check from seat 0's rook while seat 1 moves: after seat 1's move, seat 3
  // (in check) comes before seat 2.
  auto g =
      Load(Text({{"5a", "K2s"}, {"9g", "K1e"}, {"1e", "K3w"}, {"6e", "R0n"}, {"5i", "K0n"}}, 1));
  ASSERT_NE(g, nullptr);
  Play(*g, "9g9f");
  EXPECT_EQ(g->to_move(), 3);
}

TEST(Mate, DiscoveredCheckByAThirdPlayersRookIsCreditedToTheLastMover) {
  // Seat 1's rook on 9e blocks seat 3's rook (9i) from seat 2's king on 9a; seat 3's other
  // rook (8i) covers 8a and 8b. Seat 1 moves away: seat 2 is mated, credited to seat 1.
  auto g = Load(Text({{"9a", "K2s"},
                      {"1c", "K3w"},
                      {"9e", "R1e"},
                      {"5g", "K0n"},
                      {"1g", "K1e"},
                      {"9i", "R3w"},
                      {"8i", "R3w"}},
                     1, "-/-/-/-"));
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "9e7e");
  EXPECT_TRUE(Has(ev, EventType::kMate, 2, 1));
  EXPECT_TRUE(Has(ev, EventType::kElimination, 2, 1));
  EXPECT_FALSE(g->View().active[2]);
  EXPECT_NE(g->PositionText().find(" 2:1 "), std::string::npos) << g->PositionText();
  EXPECT_NE(g->PositionText().find("k2s"), std::string::npos);  // the flipped king stays
  EXPECT_EQ(g->to_move(), 3);
  EXPECT_FALSE(g->result().over);
}

TEST(Mate, NoLegalMoveWithoutCheckIsMate) {
  // Seat 2's king on 9a is not attacked, but 8a, 8b and 9b are, and it has nothing else.
  auto g = Load(Text(
      {{"9a", "K2s"}, {"1b", "R3w"}, {"1e", "K3w"}, {"5g", "K0n"}, {"1g", "K1e"}, {"8i", "R3w"}},
      1));
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(InCheck(*g).empty());
  auto ev = Play(*g, "1g2g");
  EXPECT_TRUE(Has(ev, EventType::kMate, 2, 1));
  EXPECT_FALSE(Has(ev, EventType::kCheck, 2));
  EXPECT_EQ(g->to_move(), 3);
}

// Seat 1 drops a gold on 9b (protected by its rook on 5b): seat 2 (king 9a, silver 5h
// facing south that attacks seat 0's king, hand R P) is mated.
std::string TransferPosition() {
  return Text({{"9a", "K2s"},
               {"5b", "R1e"},
               {"1d", "K3w"},
               {"5h", "S2s"},
               {"1h", "K1e"},
               {"5i", "K0n"},
               {"4i", "G0n"}},
              1, "-/G/RP/-");
}

TEST(Mate, PiecesPassToTheMaterWithTheirFacingAndGiveCheckAtOnce) {
  auto g = Load(TransferPosition());
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "G*9b");
  EXPECT_TRUE(Has(ev, EventType::kMate, 2, 1));
  EXPECT_TRUE(Has(ev, EventType::kPiecesPassed, 2, 1));
  game::PublicView v = g->View();
  for (const game::PieceView& p : v.pieces) {
    if (p.square == "5h") {
      EXPECT_EQ(p.owner, 1);
      EXPECT_EQ(p.facing, 2);  // keeps facing south
    }
    if (p.square == "9a") {
      EXPECT_TRUE(p.flipped);
    }
  }
  EXPECT_EQ(v.hands[1], (std::vector<std::pair<std::string, int>>{{"R", 1}, {"P", 1}}));
  EXPECT_TRUE(v.hands[2].empty());
  // The inherited silver checks seat 0, who therefore moves before seat 3.
  EXPECT_TRUE(Has(ev, EventType::kCheck, 0, 1));
  EXPECT_EQ(g->to_move(), 0);
}

TEST(Mate, OwnerlessPiecesNeitherMoveNorCheckAndAnyoneMayCaptureThem) {
  auto g = Load(TransferPosition(), {{"mated_pieces", "ownerless"}});
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "G*9b");
  EXPECT_TRUE(Has(ev, EventType::kPiecesPassed, 2, -1));
  game::PublicView v = g->View();
  for (const game::PieceView& p : v.pieces) {
    if (p.square == "5h") {
      EXPECT_EQ(p.owner, -1);
    }
  }
  EXPECT_EQ(v.hands[1], (std::vector<std::pair<std::string, int>>{{"R", 1}, {"P", 1}}));
  EXPECT_TRUE(v.in_check.empty());  // the ownerless silver gives no check
  EXPECT_EQ(g->to_move(), 3);
  auto from = g->LegalMovesFrom("5h");  // and nobody moves it
  ASSERT_TRUE(from.ok());
  EXPECT_TRUE(from->empty());
  Play(*g, "1d1c");
  // Seat 0's gold may capture the ownerless silver into hand.
  EXPECT_TRUE(Moves(*g).count("4i5h"));
  auto cap = Play(*g, "4i5h");
  EXPECT_TRUE(Has(cap, EventType::kCapture, 0, -1));
  EXPECT_EQ(g->View().hands[0], (std::vector<std::pair<std::string, int>>{{"S", 1}}));
}

TEST(Promotion, InheritedPieceUsesItsOwnFacing) {
  // Seat 1 (facing east) owns pawns inherited from seat 2, facing south.
  auto g = Load(Text(
      {{"5a", "k2s"}, {"7f", "P1s"}, {"3c", "P1s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 1,
      "-/-/-/-", "2:1"));
  ASSERT_NE(g, nullptr);
  auto m = Moves(*g);
  EXPECT_TRUE(m.count("7f7g+"));  // enters rank g: the zone of a south-facing piece
  EXPECT_TRUE(m.count("7f7g"));
  EXPECT_FALSE(m.count("3c3d+"));  // files 1-3 are seat 1's own zone, not this pawn's
  EXPECT_TRUE(m.count("3c3d"));
}

TEST(Promotion, PawnMustPromoteOnItsLastRank) {
  auto g =
      Load(Text({{"5a", "K2s"}, {"8b", "P0n"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 0));
  ASSERT_NE(g, nullptr);
  auto m = Moves(*g);
  EXPECT_TRUE(m.count("8b8a+"));
  EXPECT_FALSE(m.count("8b8a"));
  EXPECT_EQ(g->ParseMove("8b8a").status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Promotion, NoPawnDropOnTheLastRankOfTheDropper) {
  // Seat 0's last rank is a; seat 1's (facing east) is file 1.
  auto g = Load(Text({{"5a", "K2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 0, "P/P/-/-"));
  ASSERT_NE(g, nullptr);
  auto m = Moves(*g);
  EXPECT_FALSE(m.count("P*8a"));
  EXPECT_TRUE(m.count("P*8b"));
  EXPECT_TRUE(m.count("P*1a") == false && m.count("P*1b"));
  auto g1 = Load(Text({{"5a", "K2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 1, "P/P/-/-"));
  ASSERT_NE(g1, nullptr);
  auto m1 = Moves(*g1);
  EXPECT_FALSE(m1.count("P*1b"));
  EXPECT_TRUE(m1.count("P*8a"));
}

TEST(Nifu, InheritedPawnFacingAnotherWayDoesNotCountButOwnPawnDoes) {
  auto g = Load(Text({{"5a", "K2s"},
                      {"5e", "P0e"},  // inherited from seat 1 (mated), faces east
                      {"3g", "P0n"},  // seat 0's own pawn
                      {"9e", "k1e"},
                      {"1e", "K3w"},
                      {"5i", "K0n"}},
                     0, "P/-/-/-", "1:0"));
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(g->ParseMove("P*5g").ok());
  auto refused = g->ParseMove("P*3e");
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("nifu"), absl::string_view::npos);
}

TEST(Nifu, SidewaysSeatsCountRanks) {
  // Seat 1 faces east: its "files" are ranks.
  auto g = Load(Text({{"5a", "K2s"}, {"7e", "P1e"}, {"9g", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 1,
                     "-/P/-/-"));
  ASSERT_NE(g, nullptr);
  EXPECT_FALSE(g->ParseMove("P*3e").ok());
  EXPECT_TRUE(g->ParseMove("P*5e").status().code() == absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(g->ParseMove("P*5d").ok());
}

// Seat 2's king on 5a between its own pawns; seat 0 holds a pawn.
std::map<std::string, std::string> DropMateBoard() {
  return {{"6a", "P2s"}, {"5a", "K2s"}, {"4a", "P2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}};
}

TEST(PawnDropMate, RefusedWhenTheKingCouldNotAnswer) {
  auto board = DropMateBoard();
  board["5c"] = "G0n";  // protects 5b and covers 4b, 6b
  auto g = Load(Text(board, 0, "P/-/-/-"));
  ASSERT_NE(g, nullptr);
  auto m = g->ParseMove("P*5b");
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(m.status().message().find("pawn-drop mate"), absl::string_view::npos);
  EXPECT_TRUE(g->ParseMove("P*5d").ok());
}

TEST(PawnDropMate, RefusedEvenWhenAnotherSeatWouldMoveFirst) {
  auto board = DropMateBoard();
  board["5c"] = "G0n";
  board["9h"] = "R0n";  // seat 1 (king 9e) is in check and would be picked before seat 2
  auto g = Load(Text(board, 0, "P/-/-/-"));
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(InCheck(*g), (std::vector<int>{1}));
  auto m = g->ParseMove("P*5b");
  EXPECT_NE(m.status().message().find("pawn-drop mate"), absl::string_view::npos);
}

TEST(PawnDropMate, PawnDropCheckThatIsNotMateIsAllowed) {
  auto g = Load(Text(DropMateBoard(), 0, "P/-/-/-"));  // the king can take the pawn
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "P*5b");
  EXPECT_TRUE(Has(ev, EventType::kCheck, 2, 0));
  EXPECT_EQ(g->to_move(), 2);
  EXPECT_TRUE(Moves(*g).count("5a5b"));
}

std::string FlippedKingPosition(int to_move) {
  return Text({{"5a", "k2s"}, {"5c", "P0n"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, to_move,
              "P/P/-/-", "2:3");
}

TEST(FlippedKing, PawnInFrontOfAFlippedKingForbiddenByDefault) {
  auto g = Load(FlippedKingPosition(0));
  ASSERT_NE(g, nullptr);
  auto m = Moves(*g);
  EXPECT_FALSE(m.count("5c5b"));
  EXPECT_TRUE(m.count("5c5b+"));  // promoting there is fine
  auto refused = g->ParseMove("5c5b");
  EXPECT_NE(refused.status().message().find("flipped king"), absl::string_view::npos);
  // Seat 1 faces east: 6a is in front of the flipped king on 5a.
  auto g1 = Load(FlippedKingPosition(1));
  ASSERT_NE(g1, nullptr);
  EXPECT_FALSE(Moves(*g1).count("P*6a"));
  EXPECT_TRUE(Moves(*g1).count("P*6b"));
}

TEST(FlippedKing, PawnInFrontAllowedWhenTheOptionIsOff) {
  game::Options off = {{"pawn_before_flipped_king_forbidden", "off"}};
  auto g = Load(FlippedKingPosition(0), off);
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(Moves(*g).count("5c5b"));
  auto g1 = Load(FlippedKingPosition(1), off);
  ASSERT_NE(g1, nullptr);
  EXPECT_TRUE(Moves(*g1).count("P*6a"));
}

TEST(FlippedKing, IsAnObstacleNothingCapturesOrPasses) {
  auto g = Load(Text({{"5a", "k2s"}, {"9a", "R0n"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 0,
                     "-/-/-/-", "2:3"));
  ASSERT_NE(g, nullptr);
  auto m = Moves(*g);
  EXPECT_TRUE(m.count("9a6a"));
  EXPECT_FALSE(m.count("9a5a"));
  EXPECT_FALSE(m.count("9a4a"));
}

TEST(KingSafety, MoveLeavingTheKingAttackedIsRefusedWithTheRuleNamed) {
  // Seat 0's gold on 5h is pinned by seat 2's rook on 5a.
  auto g = Load(Text(
      {{"5a", "R2s"}, {"1a", "K2s"}, {"5h", "G0n"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}},
      0));
  ASSERT_NE(g, nullptr);
  auto m = g->ParseMove("5h4h");
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(m.status().message().find("leaves your king in check"), absl::string_view::npos);
}

TEST(KingSafety, TwoLiveKingsNeverStandSideBySide) {
  auto g =
      Load(Text({{"5a", "K2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5g", "K0n"}, {"5e", "G0n"}}, 0));
  ASSERT_NE(g, nullptr);
  // 5f is next to nothing; moving the king to 5f is fine; 4e area: seat 3's king is far.
  EXPECT_TRUE(Moves(*g).count("5g5f"));
  auto g2 = Load(Text({{"5a", "K2s"}, {"9e", "K1e"}, {"3e", "K3w"}, {"5g", "K0n"}}, 0));
  ASSERT_NE(g2, nullptr);
  EXPECT_FALSE(Moves(*g2).count("5g4f"));  // 4f touches seat 3's king on 3e
  EXPECT_TRUE(Moves(*g2).count("5g5f"));
}

// Seat 0's rook shuttles 9a/9b checking seat 3's king, which shuttles 1a/1b.
std::string PerpetualPosition(bool seat3_to_move) {
  if (seat3_to_move) {
    return Text({{"9a", "R0n"}, {"1a", "K3w"}, {"5d", "K2s"}, {"7g", "K1e"}, {"5i", "K0n"}}, 3);
  }
  return Text({{"9b", "R0n"}, {"1a", "K3w"}, {"5d", "K2s"}, {"7g", "K1e"}, {"5i", "K0n"}}, 0);
}

TEST(Repetition, PerpetualCheckIsRefusedToTheCheckerOnTheFourthOccurrence) {
  auto g = Load(PerpetualPosition(true));
  ASSERT_NE(g, nullptr);
  const char* cycle[] = {"1a1b", "9a9b", "1b1a", "9b9a"};
  for (int i = 0; i < 11; ++i) {
    Play(*g, cycle[i % 4]);
    ASSERT_FALSE(g->result().over) << i;
  }
  EXPECT_EQ(g->to_move(), 0);
  auto m = g->ParseMove("9b9a");
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(m.status().message().find("perpetual check"), absl::string_view::npos);
  EXPECT_FALSE(Moves(*g).count("9b9a"));
  EXPECT_TRUE(Moves(*g).count("9b8b"));
  // The history survives an encode/decode round trip.
  auto d = games::Decode(g->Encode());
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_FALSE(Moves(**d).count("9b9a"));
}

TEST(Repetition, OrdinaryFourthOccurrenceEndsTheGameWithRanking) {
  auto g = Load(PerpetualPosition(false));
  ASSERT_NE(g, nullptr);
  const char* cycle[] = {"9b9a", "1a1b", "9a9b", "1b1a"};
  for (int i = 0; i < 12; ++i) {
    ASSERT_FALSE(g->result().over) << i;
    auto ev = Play(*g, cycle[i % 4]);
    if (i == 11) {
      EXPECT_TRUE(Has(ev, EventType::kGameOver, -1));
    }
  }
  game::Result r = g->result();
  EXPECT_TRUE(r.over);
  EXPECT_EQ(r.reason, "fourth_occurrence");
  EXPECT_EQ(r.places, (std::vector<int>{1, 2, 2, 2}));  // seat 0 has the rook as well
  EXPECT_EQ(g->to_move(), -1);
  EXPECT_TRUE(g->LegalMoves().empty());
}

TEST(Pairs, NoNewCheckOnThePartner) {
  game::Options pairs = {{"format", "pairs"}};
  auto g = Load(
      Text({{"5a", "K2s"}, {"4e", "R0n"}, {"9c", "K1e"}, {"1g", "K3w"}, {"5i", "K0n"}}, 0), pairs);
  ASSERT_NE(g, nullptr);
  auto m = g->ParseMove("4e5e");
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(m.status().message().find("partner"), absl::string_view::npos);
  EXPECT_TRUE(g->ParseMove("4e4c").ok());  // checks seat 1 on rank c: fine
  // In singles the same move is legal.
  auto s =
      Load(Text({{"5a", "K2s"}, {"4e", "R0n"}, {"9c", "K1e"}, {"1g", "K3w"}, {"5i", "K0n"}}, 0));
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->ParseMove("4e5e").ok());
}

TEST(Pairs, TheFirstMateEndsTheGame) {
  auto g = Load(TransferPosition(), {{"format", "pairs"}});
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "G*9b");
  EXPECT_TRUE(Has(ev, EventType::kMate, 2, 1));
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -1));
  game::Result r = g->result();
  EXPECT_TRUE(r.over);
  EXPECT_EQ(r.reason, "pairs_mate");
  EXPECT_EQ(r.places, (std::vector<int>{2, 1, 2, 1}));
}

TEST(MoveLimit, SinglesRanksSurvivorsByMatesThenPieces) {
  auto g = Load(Text({{"5a", "K2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}, {"9i", "G0n"}}, 0,
                     "-/-/-/S", "-", 9),
                {{"move_limit", "10"}});
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "5i5h");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -1));
  game::Result r = g->result();
  EXPECT_EQ(r.reason, "move_limit");
  EXPECT_EQ(r.places, (std::vector<int>{1, 3, 3, 1}));  // 2 pieces for seats 0 and 3
}

TEST(MoveLimit, PairsIsADrawWithNoRanking) {
  auto g = Load(Text({{"5a", "K2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}, {"9i", "G0n"}}, 0,
                     "-/-/-/S", "-", 9),
                {{"move_limit", "10"}, {"format", "pairs"}});
  ASSERT_NE(g, nullptr);
  Play(*g, "5i5h");
  game::Result r = g->result();
  EXPECT_TRUE(r.over);
  EXPECT_EQ(r.reason, "move_limit");
  EXPECT_EQ(r.places, (std::vector<int>{1, 1, 1, 1}));
}

TEST(Ending, TwoMatesEndsTheGameAfterTheSecondMateByDefault) {
  // Seat 3 already mated (by seat 0); seat 1 now mates seat 2.
  std::string text = Text(
      {{"9a", "K2s"}, {"5b", "R1e"}, {"1d", "k3w"}, {"5h", "S2s"}, {"1h", "K1e"}, {"5i", "K0n"}}, 1,
      "-/G/RP/-", "3:0");
  auto g = Load(text);
  ASSERT_NE(g, nullptr);
  auto ev = Play(*g, "G*9b");
  EXPECT_TRUE(Has(ev, EventType::kGameOver, -1));
  game::Result r = g->result();
  EXPECT_EQ(r.reason, "two_mates");
  // One mate each; seat 1 has more pieces (king, rook, gold, silver, R, P + flipped king).
  EXPECT_EQ(r.places, (std::vector<int>{2, 1, 3, 4}));

  auto los = Load(text, {{"ending", "last_one_standing"}});
  ASSERT_NE(los, nullptr);
  Play(*los, "G*9b");
  EXPECT_FALSE(los->result().over);
  // Play goes on, and the two mated seats already have their final places (first mated
  // last): a front end shows them at once, not when the game ends.
  EXPECT_EQ(los->result().places, (std::vector<int>{0, 0, 3, 4}));
  EXPECT_EQ(los->View().active, (std::vector<bool>{true, true, false, false}));
}

TEST(Ending, LastOneStandingPlacesFollowEliminationOrder) {
  auto g = Load(Text({{"5a", "k2s"}, {"9e", "k1e"}, {"1e", "k3w"}, {"5i", "K0n"}}, 0, "-/-/-/-",
                     "2:0,3:0,1:0"),
                {{"ending", "last_one_standing"}});
  ASSERT_NE(g, nullptr);
  game::Result r = g->result();
  EXPECT_TRUE(r.over);
  EXPECT_EQ(r.reason, "last_one_standing");
  EXPECT_EQ(r.places, (std::vector<int>{1, 2, 4, 3}));
}

// Two mates recorded in the text: the survivors' tie-breaks.
game::Result Ranked(const std::map<std::string, std::string>& extra, const std::string& hands,
                    const std::string& elim) {
  std::map<std::string, std::string> board = {
      {"5a", "k2s"}, {"9e", "K1e"}, {"1e", "k3w"}, {"5i", "K0n"}};
  for (const auto& [sq, p] : extra) board[sq] = p;
  auto g = Load(Text(board, 0, hands, elim));
  EXPECT_NE(g, nullptr);
  return g ? g->result() : game::Result{};
}

TEST(Ranking, MatesMadeComeFirst) {
  game::Result r = Ranked({{"9a", "R1e"}, {"8a", "R1e"}}, "-/4G/-/-", "2:0,3:0");
  EXPECT_EQ(r.reason, "two_mates");
  EXPECT_EQ(r.places, (std::vector<int>{1, 2, 4, 3}));
}

TEST(Ranking, ThenTotalPieces) {
  game::Result r = Ranked({{"9a", "R0n"}}, "-/-/-/-", "2:0,3:1");
  EXPECT_EQ(r.places, (std::vector<int>{1, 2, 4, 3}));
  r = Ranked({{"9a", "R0n"}}, "-/2P/-/-", "2:0,3:1");
  EXPECT_EQ(r.places, (std::vector<int>{2, 1, 4, 3}));
}

TEST(Ranking, ThenTheLaterLastMate) {
  game::Result r = Ranked({}, "-/-/-/-", "2:0,3:1");
  EXPECT_EQ(r.places, (std::vector<int>{2, 1, 4, 3}));
  r = Ranked({}, "-/-/-/-", "3:1,2:0");
  EXPECT_EQ(r.places, (std::vector<int>{1, 2, 3, 4}));
}

TEST(Ranking, MoveLimitTiesShareAndEliminatedSeatsComeLast) {
  // Seat 1 mated by seat 0; at the move limit seat 0 leads on mates; 2 and 3 tie.
  auto g = Load(
      Text({{"5a", "K2s"}, {"9e", "k1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 0, "-/-/-/-", "1:0", 20),
      {{"move_limit", "20"}});
  ASSERT_NE(g, nullptr);
  game::Result r = g->result();
  EXPECT_EQ(r.reason, "move_limit");
  EXPECT_EQ(r.places, (std::vector<int>{1, 4, 2, 2}));
  // Equal mates: pieces decide.
  auto h = Load(
      Text({{"5a", "K2s"}, {"9e", "K1e"}, {"1e", "K3w"}, {"5i", "K0n"}}, 0, "-/-/S/-", "-", 20),
      {{"move_limit", "20"}});
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->result().places, (std::vector<int>{2, 2, 1, 2}));
}

TEST(Actions, ShogiHasNoResignationOrDraws) {
  auto g = Load(PerpetualPosition(false));
  ASSERT_NE(g, nullptr);
  auto r = g->Act(0, game::Action::kResign, "");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("no resignation"), absl::string_view::npos);
  EXPECT_EQ(g->Act(0, game::Action::kOfferDraw, "").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(Play, WrongSeatAndGameOverAreRefused) {
  auto g = Load(PerpetualPosition(false));
  ASSERT_NE(g, nullptr);
  auto m = g->ParseMove("9b9a");
  ASSERT_TRUE(m.ok());
  game::Move wrong = *m;
  wrong.seat = 2;
  EXPECT_EQ(g->Play(wrong).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace tablero::shogi4::testing
