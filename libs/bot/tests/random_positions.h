// Test helpers: ChooseMove on random positions of every option value and seat count; chess
// positions of random games.
#ifndef TABLERO_LIBS_BOT_TESTS_RANDOM_POSITIONS_H_
#define TABLERO_LIBS_BOT_TESTS_RANDOM_POSITIONS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "libs/bot/bot.h"
#include "libs/chess/movegen.h"
#include "libs/chess/position.h"
#include "libs/games/games.h"

namespace tablero::bot {

// Every engine option value once (others at their defaults), for each seat count.
inline std::vector<game::NewGameParams> AllParams(game::Kind kind) {
  std::vector<game::NewGameParams> out;
  const game::GameInfo* info = *games::Info(kind);
  for (int seats = info->min_seats; seats <= info->max_seats; ++seats) {
    game::NewGameParams base;
    base.kind = kind;
    base.seats = seats;
    out.push_back(base);
    for (const auto& spec : info->options) {
      if (spec.room_level) continue;
      std::vector<std::string> values = spec.choices;
      if (spec.type == game::OptionSpec::Type::kInt)
        values = {std::to_string(spec.min), std::to_string(spec.max)};
      for (const auto& v : values) {
        game::NewGameParams p = base;
        p.options[spec.name] = v;
        if (games::NewGame(p).ok()) out.push_back(p);
      }
    }
  }
  return out;
}

inline bool IsLegal(const game::Game& g, const game::Move& m) {
  const auto legal = g.LegalMoves();
  return std::find(legal.begin(), legal.end(), m) != legal.end();
}

// Returns how many positions were checked.
inline int RandomPositions(game::Kind kind, int per_params, int budget_ms) {
  std::mt19937_64 rng(1234 + int(kind));
  int checked = 0;
  for (const auto& params : AllParams(kind)) {
    auto g = *games::NewGame(params);
    for (int i = 0; i < per_params; ++i) {
      if (g->result().over) g = *games::NewGame(params);
      Request req;
      req.level = 1 + int(rng() % 10);
      req.budget_ms = budget_ms;
      req.seed = rng() % 3 == 0 ? 0 : rng();
      auto c = ChooseMove(*g, req);
      EXPECT_TRUE(c.ok()) << c.status() << " " << g->PositionText();
      if (!c.ok()) return -1;
      EXPECT_TRUE(IsLegal(*g, c->move)) << c->move.notation << " in " << g->PositionText();
      EXPECT_FALSE(c->move.notation.empty());
      EXPECT_EQ(c->move.seat, g->to_move());
      ++checked;
      // Walk on: mostly random moves, sometimes the bot's own, a few plies at a time.
      const int steps = 1 + int(rng() % 4);
      for (int s = 0; s < steps && !g->result().over; ++s) {
        auto legal = g->LegalMoves();
        if (legal.empty() || !g->Play(legal[rng() % legal.size()]).ok()) return -1;
      }
    }
  }
  return checked;
}

// Positions of random chess games from the start (random play sheds material fast, so these
// cover endings too).
inline std::vector<chess::Position> RandomGamePositions(uint32_t seed, int games, int plies) {
  std::mt19937 rng(seed);
  std::vector<chess::Position> out;
  for (int g = 0; g < games; ++g) {
    chess::Position p = chess::Position::StartPosition();
    for (int ply = 0; ply < plies; ++ply) {
      chess::MoveList legal(p);
      if (legal.size == 0) break;
      out.push_back(p);
      p.DoMove(legal.moves[rng() % legal.size]);
    }
  }
  return out;
}

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_TESTS_RANDOM_POSITIONS_H_
