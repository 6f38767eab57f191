// One scenario per rule and option, through the common game interface.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "libs/checkers/checkers.h"

namespace tablero::checkers {
namespace {

using game::EventType;

std::unique_ptr<game::Game> Load(int seats, const std::string& text, game::Options options = {}) {
  game::NewGameParams p;
  p.kind = game::Kind::kCheckers;
  p.seats = seats;
  p.options = std::move(options);
  auto g = FromPosition(p, text);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : nullptr;
}

std::unique_ptr<game::Game> Start(int seats, game::Options options = {}, int first = 0) {
  game::NewGameParams p;
  p.kind = game::Kind::kCheckers;
  p.seats = seats;
  p.options = std::move(options);
  p.first_seat = first;
  auto g = NewGame(p);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : nullptr;
}

const game::Options kJapanese = {{"rules", "japanese"}};

std::set<std::string> Dests(const game::Game& g, const std::string& from) {
  std::set<std::string> out;
  auto moves = g.LegalMovesFrom(from);
  EXPECT_TRUE(moves.ok());
  for (const auto& m : *moves) out.insert(m.path.back());
  return out;
}

std::string ListedPath(const game::Game& g, const std::string& from, const std::string& to) {
  auto moves = g.LegalMovesFrom(from);
  if (!moves.ok()) return "";
  for (const auto& m : *moves)
    if (m.path.back() == to) return m.notation;
  return "";
}

std::vector<game::Event> PlayText(game::Game& g, const std::string& text) {
  auto m = g.ParseMove(text);
  EXPECT_TRUE(m.ok()) << text << ": " << m.status();
  if (!m.ok()) return {};
  auto ev = g.Play(*m);
  EXPECT_TRUE(ev.ok()) << text << ": " << ev.status();
  return ev.ok() ? *ev : std::vector<game::Event>{};
}

std::vector<EventType> Types(const std::vector<game::Event>& ev) {
  std::vector<EventType> out;
  for (const auto& e : ev) out.push_back(e.type);
  return out;
}

void ExpectRefused(const game::Game& g, const std::string& text, const std::string& why) {
  auto m = g.ParseMove(text);
  ASSERT_FALSE(m.ok()) << text;
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition) << m.status();
  EXPECT_NE(m.status().message().find(why), absl::string_view::npos) << m.status();
}

TEST(Info, OptionsAndSeats) {
  const game::GameInfo& info = Info();
  EXPECT_EQ(info.name, "Chinese Checkers");
  EXPECT_EQ(info.min_seats, 2);
  EXPECT_EQ(info.max_seats, 6);
  std::vector<std::string> names;
  for (const auto& o : info.options) names.push_back(o.name + "=" + o.default_value);
  EXPECT_EQ(names, (std::vector<std::string>{"rules=international", "anti_blocking=on",
                                             "play_to_end=on", "move_limit=200",
                                             "show_legal_moves=on", "rotate_first_player=on"}));
  EXPECT_TRUE(info.options[4].room_level && info.options[5].room_level);
  EXPECT_EQ(info.options[3].min, 0);
  EXPECT_EQ(info.options[3].max, 1000);
  game::NewGameParams p;
  p.kind = game::Kind::kCheckers;
  p.seats = 4;
  p.options = kJapanese;
  auto g = NewGame(p);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(g.status().message().find("rules"), absl::string_view::npos);
  p.seats = 7;
  p.options = {};
  EXPECT_FALSE(NewGame(p).ok());
  p.seats = 3;
  p.first_seat = 3;
  EXPECT_FALSE(NewGame(p).ok());
  p.options = {{"move_limit", "1001"}};
  p.first_seat = 0;
  EXPECT_EQ(NewGame(p).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Turns, FirstSeatAndClockwiseOrder) {
  auto g = Start(3, {}, 2);
  EXPECT_EQ(g->to_move(), 2);
  PlayText(*g, g->LegalMoves()[0].notation);
  EXPECT_EQ(g->to_move(), 0);
  PlayText(*g, g->LegalMoves()[0].notation);
  EXPECT_EQ(g->to_move(), 1);
  EXPECT_EQ(g->ply(), 2);
}

TEST(Moves, LongJumpChainWithDirectionChanges) {
  auto g = Load(2, "i5/i6,j7,k6,j4 0 -");
  EXPECT_EQ(Dests(*g, "i5"),
            (std::set<std::string>{"j6", "j5", "i4", "h5", "h6", "i7", "k7", "k5", "i3"}));
  // East, north-west, west, south-west: four jumps, three changes of direction.
  EXPECT_EQ(ListedPath(*g, "i5", "i3"), "i5-i7-k7-k5-i3");
  auto ev = PlayText(*g, "i5-i7-k7-k5-i3");
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].detail, "i5-i7-k7-k5-i3");
  EXPECT_NE(g->PositionText().find("i3/"), std::string::npos);
  // Stopping anywhere along the chain is a move of its own.
  auto h = Load(2, "i5/i6,j7,k6,j4 0 -");
  EXPECT_TRUE(h->ParseMove("i5-i7-k7").ok());
}

