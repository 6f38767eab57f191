// Four-player shogi behind ChooseMove: an alpha-beta search on the engine's own position
// (moves made on one Shogi4Node and taken back, shogi4_node.h: the engine's move, check
// priority, mates and piece transfer; material, the check flags and the evaluation's board
// sums kept per move). Level 10 uses best-reply
// search (only the strongest reply of any rival is played between two of our moves); the
// lower levels a paranoid search (every other seat, in turn, plays against the bot).
// Iterative deepening, captures first (most valuable victim), a beam of quiet moves at
// inner nodes (drops make the tree very wide), and a short capture-only quiescence search.
// The evaluation and its terms: shogi4_eval.h. The repetition rule needs the game's
// history, so the root move is checked against the game itself and the next best is taken
// if the rule forbids it.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include "libs/bot/choosers.h"
#include "libs/bot/levels.h"
#include "libs/bot/shogi4_attacks.h"
#include "libs/bot/shogi4_eval.h"
#include "libs/bot/shogi4_node.h"
#include "libs/shogi4/game.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"

namespace tablero::bot {

namespace {

namespace s4 = shogi4;

constexpr int kInf = 1 << 30;
constexpr int kWin = kShogi4Win;
constexpr int kMaxPly = 32;
constexpr const int* kBoardValue = kShogi4BoardValue;
// Order keys of captures start here; every quiet move's key is below.
constexpr int kCaptureKey = 10000;
constexpr int kKeyBias = 1 << 20;  // makes every order key positive

const Shogi4Near& kNear = Shogi4NearTable();

class Shogi4Searcher {
 public:
  Shogi4Searcher(int me, int max_depth, bool brs, uint64_t max_nodes, SearchClock clock, int noise,
                 uint64_t seed)
      : me_(me),
        max_depth_(max_depth),
        brs_(brs),
        max_nodes_(max_nodes),
        noise_(noise),
        seed_(seed),
        clock_(clock) {
    for (auto& l : lists_) l = std::make_unique<s4::MoveList>();
  }

