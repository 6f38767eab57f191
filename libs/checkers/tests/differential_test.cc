// Differential test: in every position of thousands of playouts the engine's legal moves
// agree with the independent reference generator (tests/reference.h) on the set of
// (start, destination) pairs; every path the engine lists is valid for the reference, and
// a reference path to the same destination is accepted by the engine.
//
// Random playouts almost never finish, so half the playouts are greedy (mostly the move
// that brings a piece nearest its goal's tip) to reach crowded goals, finishes and skipped
// turns. Every playout is capped by the move_limit option (random: 25, greedy: 80 moves
// per player), which ends it as the rules say.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>

#include "libs/checkers/checkers.h"
#include "libs/checkers/tests/reference.h"

namespace tablero::checkers {
namespace {

struct Stats {
  long positions = 0, moves = 0, finished_games = 0, finishes = 0, skips = 0, alt_paths = 0;
};

void Playout(int seats, bool japanese, bool greedy, std::mt19937& rng, Stats* stats) {
  game::NewGameParams p;
  p.kind = game::Kind::kCheckers;
  p.seats = seats;
  p.first_seat = static_cast<int>(rng() % seats);
  if (japanese) p.options["rules"] = "japanese";
  p.options["move_limit"] = greedy ? "80" : "25";
  p.options["anti_blocking"] = rng() % 4 == 0 ? "off" : "on";
  p.options["play_to_end"] = rng() % 2 ? "on" : "off";
  auto made = NewGame(p);
  ASSERT_TRUE(made.ok()) << made.status();
  game::Game& g = **made;
  const reference::Star& star = reference::TheStar();
  while (!g.result().over) {
    const std::string text = g.PositionText();
    reference::Pos pos;
    ASSERT_TRUE(reference::Parse(text, seats, japanese, &pos)) << text;
    ASSERT_EQ(pos.to_move, g.to_move());
    const auto moves = g.LegalMoves();
    std::set<std::pair<std::string, std::string>> mine;
    for (const auto& m : moves) {
      ASSERT_TRUE(mine.insert({m.path.front(), m.path.back()}).second)
          << "duplicate pair " << m.notation << " in " << text;
      ASSERT_TRUE(reference::ValidPath(pos, m.path)) << m.notation << " in " << text;
    }
    ASSERT_EQ(mine, reference::Moves(pos)) << text;
    ++stats->positions;
    ASSERT_FALSE(moves.empty()) << "no move offered in a running game: " << text;

    // Now and then, hand the engine the reference's own path to some destination.
    if (rng() % 8 == 0) {
      const auto& m = moves[rng() % moves.size()];
      auto dests = reference::Destinations(pos, star.by_name.at(m.path.front()));
      const auto& ref_path = dests.at(star.by_name.at(m.path.back()));
      std::string t;
      for (int h : ref_path) t += (t.empty() ? "" : "-") + star.holes[h].name;
      auto parsed = g.ParseMove(t);
      ASSERT_TRUE(parsed.ok()) << t << ": " << parsed.status();
      EXPECT_EQ(parsed->path.front(), m.path.front());
      EXPECT_EQ(parsed->path.back(), m.path.back());
      ++stats->alt_paths;
    }

    size_t pick = rng() % moves.size();
    if (greedy && rng() % 4 != 0) {
      const int tip = star.tip[(reference::SeatPoint(seats, g.to_move()) + 3) % 6];
      int best = -1000;
      for (size_t i = 0; i < moves.size(); ++i) {
        int gain = star.Distance(star.by_name.at(moves[i].path.front()), tip) -
                   star.Distance(star.by_name.at(moves[i].path.back()), tip);
        if (gain > best || (gain == best && rng() % 2)) {
          best = gain;
          pick = i;
        }
      }
    }
    auto ev = g.Play(moves[pick]);
    ASSERT_TRUE(ev.ok()) << moves[pick].notation << ": " << ev.status();
    ++stats->moves;
    for (const auto& e : *ev) {
      stats->finishes += e.type == game::EventType::kFinished;
      stats->skips += e.type == game::EventType::kSkipped;
    }
  }
  for (int place : g.result().places) ASSERT_GE(place, 1);
  stats->finished_games += g.result().reason != "move_limit";
}

void RunPlayouts(int seats, bool japanese, int playouts) {
  std::mt19937 rng(1000 * seats + japanese);
  Stats stats;
  for (int i = 0; i < playouts; ++i) {
    Playout(seats, japanese, i % 2 == 1, rng, &stats);
    if (testing::Test::HasFatalFailure()) return;
  }
  std::printf(
      "%d players%s: %d playouts, %ld positions, %ld finishes, %ld games ended before the "
      "move limit, %ld skipped turns, %ld alternative paths\n",
      seats, japanese ? " (japanese)" : "", playouts, stats.positions, stats.finishes,
      stats.finished_games, stats.skips, stats.alt_paths);
  EXPECT_GT(stats.positions, playouts * 20L);
}

// 300 playouts for each of the seven configurations (2,100 in all, every position checked);
// CHECKERS_PLAYOUTS overrides for longer local runs.
const int kPlayouts = [] {
  const char* env = std::getenv("CHECKERS_PLAYOUTS");
  return env ? std::atoi(env) : 300;
}();

TEST(Differential, TwoPlayers) { RunPlayouts(2, false, kPlayouts); }
TEST(Differential, ThreePlayers) { RunPlayouts(3, false, kPlayouts); }
TEST(Differential, FourPlayers) { RunPlayouts(4, false, kPlayouts); }
TEST(Differential, FivePlayers) { RunPlayouts(5, false, kPlayouts); }
TEST(Differential, SixPlayers) { RunPlayouts(6, false, kPlayouts); }
TEST(Differential, JapaneseTwoPlayers) { RunPlayouts(2, true, kPlayouts); }
TEST(Differential, JapaneseThreePlayers) { RunPlayouts(3, true, kPlayouts); }

}  // namespace
}  // namespace tablero::checkers