TEST(Moves, ChainNeverRevisitsAHole) {
  // With i4 occupied the chain could jump from i3 back onto its start i5.
  auto g = Load(2, "i5/i6,j7,k6,j4,i4 0 -");
  auto d = Dests(*g, "i5");
  EXPECT_EQ(d.count("i5"), 0u);
  EXPECT_EQ(d, (std::set<std::string>{"j6", "j5", "h5", "h6", "i7", "k7", "k5", "i3"}));
  EXPECT_EQ(ListedPath(*g, "i5", "i3"), "i5-i3");    // listed: the shortest path
  EXPECT_TRUE(g->ParseMove("i5-i7-k7-k5-i3").ok());  // any valid path is accepted
  ExpectRefused(*g, "i5-i7-k7-k5-i3-i5", "revisit i5");
  ExpectRefused(*g, "i5-i7-k7-i7", "revisit i7");
}

TEST(Moves, StepAndJumpNotCombined) {
  auto g = Load(2, "i5/i6,j7,k6,j4 0 -");
  ExpectRefused(*g, "i5-j6-j8", "cannot be combined");
  ExpectRefused(*g, "i5-i7-i8", "cannot be combined");
  ExpectRefused(*g, "i5-i6", "occupied");
  ExpectRefused(*g, "i5-i9", "too long");
  ExpectRefused(*g, "i6-i7", "no piece");
  ExpectRefused(*g, "i5-j4-i3", "not along a line");
  // A bare from-to pair names the move by its ends.
  auto m = g->ParseMove("i5-i3");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->notation, "i5-i7-k7-k5-i3");
}

TEST(Turns, PlayerWithoutMoveIsSkipped) {
  // Seat 1's only piece, on the tip a1, is walled in.
  auto g = Load(2, "b1,b2,c1,c3,i5/a1 0 -");
  auto ev = PlayText(*g, "i5-i6");
  EXPECT_EQ(Types(ev), (std::vector<EventType>{EventType::kMove, EventType::kSkipped}));
  EXPECT_EQ(ev[1].seat, 1);
  EXPECT_EQ(g->to_move(), 0);
  EXPECT_FALSE(g->result().over);
}

