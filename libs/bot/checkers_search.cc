// Chinese Checkers behind ChooseMove: a best-reply search (Schadd and Winands) on the
// engine's own state. Layers alternate between the bot's moves and one layer in which any
// single opponent answers with the move worst for the bot (with two players this is plain
// minimax), with alpha-beta, iterative deepening and a beam of the most forward moves at
// inner nodes. Level 10 also plays a move that beat the best so far in the iteration its
// limit interrupted (searched best-first); levels 1-9 play their last completed iteration.
// The evaluation is the race: each piece's distance to the tip of its goal (a full goal is
// exactly the set of holes nearest the tip, so this also fills the goal from the back), a
// penalty for the last straggler, and places for players who finished. Because every term
// strictly rewards progress, the bot never prefers shuffling back and forth, and a one-move
// finish scores above anything else.
#include "libs/bot/checkers_search.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "libs/bot/choosers.h"
#include "libs/bot/levels.h"
#include "libs/checkers/game.h"

namespace tablero::bot {

namespace {

using checkers::kGeo;
using checkers::kHoles;
using checkers::State;

constexpr int kFinished = 1000000;  // per place better; far above any distance term
constexpr int kInf = 1 << 30;

// Larger is better for `seat`.
int Progress(const State& st, int seat) {
  if (st.place[seat] > 0) return kFinished - 10000 * st.place[seat];
  const int tip = kGeo.tip[st.layout.goal[seat]];
  int sum = 0, worst = 0;
  for (int h = 0; h < kHoles; ++h) {
    const uint8_t c = st.cell[h];
    if (c == checkers::kEmpty || checkers::OwnerOf(c) != seat) continue;
    const int d = checkers::HexDistance(h, tip);
    sum += checkers::IsKing(c) ? 3 * d : d;
    worst = std::max(worst, d);
  }
  return -(10 * sum + 6 * worst);
}

struct Mv {
  uint8_t from, to;
  int gain;  // forward progress of the moved piece, for ordering
};

class CheckersSearcher {
 public:
  CheckersSearcher(int me, const CheckersLimits& limits, SearchClock clock)
      : me_(me), limits_(limits), clock_(clock) {}

