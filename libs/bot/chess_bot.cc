// Chess behind ChooseMove: takes the position and its repetition history from the game,
// maps the level to search limits, runs the searcher and converts the answer.
#include <algorithm>
#include <optional>
#include <vector>

#include "libs/bot/chess_eval.h"
#include "libs/bot/chess_search.h"
#include "libs/bot/choosers.h"
#include "libs/bot/levels.h"
#include "libs/chess/game.h"
#include "libs/chess/movegen.h"
#include "libs/chess/notation.h"

namespace tablero::bot {

namespace {

using chess::Position;

// Keys of the positions before the current one, oldest first, from the game's own
// repetition history (the positions that can still repeat).
std::vector<uint64_t> History(const chess::ChessGame& game) {
  const std::vector<uint64_t>& all = game.repetition_keys();
  // Only positions since the last irreversible move can repeat; 160 covers the 75-move rule.
  const size_t n = std::min<size_t>(all.size() - 1, 160);
  return std::vector<uint64_t>(all.end() - 1 - n, all.end() - 1);
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
  const LevelSpec& spec = Level(game::Kind::kChess, request.level, game.seats());
  Rng rng(seed);
  Choice c;
  chess::MoveList legal(pos);
  if (legal.size == 0) return absl::FailedPreconditionError("no legal move");

  chess::Move chosen;
  if (spec.random_permille > 0 && rng.Below(1000) < spec.random_permille) {
    chosen = legal.moves[rng.Below(legal.size)];
  } else {
    // Levels below kChessLearntEvalLevel keep the handcrafted evaluation their ladder was
    // calibrated with; the others play the shipped network, the tuned table where it does
    // not apply (or the caller's network and table: ScopedChessNet, ScopedChessEvalParams).
    std::optional<ScopedChessEvalParams> handcrafted;
    std::optional<ScopedChessNet> no_net;
    if (request.level < kChessLearntEvalLevel) {
      handcrafted.emplace(HandcraftedChessEvalParams());
      no_net.emplace(nullptr);
    }
    ChessLimits limits;
    limits.max_depth = spec.max_depth;
    limits.max_nodes = spec.max_nodes;
    if (seeded && limits.max_nodes == 0)
      limits.max_nodes = uint64_t(request.budget_ms) * kSeededNodesPerMs;
    if (Clocked(request, seeded)) {
      limits.deadline = HardLimit(request);
      limits.cancelled = request.cancelled;
    }
    limits.noise_cp = spec.noise_cp;
    limits.noise_seed = rng.Next();
    limits.reuse_table = !seeded;
    ChessResult r = SearchChess(pos, History(*cg), limits);
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
