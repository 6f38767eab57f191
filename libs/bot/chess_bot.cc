// Chess behind ChooseMove: recovers the position and its repetition history from the game,
// maps the level to search limits, runs the searcher and converts the answer.
#include <algorithm>
#include <vector>

#include "libs/bot/chess_search.h"
#include "libs/bot/choosers.h"
#include "libs/bot/levels.h"
#include "libs/chess/chess_game.h"
#include "libs/chess/movegen.h"
#include "libs/chess/notation.h"
#include "libs/game/codec.h"

namespace tablero::bot {

namespace {

using chess::Position;

// Keys of the positions before the current one, read back from the game's own encoding
// (start FEN plus moves; the game validated it already, so this only replays).
std::vector<uint64_t> History(const game::Game& game) {
  std::vector<uint64_t> keys;
  auto env = game::UnwrapState(game.Encode());
  if (!env.ok()) return keys;
  game::ByteReader r(env->payload);
  r.U8();
  auto pos = Position::ParseFen(r.Str(200));
  if (!r.ok() || !pos.ok()) return keys;
  const uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t code = r.Varint();
    keys.push_back(pos->key());
    bool found = false;
    for (chess::Move m : chess::MoveList(*pos)) {
      const uint32_t promo =
          m.kind() == chess::Move::kPromotion ? m.promotion() - chess::kKnight + 1 : 0;
      if ((uint32_t(m.from()) | uint32_t(m.to()) << 6 | promo << 12) == code) {
        pos->DoMove(m);
        found = true;
        break;
      }
    }
    if (!found) return {};
  }
  // Only positions since the last irreversible move can repeat; 160 covers the 75-move rule.
  if (keys.size() > 160) keys.erase(keys.begin(), keys.end() - 160);
  return keys;
}

int ToEval(int score) {
  if (score > kChessMateBound) return kMateEval - (kChessMate - score);
  if (score < -kChessMateBound) return -(kMateEval - (kChessMate + score));
  return score;
}

}  // namespace

absl::StatusOr<Choice> ChooseChess(const game::Game& game, const Request& request, uint64_t seed,
                                   bool seeded) {
  const auto* cg = dynamic_cast<const chess::ChessGame*>(&game);
  if (!cg) return absl::InternalError("chess game of an unexpected type");
  const Position& pos = cg->position();
  const LevelSpec& spec = Level(request.level);
  Rng rng(seed);
  Choice c;
  chess::MoveList legal(pos);
  if (legal.size == 0) return absl::FailedPreconditionError("no legal move");

  chess::Move chosen;
  if (spec.random_permille > 0 && rng.Below(1000) < spec.random_permille) {
    chosen = legal.moves[rng.Below(legal.size)];
  } else {
    ChessLimits limits;
    limits.max_depth = spec.max_depth;
    limits.max_nodes = spec.max_nodes;
    if (seeded && limits.max_nodes == 0)
      limits.max_nodes = uint64_t(request.budget_ms) * kSeededNodesPerMs;
    // Leave a little of the budget for converting the answer and the reply.
    limits.time_ms = std::max(1, request.budget_ms - std::min(20, request.budget_ms / 10));
    limits.noise_cp = spec.noise_cp;
    limits.noise_seed = rng.Next();
    ChessResult r = SearchChess(pos, History(game), limits);
    chosen = r.move;
    c.eval = ToEval(r.score);
    c.depth = r.depth;
    c.nodes = r.nodes;
  }
  auto m = game.ParseMove(chess::ToUci(chosen));
  if (!m.ok()) return absl::InternalError("the search chose an unparsable move");
  c.move = *m;
  return c;
}

}  // namespace tablero::bot