  // Root moves best first after the deepest completed iteration.
  std::vector<std::pair<int, s4::Move>> Run(const s4::Position& root_pos, int* depth,
                                            uint64_t* nodes) {
    const Shogi4Node root = Shogi4NodeOf(root_pos);
    Moves moves;
    Collect(root, 0, Stage::kEvery, &moves);
    std::vector<std::pair<int, s4::Move>> ranked;
    for (size_t i = 0; i < moves.size(); ++i) ranked.push_back({0, moves[i].m});
    *depth = 0;
    node_ = root;
    for (int d = 1; d <= max_depth_; ++d) {
      std::vector<std::pair<int, s4::Move>> next;
      int alpha = -kInf;
      for (const auto& [unused, m] : ranked) {
        Shogi4Undo undo;
        Play({0, me_, m}, &undo);
        const int s = Search(d - 1, alpha, kInf, 1) + Noise(m);
        Shogi4Unmake(node_, undo);
        if (stop_) break;
        next.push_back({s, m});
        alpha = std::max(alpha, s);
      }
      if (stop_) break;
      std::stable_sort(next.begin(), next.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      ranked = next;
      *depth = d;
      if (ranked[0].first >= kWin / 2) break;
      // Another iteration would not finish in what is left.
      if (clock_.has_limit() && clock_.ElapsedMs() * 3 > clock_.TotalMs()) break;
    }
    *nodes = nodes_;
    // A mate is the first tie-break of the ranking and cannot be taken back; the optimistic
    // best-reply search sometimes defers one it thinks it can make later, and by then three
    // rivals have moved. So a mate at once goes first (the best scored of them).
    if (brs_) {
      std::stable_partition(ranked.begin(), ranked.end(), [&](const auto& r) {
        const Shogi4Node child = Child(root, {0, me_, r.second});
        const s4::Position& p = child.pos;
        return p.n_elim > root_pos.n_elim && p.mated_by[p.elim[root_pos.n_elim]] == me_;
      });
    }
    return ranked;
  }

 private:
  int Noise(s4::Move m) const {
    if (noise_ <= 0) return 0;
    uint64_t z = (seed_ ^ m) * 0x9E3779B97F4A7C15ULL;
    z ^= z >> 29;
    return int((z >> 17) % uint64_t(2 * noise_ + 1)) - noise_;
  }

  int Eval(const Shogi4Node& node) const { return Shogi4Evaluate(node, me_, brs_); }

  bool Tick() {
    ++nodes_;
    if ((max_nodes_ && nodes_ >= max_nodes_) || ((nodes_ & 31) == 0 && clock_.Expired())) {
      stop_ = true;
    }
    return stop_;
  }

  // A move and the seat that plays it (under best-reply, not always pos.to_move).
  struct Cand {
    int key;
    int seat;
    s4::Move m;
  };
  // A node's moves: `cands` in generation order and `order`, their ranks best first, each
  // as (key + bias) << 32 | ~index, so that one integer comparison orders by key and
  // breaks ties by generation order (as a stable sort would: the same on every platform).
  // Room for a generator's list is made once (Reserve), then each move is added without a
  // capacity check.
  struct Moves {
    std::unique_ptr<Cand[]> cands;
    std::unique_ptr<uint64_t[]> order;
    size_t n = 0, capacity = 0;
    size_t size() const { return n; }
    const Cand& operator[](size_t i) const { return cands[~uint32_t(order[i])]; }
    void clear() { n = 0; }
    void Reserve(size_t more) {
      if (n + more <= capacity) return;
      capacity = std::max(n + more, 2 * capacity);
      auto c = std::make_unique<Cand[]>(capacity);
      auto o = std::make_unique<uint64_t[]>(capacity);
      std::copy(cands.get(), cands.get() + n, c.get());
      std::copy(order.get(), order.get() + n, o.get());
      cands = std::move(c);
      order = std::move(o);
    }
    void Add(int key, int seat, s4::Move m) {
      order[n] = uint64_t(key + kKeyBias) << 32 | ~uint32_t(n);
      cands[n++] = {key, seat, m};
    }
    uint64_t* begin() { return order.get(); }
  };

  // Best-reply search (Schadd & Winands): where the engine would give the move to a rival
  // that is not in check, every rival's moves are tried from here and only the one worst
  // for us is played, then we move again. Paranoid search lets all three rivals move in a
  // row against us, which made the bot passive and its own plans half as deep. A seat in
  // check still must answer: check priority decides who moves, as in the engine.
  bool Merged(const Shogi4Node& node) const {
    return brs_ && node.pos.to_move != me_ && !node.in_check;
  }

  // Which of a node's moves Collect gathers. An inner node of the search takes its
  // captures first and its quiet moves only when no capture cut the node off: every
  // capture ranks above every quiet move, and each stage keeps the generation order of
  // the engine within it, so the moves searched and their order are those of one list.
  enum class Stage {
    kEvery,       // all moves (the root)
    kQuiescence,  // captures (at a best-reply node only those of our pieces)
    kCaptures,    // captures (every seat that may move here)
    kQuiets,      // moves that take nothing, drops included
  };

  // The moves of this node in `stage`, best first. In quiescence at a best-reply node only
  // the captures of our pieces (rivals taking each other's barely move our score).
  // With a beam (> 0), only the captures and the first `beam` quiet moves are put in order
  // (all a search with that beam looks at; the rest follow in no particular order), and
  // the drops that rank last (all of ours; a rival's away from our king) are generated
  // only when the other quiet moves do not fill the beam.
  void Collect(const Shogi4Node& node, int ply, Stage stage, Moves* out, int beam = 0) {
    const bool captures = stage == Stage::kQuiescence || stage == Stage::kCaptures;
    const bool quiets = stage == Stage::kEvery || stage == Stage::kQuiets;
    const s4::Position& pos = node.pos;
    const int t = pos.to_move;
    const bool merged = Merged(node);
    // In a merged node no rival is in check (check priority would have picked it).
    const bool check = merged ? false : node.in_check;
    const bool pairs = pos.rules.format == s4::Format::kPairs;  // the engine's generator
    s4::Squares occupied = 0;
    for (s4::Squares b : pos.pieces) occupied |= b;
    const s4::Squares near = merged ? kNear.area[1][pos.king[me_]] : 0;
    int n_captures = 0, plain[2] = {0, 0};
    s4::MoveList& list = *lists_[ply];
    auto add = [&](int seat) {
      out->Reserve(size_t(list.size));
      for (s4::Move m : list) {
        const s4::Cell victim = s4::IsDrop(m) ? 0 : pos.board[s4::MoveTo(m)];
        if (stage == Stage::kQuiescence && merged && s4::OwnerOf(victim) != me_) continue;
        if (stage == Stage::kQuiets && victim != 0) continue;  // (the engine's pairs list)
        const int key = OrderKey(pos, m, seat);
        // The plain quiet moves (key 0) and far drops (key -100) rank among their like in
        // generation order: beyond the first `beam` of each, none can be searched.
        if (beam > 0 && key <= 0 && ++plain[key < 0] > beam) continue;
        out->Add(key, seat, m);
        n_captures += key >= kCaptureKey;
      }
    };
    // A capture generator's list (every move takes a piece of the node's victims): the
    // same keys and order as `add`, without its filters.
    auto add_captures = [&] {
      out->Reserve(size_t(list.size));
      for (s4::Move m : list)
        out->Add(CaptureKey(pos, m), s4::OwnerOf(pos.board[s4::MoveFrom(m)]), m);
      n_captures += list.size;
    };
    auto for_seats = [&](auto&& generate) {
      for (int k = 0; k < s4::kSeats; ++k) {
        const int seat = (t + k) & 3;  // the engine's own pick first
        if (merged ? seat == me_ || !pos.Alive(seat) : seat != t) continue;
        list.size = 0;
        generate(seat);
        add(seat);
      }
    };
    if (stage == Stage::kQuiescence && merged && !pairs) {
      // Every rival's captures of our pieces at once (no rival is in check).
      list.size = 0;
      Shogi4Captures(pos, node.sliders, pos.Enemies(me_), false, pos.pieces[me_], &list);
      add_captures();
    } else if (captures && !pairs) {
      // Every seat's captures at once, found through step and ray sets, in the order of
      // the generation seat by seat (ties of the order keys are broken by it).
      unsigned seats = 0;
      for (int s = 0; s < s4::kSeats; ++s)
        if (merged ? s != me_ && pos.Alive(s) : s == t) seats |= 1u << s;
      list.size = 0;
      Shogi4CapturesFrom(pos, node.sliders, seats, t, check, occupied, &list);
      add_captures();
    } else {
      for_seats([&](int seat) {
        if (pairs) {
          if (captures) {
            s4::GenerateCaptures(pos, seat, &list);
          } else {
            s4::GenerateLegal(pos, seat, &list);
          }
        } else {
          const s4::Squares targets = stage == Stage::kQuiets ? 0 : occupied & ~pos.pieces[seat];
          Shogi4BoardMoves(pos, seat, check, targets, true, &list);
          Shogi4Drops(pos, seat, check, near, &list);
        }
      });
    }
    if (quiets && !pairs && (beam == 0 || out->size() - size_t(n_captures) < size_t(beam)))
      for_seats([&](int seat) { Shogi4Drops(pos, seat, check, s4::kAllSquares & ~near, &list); });
    uint64_t* const first = out->begin();
    const size_t size = out->size(), keep = beam > 0 ? size_t(n_captures + beam) : size;
    if (keep < size) {
      std::nth_element(first, first + keep, first + size, std::greater<uint64_t>());
      std::sort(first, first + keep, std::greater<uint64_t>());
    } else {
      std::sort(first, first + size, std::greater<uint64_t>());
    }
  }

  static int CaptureKey(const s4::Position& pos, s4::Move m) {
    return kCaptureKey + kBoardValue[s4::TypeOf(pos.board[s4::MoveTo(m)])] +
           (s4::IsPromotion(m) ? 500 : 0);
  }
  // Captures first (most valuable victim), then promotions, board moves, drops. Under
  // best-reply the rivals' quiet moves share one beam, so those that come near our king
  // (attacks, mating nets) go first.
  int OrderKey(const s4::Position& pos, s4::Move m, int seat) const {
    const s4::Cell victim = pos.board[s4::MoveTo(m)];
    if (victim) return CaptureKey(pos, m);
    int key = 0;
    if (s4::IsPromotion(m)) key += 500;
    if (s4::IsDrop(m)) key -= 100;
    if (brs_ && seat != me_) {
      const int d = kNear.distance[pos.king[me_]][s4::MoveTo(m)];
      if (d <= 2) key += 1000 - 100 * d;
    }
    return key;
  }

  // Best-reply: after a rival's move we play next unless a seat in check must answer
  // (then no seat is in check: check priority would have picked it, us included).
  void AfterMove(Shogi4Node& child, const Cand& c) const {
    s4::Position& p = child.pos;
    if (brs_ && c.seat != me_ && p.over == s4::EndReason::kNone && p.Alive(me_) &&
        p.to_move != me_ && !child.in_check) {
      p.to_move = static_cast<int8_t>(me_);
    }
  }
  Shogi4Node Child(const Shogi4Node& node, const Cand& c) const {
    Shogi4Node child = node;
    Shogi4Make(child, c.seat, c.m);
    AfterMove(child, c);
    return child;
  }
  // Plays `c` on the searched node (Shogi4Unmake(node_, *undo) takes it back).
  void Play(const Cand& c, Shogi4Undo* undo) {
    Shogi4Make(node_, c.seat, c.m, undo);
    AfterMove(node_, c);
  }

  // Takes a child's score `s` into the node's best and window; true on a cutoff.
  static bool Better(bool maxing, int s, int* best, int* alpha, int* beta) {
    if (maxing) {
      *best = std::max(*best, s);
      *alpha = std::max(*alpha, s);
    } else {
      *best = std::min(*best, s);
      *beta = std::min(*beta, s);
    }
    return *alpha >= *beta;
  }

  // The searched node is node_ (moves made on it and taken back).
  int Search(int depth, int alpha, int beta, int ply) {
    if (Tick()) return 0;
    const Shogi4Node& node = node_;
    const s4::Position& pos = node.pos;
    if (pos.over != s4::EndReason::kNone || !pos.Alive(me_)) return Eval(node);
    if (depth <= 0 || ply >= kMaxPly - 1) return Quiesce(alpha, beta, ply, 0);
    const bool maxing = pos.to_move == me_;
    const int beam = maxing ? 40 : 24;  // quiet moves searched
    Moves& moves = moves_[ply];
    moves.clear();
    Collect(node, ply, Stage::kCaptures, &moves);
    const bool any_capture = moves.size() != 0;
    int best = maxing ? -kInf : kInf;
    // Captures first; the quiet moves are generated only if none of them cut off.
    for (int stage = 0; stage < 2; ++stage) {
      if (stage == 1) {
        moves.clear();
        Collect(node, ply, Stage::kQuiets, &moves, beam);
        if (!any_capture && moves.size() == 0) {
          // We are mated (or, under best-reply, have no move: the engine would mate us).
          if (maxing) return -kWin;
          if (Merged(node)) return Eval(node);
          // A seat not in check without a move (Shogi4Make did not ask): the engine mates it.
          const Shogi4Node before = node_;
          Shogi4MateStuck(node_);
          const int s = Search(depth, alpha, beta, ply);
          node_ = before;
          return s;
        }
      }
      for (size_t i = 0; i < moves.size() && (stage == 0 || int(i) < beam); ++i) {
        Shogi4Undo undo;
        Play(moves[i], &undo);
        const int s = Search(depth - 1, alpha, beta, ply + 1);
        Shogi4Unmake(node_, undo);
        if (stop_) return 0;
        if (Better(maxing, s, &best, &alpha, &beta)) return best;
      }
    }
    return best;
  }

  int Quiesce(int alpha, int beta, int ply, int qdepth) {
    const Shogi4Node& node = node_;
    const s4::Position& pos = node.pos;
    const int stand = Eval(node);
    if (pos.over != s4::EndReason::kNone || !pos.Alive(me_) || qdepth >= 3 || ply >= kMaxPly - 1)
      return stand;
    const bool maxing = pos.to_move == me_;
    if (maxing) {
      if (stand >= beta) return stand;
      alpha = std::max(alpha, stand);
    } else {
      if (stand <= alpha) return stand;
      beta = std::min(beta, stand);
    }
    Moves& caps = moves_[ply];
    caps.clear();
    Collect(node, ply, Stage::kQuiescence, &caps);
    int best = stand;
    for (size_t i = 0; i < caps.size(); ++i) {
      const Cand& c = caps[i];
      if (Tick()) return 0;
      Shogi4Undo undo;
      Play(c, &undo);
      const int s = Quiesce(alpha, beta, ply + 1, qdepth + 1);
      Shogi4Unmake(node_, undo);
      if (stop_) return 0;
      if (Better(maxing, s, &best, &alpha, &beta)) break;
    }
    return best;
  }

  const int me_, max_depth_;
  const bool brs_;
  const uint64_t max_nodes_;
  const int noise_;
  const uint64_t seed_;
  SearchClock clock_;
  uint64_t nodes_ = 0;
  bool stop_ = false;
  Shogi4Node node_;  // the node searched: the root with the current line's moves made
  std::unique_ptr<s4::MoveList> lists_[kMaxPly];
  Moves moves_[kMaxPly];  // each ply's moves (kept: no allocation per node)
};

}  // namespace

absl::StatusOr<Choice> ChooseShogi4(const game::Game& game, const Request& request, uint64_t seed,
                                    bool seeded) {
  const auto* sg = dynamic_cast<const s4::Shogi4Game*>(&game);
  if (!sg) return absl::InternalError("shogi4 game of an unexpected type");
  const s4::Position& pos = sg->position();
  const int me = pos.to_move;
  const LevelSpec& spec = Level(game::Kind::kShogi4, request.level, game.seats());
  Rng rng(seed);
  Choice c;
  if (spec.random_permille > 0 && rng.Below(1000) < spec.random_permille) {
    std::vector<game::Move> legal = game.LegalMoves();
    if (legal.empty()) return absl::FailedPreconditionError("no legal move");
    c.move = legal[rng.Below(int(legal.size()))];
    return c;
  }
  // Best-reply for the strongest level only: the lower ones stay as they were measured.
  const bool brs = request.level == kMaxLevel;
  uint64_t nodes = spec.max_nodes;
  if (seeded && nodes == 0) nodes = uint64_t(request.budget_ms) * 20;
  const int depth =
      request.max_depth > 0 ? std::min(request.max_depth, spec.max_depth) : spec.max_depth;
  Shogi4Searcher s(me, depth, brs, nodes, ClockFor(request, seeded), spec.noise_cp, rng.Next());
  const auto ranked = s.Run(pos, &c.depth, &c.nodes);
  for (const auto& [score, m] : ranked) {
    auto parsed = game.ParseMove(s4::MoveText(m));
    if (!parsed.ok()) continue;  // forbidden by the repetition rule: take the next best
    c.move = *parsed;
    c.eval = std::clamp(score, -kMateEval + 1, kMateEval - 1);
    return c;
  }
  // Every searched move refused: fall back on the game's own list.
  std::vector<game::Move> legal = game.LegalMoves();
  if (legal.empty()) return absl::FailedPreconditionError("no legal move");
  c.move = legal[0];
  return c;
}

}  // namespace tablero::bot