TEST(Finish, AntiBlockingOnFinishesWithOpponentInGoal) {
  const std::string pos = "n1,n2,n3,o1,o2,o3,p1,p2,m9/q1,i5 0 -";
  auto on = Load(2, pos);
  auto ev = PlayText(*on, "m9-n4");
  EXPECT_EQ(Types(ev),
            (std::vector<EventType>{EventType::kMove, EventType::kFinished, EventType::kGameOver}));
  EXPECT_EQ(ev[1].detail, "1");
  EXPECT_TRUE(on->result().over);
  EXPECT_EQ(on->result().places, (std::vector<int>{1, 2}));
  EXPECT_EQ(on->result().reason, "all_finished");
  EXPECT_EQ(on->to_move(), -1);
  EXPECT_TRUE(on->LegalMoves().empty());

  auto off = Load(2, pos, {{"anti_blocking", "off"}});
  ev = PlayText(*off, "m9-n4");
  EXPECT_EQ(Types(ev), (std::vector<EventType>{EventType::kMove}));
  EXPECT_FALSE(off->result().over);
  EXPECT_EQ(off->result().places, (std::vector<int>{0, 0}));
  EXPECT_EQ(off->to_move(), 1);
}

const char kThree[] =
    "n1,n2,n3,o1,o2,o3,p1,p2,q1,m9/e11,e12,e13,f10,f11,f12,g10,g11,h10,e9/e1,i3 0 -";

TEST(Finish, PlayToTheEndOn) {
  auto g = Load(3, kThree);
  auto ev = PlayText(*g, "m9-n4");
  EXPECT_EQ(Types(ev), (std::vector<EventType>{EventType::kMove, EventType::kFinished}));
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 0, 0}));
  EXPECT_FALSE(g->result().over);
  EXPECT_EQ(g->to_move(), 1);
  EXPECT_FALSE(g->View().active[0]);
  EXPECT_NE(g->PositionText().find(" 1 1,0,0"), std::string::npos) << g->PositionText();
  // The finished seat is passed over: 1, 2, 1, 2, 1.
  PlayText(*g, "e9-f8");
  PlayText(*g, "i3-i2");
  EXPECT_EQ(g->to_move(), 1);
  PlayText(*g, "f8-e9");
  PlayText(*g, "i2-i3");
  EXPECT_EQ(g->to_move(), 1);
  ev = PlayText(*g, "e9-e10");
  EXPECT_EQ(Types(ev),
            (std::vector<EventType>{EventType::kMove, EventType::kFinished, EventType::kGameOver}));
  EXPECT_EQ(ev[1].detail, "2");
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(g->result().reason, "all_finished");
}

TEST(Finish, PlayToTheEndOffStopsAtFirstFinisher) {
  auto g = Load(3, kThree, {{"play_to_end", "off"}});
  PlayText(*g, "m9-n4");
  EXPECT_TRUE(g->result().over);
  EXPECT_EQ(g->result().reason, "first_finished");
  // Seat 1 has 9 pieces in its goal, seat 2 one.
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 2, 3}));
}

TEST(Endings, MoveLimitDrawWhenNobodyFinished) {
  auto g = Start(2, {{"move_limit", "1"}});
  PlayText(*g, "d1-e5");
  auto ev = PlayText(*g, "n1-m5");
  EXPECT_EQ(Types(ev), (std::vector<EventType>{EventType::kMove, EventType::kGameOver}));
  EXPECT_EQ(ev.back().detail, "move_limit");
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 1}));
  EXPECT_EQ(g->result().reason, "move_limit");
}

TEST(Endings, MoveLimitAfterAFinisherPlacesTheRest) {
  auto g = Load(3, kThree, {{"move_limit", "1"}});
  PlayText(*g, "m9-n4");  // seat 0 finishes first
  PlayText(*g, "e9-f8");
  auto ev = PlayText(*g, "i3-i2");
  EXPECT_EQ(Types(ev), (std::vector<EventType>{EventType::kMove, EventType::kGameOver}));
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(g->result().reason, "move_limit");
}

TEST(Endings, MoveLimitZeroMeansNone) {
  auto g = Start(2, {{"move_limit", "0"}});
  for (int i = 0; i < 6; ++i) PlayText(*g, g->LegalMoves()[0].notation);
  EXPECT_FALSE(g->result().over);
}

