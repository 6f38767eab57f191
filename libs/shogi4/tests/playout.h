// Random playouts run side by side in the engine (through game::Game) and in the
// reference model, comparing every position, legal move list and the final result.
#ifndef TABLERO_LIBS_SHOGI4_TESTS_PLAYOUT_H_
#define TABLERO_LIBS_SHOGI4_TESTS_PLAYOUT_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "libs/game/game.h"
#include "libs/games/games.h"
#include "libs/shogi4/tests/reference.h"

namespace tablero::shogi4::testing {

struct Combo {
  std::string format, ending, mated, pawn;
  int limit;
};

inline std::vector<Combo> AllCombos(int limit) {
  std::vector<Combo> out;
  for (const char* f : {"singles", "pairs"})
    for (const char* e : {"two_mates", "last_one_standing"})
      for (const char* m : {"to_mater", "ownerless"})
        for (const char* p : {"on", "off"}) out.push_back({f, e, m, p, limit});
  return out;
}

inline game::Options ToOptions(const Combo& c) {
  return {{"format", c.format},
          {"ending", c.ending},
          {"mated_pieces", c.mated},
          {"pawn_before_flipped_king_forbidden", c.pawn},
          {"move_limit", std::to_string(c.limit)}};
}

inline ref::Options ToRef(const Combo& c) {
  ref::Options o;
  o.pairs = c.format == "pairs";
  o.last_one_standing = c.ending == "last_one_standing";
  o.ownerless = c.mated == "ownerless";
  o.pawn_rule = c.pawn == "on";
  o.limit = c.limit;
  return o;
}

struct PlayoutStats {
  int positions = 0, mates = 0, games = 0, over_by_mates = 0;
};

// Plays one random game to its end. The policy prefers captures and drops next to kings so
// that mates (and the transfers they cause) happen often. Returns false on disagreement.
inline void Playout(const Combo& combo, uint32_t seed, PlayoutStats* stats) {
  game::NewGameParams params;
  params.kind = game::Kind::kShogi4;
  params.options = ToOptions(combo);
  params.first_seat = static_cast<int>(seed % 4);
  auto g = games::NewGame(params);
  ASSERT_TRUE(g.ok()) << g.status();
  ref::Pos start;
  ASSERT_TRUE(ref::Parse((*g)->PositionText(), ToRef(combo), &start));
  ref::Game r(start);
  std::mt19937 rng(seed);
  ++stats->games;
  for (;;) {
    ++stats->positions;
    std::string text = (*g)->PositionText();
    ASSERT_EQ(text, ref::Print(r.pos())) << "seed " << seed;
    std::vector<std::string> mine;
    for (const game::Move& m : (*g)->LegalMoves()) mine.push_back(m.notation);
    std::vector<std::string> theirs = r.LegalMoves();
    std::sort(mine.begin(), mine.end());
    std::sort(theirs.begin(), theirs.end());
    ASSERT_EQ(mine, theirs) << "position " << text << " seed " << seed;
    game::Result res = (*g)->result();
    ASSERT_EQ(res.over, !r.pos().over.empty()) << text;
    if (res.over) {
      ASSERT_EQ(res.reason, r.pos().over) << text;
      ASSERT_EQ(res.places, ref::Places(r.pos())) << text;
      stats->over_by_mates += r.pos().n_elim > 0;
      return;
    }
    // Policy: half the time a capture or a drop, else any move.
    std::vector<std::string> pref;
    for (const std::string& m : theirs) {
      bool capture = m[1] != '*' && text.find(' ') != std::string::npos;
      (void)capture;
      if (m[1] == '*') pref.push_back(m);
    }
    const std::vector<std::string>& pool = (!pref.empty() && rng() % 2) ? pref : theirs;
    std::string mv = pool[rng() % pool.size()];
    auto parsed = (*g)->ParseMove(mv);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    auto events = (*g)->Play(*parsed);
    ASSERT_TRUE(events.ok()) << events.status();
    for (const game::Event& e : *events) stats->mates += e.type == game::EventType::kMate;
    r.Play(mv);
  }
}

}  // namespace tablero::shogi4::testing

#endif  // TABLERO_LIBS_SHOGI4_TESTS_PLAYOUT_H_