  CheckersResult Run(const State& root) {
    CheckersResult r;
    std::vector<Mv> moves = Moves(root, me_, 0);
    Mv best = moves[0];
    for (int d = 1; d <= limits_.max_depth; ++d) {
      int alpha = -kInf;
      Mv iter_best = moves[0];
      std::vector<std::pair<int, int>> order;  // (score, index) for the next iteration
      for (size_t i = 0; i < moves.size(); ++i) {
        State child = root;
        Play(&child, me_, moves[i]);
        const int s = Search(child, d - 1, alpha, kInf, false, 1) + Noise(moves[i]);
        if (stop_) break;
        order.push_back({s, int(i)});
        if (s > alpha) {
          alpha = s;
          iter_best = moves[i];
        }
      }
      if (stop_) {
        // The first move searched is the previous iteration's best: once it has a score,
        // a move that beat it here is better.
        if (limits_.keep_partial && order.size() > 1 &&
            (iter_best.from != best.from || iter_best.to != best.to)) {
          best = iter_best;
          r.score = alpha;
          r.partial = true;
        }
        break;
      }
      best = iter_best;
      r.score = alpha;
      r.depth = d;
      // Best first next time; ties keep the forward-first order.
      std::stable_sort(order.begin(), order.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      std::vector<Mv> sorted;
      for (auto& [s, i] : order) sorted.push_back(moves[i]);
      moves = sorted;
      if (alpha >= kFinished / 2) break;  // a finish is found
      // Levels 1-9 do not start an iteration they are unlikely to finish; level 10 keeps
      // what a partial one finds, so it starts one whenever time is left.
      if (limits_.keep_partial ? clock_.Expired()
                               : clock_.has_limit() && clock_.ElapsedMs() * 3 >= clock_.TotalMs()) {
        break;
      }
    }
    r.from = best.from;
    r.to = best.to;
    r.nodes = nodes_;
    return r;
  }

 private:
  int Noise(const Mv& m) const {
    if (limits_.noise <= 0) return 0;
    uint64_t z = limits_.seed ^ (uint64_t(m.from) << 8 | m.to);
    z = (z ^ (z >> 31)) * 0x9E3779B97F4A7C15ULL;
    return int((z >> 20) % uint64_t(2 * limits_.noise + 1)) - limits_.noise;
  }

  // Moves of `seat`, most forward first; `beam` > 0 keeps only that many.
  std::vector<Mv> Moves(const State& st, int seat, int beam) const {
    auto list = std::make_unique<checkers::MoveList>();
    checkers::Generate(st.layout, st.cell, seat, list.get());
    const int tip = kGeo.tip[st.layout.goal[seat]];
    std::vector<Mv> out;
    out.reserve(list->size);
    for (int i = 0; i < list->size; ++i) {
      const auto& p = list->moves[i];
      out.push_back(
          Mv{p.from, p.to, checkers::HexDistance(p.from, tip) - checkers::HexDistance(p.to, tip)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Mv& a, const Mv& b) { return a.gain > b.gain; });
    if (beam > 0 && int(out.size()) > beam) out.resize(beam);
    return out;
  }

  // Plays m for `seat` even out of turn (best-reply layers let any opponent answer).
  static void Play(State* st, int seat, const Mv& m) {
    st->to_move = seat;
    checkers::ApplyMove(st, m.from, m.to, nullptr);
  }

  // `ply` from the root: a finish sooner is worth more than the same finish later.
  int Eval(const State& st, int ply) {
    if (st.place[me_] > 0) return kFinished - 10000 * st.place[me_] - ply;
    const int mine = Progress(st, me_);
    int best_other = -kInf;
    for (int s = 0; s < st.layout.seats; ++s) {
      if (s == me_ || st.resigned[s]) continue;
      best_other = std::max(best_other, Progress(st, s));
    }
    // Mostly our own race; opponents matter less the more of them there are.
    return best_other == -kInf ? mine : mine - best_other / std::max(1, st.layout.seats - 1);
  }

  bool Playing(const State& st, int seat) const { return st.place[seat] == 0; }

  int Search(const State& st, int depth, int alpha, int beta, bool my_turn, int ply) {
    ++nodes_;
    if ((limits_.max_nodes && nodes_ >= limits_.max_nodes) ||
        ((nodes_ & 7) == 0 && clock_.Expired())) {
      stop_ = true;
    }
    if (stop_) return 0;
    if (depth <= 0 || st.over() || !Playing(st, me_)) return Eval(st, ply);
    if (my_turn) {
      std::vector<Mv> moves = Moves(st, me_, 12);
      if (moves.empty()) return Search(st, depth - 1, alpha, beta, false, ply + 1);
      int best = -kInf;
      for (const Mv& m : moves) {
        State child = st;
        Play(&child, me_, m);
        best = std::max(best, Search(child, depth - 1, alpha, beta, false, ply + 1));
        if (stop_) return 0;
        alpha = std::max(alpha, best);
        if (alpha >= beta) break;
      }
      return best;
    }
    int best = kInf;
    bool any = false;
    for (int o = 0; o < st.layout.seats; ++o) {
      if (o == me_ || !Playing(st, o)) continue;
      for (const Mv& m : Moves(st, o, st.layout.seats == 2 ? 10 : 4)) {
        any = true;
        State child = st;
        Play(&child, o, m);
        best = std::min(best, Search(child, depth - 1, alpha, beta, true, ply + 1));
        if (stop_) return 0;
        beta = std::min(beta, best);
        if (alpha >= beta) return best;
      }
    }
    return any ? best : Search(st, depth - 1, alpha, beta, true, ply + 1);
  }

  const int me_;
  const CheckersLimits limits_;
  SearchClock clock_;
  uint64_t nodes_ = 0;
  bool stop_ = false;
};

}  // namespace

CheckersResult SearchCheckers(const State& root, int me, const CheckersLimits& limits,
                              SearchClock clock) {
  return CheckersSearcher(me, limits, clock).Run(root);
}

absl::StatusOr<Choice> ChooseCheckers(const game::Game& game, const Request& request, uint64_t seed,
                                      bool seeded) {
  const auto* cg = dynamic_cast<const checkers::CheckersGame*>(&game);
  if (!cg) return absl::InternalError("checkers game of an unexpected type");
  const State& st = cg->state();
  const int me = st.to_move;
  const LevelSpec& spec = Level(game::Kind::kCheckers, request.level, st.layout.seats);
  Rng rng(seed);
  auto list = std::make_unique<checkers::MoveList>();
  checkers::Generate(st.layout, st.cell, me, list.get());
  if (list->size == 0) return absl::FailedPreconditionError("no legal move");
  Choice c;
  uint8_t from, to;
  if (spec.random_permille > 0 && rng.Below(1000) < spec.random_permille) {
    const auto& p = list->moves[rng.Below(list->size)];
    from = p.from;
    to = p.to;
  } else {
    uint64_t nodes = spec.max_nodes;
    if (seeded && nodes == 0) nodes = uint64_t(request.budget_ms) * kSeededNodesPerMs;
    CheckersLimits limits;
    limits.max_depth = spec.max_depth;
    limits.max_nodes = nodes;
    limits.noise = spec.noise_cp;
    limits.seed = rng.Next();
    limits.keep_partial = spec.max_nodes == 0;
    const CheckersResult res = SearchCheckers(st, me, limits, ClockFor(request, seeded));
    from = res.from;
    to = res.to;
    c.eval = std::clamp(res.score, -kMateEval + 1, kMateEval - 1);
    c.depth = res.depth;
    c.nodes = res.nodes;
  }
  uint8_t path[checkers::kHoles + 1];
  const int len = checkers::PathTo(st.layout, st.cell, from, to, path);
  if (len < 2) return absl::InternalError("no path for the chosen move");
  // The canonical form of the move, as LegalMoves lists it.
  auto m = game.ParseMove(checkers::MakeMove(me, path, len).notation);
  if (!m.ok()) return absl::InternalError("the search chose an unparsable move");
  c.move = *m;
  return c;
}

}  // namespace tablero::bot