// Shuffles one piece of each seat back and forth until the no-progress rule ends the game.
void Shuffle(game::Game& g, const std::string& a0, const std::string& b0, const std::string& a1,
             const std::string& b1) {
  for (int round = 0; round < 100 && !g.result().over; ++round) {
    bool out = round % 2 == 0;
    PlayText(g, out ? a0 + "-" + b0 : b0 + "-" + a0);
    if (g.result().over) break;
    PlayText(g, out ? a1 + "-" + b1 : b1 + "-" + a1);
  }
}

TEST(Endings, NoProgressPlacesByPiecesInGoal) {
  auto g = Load(2, "q1,p1,p2,i5/a1,k7 0 -");
  Shuffle(*g, "i5", "h6", "k7", "l7");
  EXPECT_TRUE(g->result().over);
  EXPECT_EQ(g->result().reason, "no_progress");
  EXPECT_EQ(g->ply(), 2 * 30);  // 30 full rounds of two players
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 2}));
}

TEST(Endings, NoProgressPlacesByDistanceThenShares) {
  // Nobody has a piece in goal; seat 1's e5 is one step from its goal.
  auto g = Load(2, "i5,a1/k7,e5 0 -");
  Shuffle(*g, "i5", "h6", "k7", "l7");
  EXPECT_EQ(g->result().reason, "no_progress");
  EXPECT_EQ(g->result().places, (std::vector<int>{2, 1}));
  // Mirror-image positions: equal on both counts, so the place is shared.
  auto s = Load(2, "h6/j5 0 -");
  Shuffle(*s, "h6", "g7", "j5", "k5");
  EXPECT_EQ(s->result().reason, "no_progress");
  EXPECT_EQ(s->result().places, (std::vector<int>{1, 1}));
}

