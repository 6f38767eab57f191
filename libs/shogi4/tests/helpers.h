// Small helpers for the scenario tests: positions written as square -> piece lists
// (turned into the position notation here, independently of the engine), games, events.
#ifndef TABLERO_LIBS_SHOGI4_TESTS_HELPERS_H_
#define TABLERO_LIBS_SHOGI4_TESTS_HELPERS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "libs/game/game.h"
#include "libs/games/games.h"

namespace tablero::shogi4::testing {

// {"5a", "K2s"} ... -> "<board> <to_move> <hands> <elim> <ply>".
inline std::string Text(const std::map<std::string, std::string>& pieces, int to_move,
                        const std::string& hands = "-/-/-/-", const std::string& elim = "-",
                        int ply = 0) {
  std::string grid[9][9];
  for (const auto& [sq, token] : pieces) grid[sq[1] - 'a']['9' - sq[0]] = token;
  std::string out;
  for (int r = 0; r < 9; ++r) {
    if (r) out += '/';
    int empty = 0;
    for (int c = 0; c < 9; ++c) {
      if (grid[r][c].empty()) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += grid[r][c];
    }
    if (empty) out += std::to_string(empty);
  }
  return out + " " + std::to_string(to_move) + " " + hands + " " + elim + " " + std::to_string(ply);
}

inline std::unique_ptr<game::Game> Load(const std::string& text, game::Options options = {}) {
  game::NewGameParams p;
  p.kind = game::Kind::kShogi4;
  p.options = std::move(options);
  auto g = games::FromPosition(p, text);
  EXPECT_TRUE(g.ok()) << g.status() << "\n" << text;
  if (!g.ok()) return nullptr;
  return std::move(*g);
}

inline std::vector<game::Event> Play(game::Game& g, const std::string& mv) {
  auto m = g.ParseMove(mv);
  EXPECT_TRUE(m.ok()) << mv << ": " << m.status() << "\n" << g.PositionText();
  if (!m.ok()) return {};
  auto e = g.Play(*m);
  EXPECT_TRUE(e.ok()) << mv << ": " << e.status();
  return e.ok() ? *e : std::vector<game::Event>{};
}

inline bool Has(const std::vector<game::Event>& events, game::EventType type, int seat,
                int other = -2) {
  return std::any_of(events.begin(), events.end(), [&](const game::Event& e) {
    return e.type == type && e.seat == seat && (other == -2 || e.other == other);
  });
}

inline std::set<std::string> Moves(const game::Game& g) {
  std::set<std::string> out;
  for (const game::Move& m : g.LegalMoves()) out.insert(m.notation);
  return out;
}

inline std::vector<int> InCheck(const game::Game& g) { return g.View().in_check; }

}  // namespace tablero::shogi4::testing

#endif  // TABLERO_LIBS_SHOGI4_TESTS_HELPERS_H_
