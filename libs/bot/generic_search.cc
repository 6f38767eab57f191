// The interim searcher for games without a dedicated one: it sees only game::Game (legal
// moves, Clone, Play, result, View), so it is slow per node and searches shallowly:
// one ply for every level, then, at level 4 and up and while the budget lasts, a second
// ply in which the next seat answers with the reply worst for us (paranoid). The evaluation
// is simple and per game: finished places first, then material (shogi: board and hand,
// mated seats out) or distance to the goal (Chinese Checkers), each seat's score against
// the best of the others.
#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "libs/bot/choosers.h"
#include "libs/bot/levels.h"
#include "libs/checkers/game.h"

namespace tablero::bot {

namespace {

constexpr int kWin = 100000;

int PieceValue(game::Kind kind, const std::string& t) {
  if (kind == game::Kind::kChess) {
    switch (t[0]) {
      case 'P':
        return 100;
      case 'N':
        return 320;
      case 'B':
        return 330;
      case 'R':
        return 500;
      case 'Q':
        return 950;
      default:
        return 0;
    }
  }
  // Shogi: promoted pieces are worth more on the board; drops make a hand piece valuable.
  if (t == "P") return 100;
  if (t == "S") return 450;
  if (t == "G") return 550;
  if (t == "R") return 1000;
  if (t == "+P") return 550;
  if (t == "+S") return 550;
  if (t == "+R") return 1250;
  return 0;
}

// Per-seat score, larger is better, comparable between seats.
std::vector<int> SeatScores(const game::Game& g) {
  const int n = g.seats();
  std::vector<int> s(n, 0);
  const game::Result res = g.result();
  if (g.kind() == game::Kind::kCheckers) {
    const auto* cg = dynamic_cast<const checkers::CheckersGame*>(&g);
    if (cg) {
      const checkers::State& st = cg->state();
      for (int i = 0; i < n; ++i) {
        // Distance left dominates; pieces already home break ties.
        s[i] = -10 * checkers::RemainingDistance(st, i) + 3 * checkers::InGoal(st, i);
      }
    }
  } else {
    const game::PublicView v = g.View();
    for (const auto& p : v.pieces) {
      if (p.owner >= 0 && p.owner < n && !p.flipped) s[p.owner] += PieceValue(g.kind(), p.type);
    }
    for (int i = 0; i < int(v.hands.size()) && i < n; ++i) {
      for (const auto& [letter, count] : v.hands[i])
        s[i] += count * PieceValue(g.kind(), letter) * 11 / 10;
    }
    for (int seat : v.in_check) {
      if (seat >= 0 && seat < n) s[seat] -= 60;
    }
    for (int i = 0; i < int(v.active.size()) && i < n; ++i) {
      if (!v.active[i] && (i >= int(res.places.size()) || res.places[i] == 0))
        s[i] -= kWin / 2;  // mated, still unplaced
    }
  }
  for (int i = 0; i < n && i < int(res.places.size()); ++i) {
    if (res.places[i] > 0) s[i] = kWin * (n - res.places[i]) + (res.places[i] == 1 ? kWin : 0);
  }
  return s;
}

int ScoreFor(const game::Game& g, int seat) {
  const std::vector<int> s = SeatScores(g);
  int best_other = -2 * kWin * 8;
  for (int i = 0; i < int(s.size()); ++i)
    if (i != seat) best_other = std::max(best_other, s[i]);
  if (s.size() == 1) best_other = 0;
  return s[seat] - best_other;
}

}  // namespace

absl::StatusOr<Choice> ChooseGeneric(const game::Game& game, const Request& request, uint64_t seed,
                                     bool seeded) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start)
        .count();
  };
  const LevelSpec& spec = Level(game.kind(), request.level, game.seats());
  Rng rng(seed);
  const int me = game.to_move();
  std::vector<game::Move> moves = game.LegalMoves();
  if (moves.empty()) return absl::FailedPreconditionError("no legal move");
  Choice c;
  if (spec.random_permille > 0 && rng.Below(1000) < spec.random_permille) {
    c.move = moves[rng.Below(int(moves.size()))];
    return c;
  }
  // A budget for the second ply: the rest of the budget after ply one, never by the clock
  // when seeded (the node limit below keeps it repeatable).
  const uint64_t node_cap = spec.max_nodes ? spec.max_nodes : uint64_t(request.budget_ms) * 20;
  std::vector<std::unique_ptr<game::Game>> after(moves.size());
  std::vector<int> score(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    after[i] = game.Clone();
    if (!after[i]->Play(moves[i]).ok()) return absl::InternalError("a legal move was refused");
    ++c.nodes;
    score[i] = ScoreFor(*after[i], me);
    if (spec.noise_cp > 0) score[i] += rng.Below(2 * spec.noise_cp + 1) - spec.noise_cp;
  }
  c.depth = 1;
  if (request.level >= 4) {
    std::vector<int> deep(score);
    bool complete = true;
    for (size_t i = 0; i < moves.size() && complete; ++i) {
      const game::Game& g = *after[i];
      if (g.result().over || g.to_move() == me) continue;
      int worst = score[i];
      bool first = true;
      for (const game::Move& reply : g.LegalMoves()) {
        if (c.nodes >= node_cap || (!seeded && elapsed_ms() * 10 > request.budget_ms * 8)) {
          complete = false;
          break;
        }
        auto h = g.Clone();
        if (!h->Play(reply).ok()) continue;
        ++c.nodes;
        const int s = ScoreFor(*h, me);
        worst = first ? s : std::min(worst, s);
        first = false;
      }
      deep[i] = worst + (score[i] - worst) / 8;  // keep a little of ply one as tie-break
    }
    if (complete) {
      score = deep;
      c.depth = 2;
    }
  }
  // Best score; among equals, the seeded random choice.
  int best = *std::max_element(score.begin(), score.end());
  std::vector<size_t> top;
  for (size_t i = 0; i < moves.size(); ++i)
    if (score[i] == best) top.push_back(i);
  const size_t pick = top[rng.Below(int(top.size()))];
  c.move = moves[pick];
  c.eval = std::clamp(best, -kMateEval + 1000, kMateEval - 1000);
  return c;
}

}  // namespace tablero::bot