TEST(Resign, TwoPlayersTheOtherWins) {
  auto g = Start(2);
  auto ev = g->Act(1, game::Action::kResign, "");
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Types(*ev), (std::vector<EventType>{EventType::kResigned, EventType::kElimination,
                                                EventType::kGameOver}));
  EXPECT_EQ((*ev)[1].other, 0);
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 2}));
  EXPECT_EQ(g->result().reason, "resignation");
  EXPECT_EQ(g->Act(0, game::Action::kResign, "").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(Resign, FourPlayersResignerTakesLastPlace) {
  auto g = Start(4);
  EXPECT_EQ(g->Act(0, game::Action::kOfferDraw, "").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g->Act(4, game::Action::kResign, "").status().code(),
            absl::StatusCode::kInvalidArgument);
  auto ev = g->Act(2, game::Action::kResign, "");  // not seat 2's turn
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(Types(*ev), (std::vector<EventType>{EventType::kResigned, EventType::kElimination}));
  EXPECT_EQ(g->result().places, (std::vector<int>{0, 0, 4, 0}));
  EXPECT_EQ(g->to_move(), 0);
  for (const auto& p : g->View().pieces) EXPECT_NE(p.owner, 2);  // pieces leave the board
  EXPECT_EQ(g->View().pieces.size(), 30u);
  EXPECT_EQ(g->Act(2, game::Action::kResign, "").status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(g->Act(0, game::Action::kResign, "").ok());  // the seat to move
  EXPECT_EQ(g->to_move(), 1);
  PlayText(*g, g->LegalMoves()[0].notation);
  EXPECT_EQ(g->to_move(), 3);  // resigned seats are passed over
  ASSERT_TRUE(g->Act(3, game::Action::kResign, "").ok());
  EXPECT_TRUE(g->result().over);
  EXPECT_EQ(g->result().places, (std::vector<int>{3, 1, 4, 2}));
  EXPECT_EQ(g->result().reason, "resignation");
}

TEST(Japanese, StartPosition) {
  auto g = Start(2, kJapanese);
  auto view = g->View();
  EXPECT_EQ(view.pieces.size(), 30u);
  int kings = 0;
  for (const auto& p : view.pieces) {
    if (p.type == "K") {
      ++kings;
      EXPECT_TRUE(p.square == "a1" || p.square == "q1") << p.square;
    }
  }
  EXPECT_EQ(kings, 2);
  // The king on the tip clears the whole line b1, c1, d1, e5.
  EXPECT_EQ(ListedPath(*g, "a1", "f4"), "a1-f4");
}

TEST(Japanese, KingLongJump) {
  auto g = Load(2, "Ki5/i6,i7,i8,Kq1 0 -", kJapanese);
  EXPECT_TRUE(Dests(*g, "i5").count("i9"));
  EXPECT_TRUE(g->ParseMove("i5-i9").ok());
  // An ordinary piece cannot.
  auto o = Load(2, "i5,Ka1/i6,i7,i8,Kq1 0 -", kJapanese);
  EXPECT_FALSE(Dests(*o, "i5").count("i9"));
  ExpectRefused(*o, "i5-i9", "too long");
  // Nor can anything in the international rules (no kings there).
  EXPECT_EQ(Load(2, "i5/i6,i7,i8 0 -")->ParseMove("i5-i9").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(Japanese, NothingJumpsAKing) {
  auto g = Load(2, "i5,Ka1/Ki6,q1 0 -", kJapanese);
  EXPECT_FALSE(Dests(*g, "i5").count("i7"));
  ExpectRefused(*g, "i5-i7", "cannot jump a king");
  auto k = Load(2, "Ki5/i6,Ki7,q1 0 -", kJapanese);
  EXPECT_FALSE(Dests(*k, "i5").count("i8"));
  ExpectRefused(*k, "i5-i8", "cannot jump a king");
}

TEST(Japanese, MoveMayNotEndInAnotherPlayersPoint) {
  auto g = Load(3, "e6,Ka1/e5,f4,Km1/Km13 0 -", kJapanese);
  ExpectRefused(*g, "e6-e4", "another player's point");
  EXPECT_FALSE(Dests(*g, "e6").count("e4"));
  // Passing through the closed point is fine; only where the move ends counts.
  EXPECT_EQ(ListedPath(*g, "e6", "g4"), "e6-e4-g4");
  EXPECT_TRUE(g->ParseMove("e6-e4-g4").ok());
  // With two players nothing is closed.
  auto two = Load(2, "e6,Ka1/e5,f4,Kq1 0 -", kJapanese);
  EXPECT_TRUE(two->ParseMove("e6-e4").ok());
  // International rules have no closed points.
  EXPECT_TRUE(Load(3, "e6/e5,f4/m13 0 -")->ParseMove("e6-e4").ok());
}

TEST(Japanese, KingOnTipFinish) {
  const std::string goal = "m5,m6,m7,m8,n1,n2,n3,n4,o1,o2,o3,p1,p2";
  auto g = Load(2, goal + ",m9,Kl4/Ka1,i5 0 -", kJapanese);
  auto ev = PlayText(*g, "l4-q1");  // the king clears m5, n1, o1, p1 onto the tip
  EXPECT_EQ(Types(ev),
            (std::vector<EventType>{EventType::kMove, EventType::kFinished, EventType::kGameOver}));
  EXPECT_EQ(g->result().places, (std::vector<int>{1, 2}));

  // An opponent's piece in the goal: finished with anti-blocking, not without.
  const std::string blocked = goal + ",i5,Kl4/m9,Ka1 0 -";
  auto on = Load(2, blocked, kJapanese);
  PlayText(*on, "l4-q1");
  EXPECT_TRUE(on->result().over);
  auto off = Load(2, blocked, {{"rules", "japanese"}, {"anti_blocking", "off"}});
  PlayText(*off, "l4-q1");
  EXPECT_FALSE(off->result().over);

  // A full goal with the king off the tip is not finished.
  auto tip = Load(2, goal + ",q1,Kl9/Ka1,i5 0 -", kJapanese);
  PlayText(*tip, "l9-m9");
  EXPECT_FALSE(tip->result().over);
  EXPECT_EQ(tip->to_move(), 1);
}

}  // namespace
}  // namespace tablero::checkers
