// Chinese Checkers behind ChooseMove: a best-reply search (Schadd and Winands) on the
// engine's own state. Layers alternate between the bot's moves and one layer in which any
// single opponent answers with the move worst for the bot (with two players this is plain
// minimax), with alpha-beta, iterative deepening and a beam of the most forward moves at
// inner nodes. The evaluation is the race: each piece's distance to the tip of its goal
// (a full goal is exactly the set of holes nearest the tip, so this also fills the goal
// from the back), a penalty for the last straggler, and places for players who finished.
// Because every term strictly rewards progress, the bot never prefers shuffling back and
// forth, and a one-move finish scores above anything else.
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
  CheckersSearcher(int me, int max_depth, uint64_t max_nodes, SearchClock clock, int noise,
                   uint64_t seed)
      : me_(me),
        max_depth_(max_depth),
        max_nodes_(max_nodes),
        noise_(noise),
        seed_(seed),
        clock_(clock) {}

  // Returns the best root move and fills score/depth/nodes.
  Mv Run(const State& root, int* score, int* depth, uint64_t* nodes) {
    std::vector<Mv> moves = Moves(root, me_, 0);
    Mv best = moves[0];
    *score = 0;
    *depth = 0;
    for (int d = 1; d <= max_depth_; ++d) {
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
      if (stop_) break;
      best = iter_best;
      *score = alpha;
      *depth = d;
      // Best first next time; ties keep the forward-first order.
      std::stable_sort(order.begin(), order.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      std::vector<Mv> sorted;
      for (auto& [s, i] : order) sorted.push_back(moves[i]);
      moves = sorted;
      if (alpha >= kFinished / 2) break;  // a finish is found
      if (clock_.has_limit() && clock_.ElapsedMs() * 3 >= clock_.TotalMs()) break;
    }
    *nodes = nodes_;
    return best;
  }

 private:
  int Noise(const Mv& m) const {
    if (noise_ <= 0) return 0;
    uint64_t z = seed_ ^ (uint64_t(m.from) << 8 | m.to);
    z = (z ^ (z >> 31)) * 0x9E3779B97F4A7C15ULL;
    return int((z >> 20) % uint64_t(2 * noise_ + 1)) - noise_;
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
    if ((max_nodes_ && nodes_ >= max_nodes_) || ((nodes_ & 7) == 0 && clock_.Expired())) {
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

  const int me_, max_depth_;
  const uint64_t max_nodes_;
  const int noise_;
  const uint64_t seed_;
  SearchClock clock_;
  uint64_t nodes_ = 0;
  bool stop_ = false;
};

}  // namespace

absl::StatusOr<Choice> ChooseCheckers(const game::Game& game, const Request& request, uint64_t seed,
                                      bool seeded) {
  const auto* cg = dynamic_cast<const checkers::CheckersGame*>(&game);
  if (!cg) return absl::InternalError("checkers game of an unexpected type");
  const State& st = cg->state();
  const int me = st.to_move;
  const LevelSpec& spec = Level(game::Kind::kCheckers, request.level);
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
    CheckersSearcher s(me, spec.max_depth, nodes,
                       Clocked(request, seeded) ? SearchClock(HardLimit(request)) : SearchClock(),
                       spec.noise_cp, rng.Next());
    int score = 0, d = 0;
    uint64_t n = 0;
    const Mv m = s.Run(st, &score, &d, &n);
    from = m.from;
    to = m.to;
    c.eval = std::clamp(score, -kMateEval + 1, kMateEval - 1);
    c.depth = d;
    c.nodes = n;
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
