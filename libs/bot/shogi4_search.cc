// Four-player shogi behind ChooseMove: a paranoid alpha-beta search on the engine's own
// position (every other seat plays against the bot), so check priority, mates and piece
// transfer come straight from the engine's MakeMove (which picks the next seat and mates a
// seat left without moves). Iterative deepening, captures first (most valuable victim),
// a beam of quiet moves at inner nodes (drops make the tree very wide), and a short
// capture-only quiescence search. The evaluation counts material on the board and in hand
// (hand pieces a little more: they drop anywhere), mates made, pressure on the other
// kings (their neighbour squares we attack, checks) and the safety of our own king.
// The repetition rule needs the game's history, so the root move is checked against the
// game itself and the next best is taken if the rule forbids it.
#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "libs/bot/choosers.h"
#include "libs/bot/levels.h"
#include "libs/shogi4/adapter.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"
#include "libs/shogi4/tables.h"

namespace tablero::bot {

namespace {

namespace s4 = shogi4;

constexpr int kInf = 1 << 30;
constexpr int kWin = 200000;
constexpr int kMaxPly = 32;
constexpr int kBoardValue[s4::kPieceTypes] = {0, 100, 500, 550, 1000, 0, 600, 580, 1300};
constexpr int kHandValue[s4::kHandTypes] = {110, 550, 600, 1100};
constexpr int kMateBonus = 6000;
constexpr int kQuiesceDepth = 3;
constexpr int kForcedAnswers = 16;       // the forced-mate search skips checks with more answers
constexpr uint64_t kForcedNodes = 1500;  // at most this many moves made by it
// Root bonus of a move that mates at once and does not end the game: take it. (The
// paranoid search may see the three rivals mate us right after; real rivals rarely do,
// and mates made decide the places.) Less than kWin / 2, which ends the deepening.
constexpr int kMateNow = kWin * 2 / 5;

// Move ordering keys: hash move, captures, then the quiet moves (what the beam limits).
constexpr int kKeyHash = 1 << 24;
constexpr int kKeyCapture = 100000;

// Transposition table: one 16-byte slot per key, cleared per request (repeatable seeded
// searches); one table per thread.
struct S4Entry {
  uint64_t key;
  int32_t score;
  uint32_t move : 20;
  uint32_t depth : 8;
  uint32_t bound : 4;
};
static_assert(sizeof(S4Entry) == 16);
enum S4Bound : uint32_t { kNoBound = 0, kUpper = 1, kLower = 2, kExact = 3 };

class S4Table {
 public:
  static constexpr int kLog2 = 18;
  S4Table() : table_(size_t(1) << kLog2) {}
  void Clear() { std::fill(table_.begin(), table_.end(), S4Entry{}); }
  const S4Entry* Probe(uint64_t key) const {
    const S4Entry& e = table_[key & kMask];
    return e.key == key && e.bound != kNoBound ? &e : nullptr;
  }
  void Store(uint64_t key, int score, s4::Move move, int depth, S4Bound bound) {
    S4Entry& e = table_[key & kMask];
    if (e.key == key && int(e.depth) > depth && bound != kExact) return;
    if (e.key == key && move == 0) move = e.move;
    e.key = key;
    e.score = score;
    e.move = move;
    e.depth = uint32_t(std::clamp(depth, 0, 255));
    e.bound = bound;
  }

 private:
  static constexpr uint64_t kMask = (uint64_t(1) << kLog2) - 1;
  std::vector<S4Entry> table_;
};

S4Table& ThreadTable() {
  thread_local S4Table table;
  return table;
}

// The engine's key (board, hands, survivors, seat to move) plus who mated whom: the
// evaluation ranks survivors by mates made.
uint64_t HashKey(const s4::Position& pos) {
  uint64_t k = s4::Key(pos);
  if (pos.n_elim > 0) {
    uint64_t m = 0;
    for (int s = 0; s < s4::kSeats; ++s) m = (m << 8) | uint8_t(pos.mated_by[s] + 1);
    k ^= (m + 1) * 0xD6E8FEB86659FD93ULL;
  }
  return k;
}

// Does `m` (by pos.to_move) put a live rival king in direct check? Board geometry only
// (discovered checks are not seen): the forced-mate search tries only these.
bool GivesCheck(const s4::Position& pos, s4::Move m) {
  const s4::Tables& t = s4::Tab();
  const int mover = pos.to_move, to = s4::MoveTo(m);
  int type, facing, from = -1;
  if (s4::IsDrop(m)) {
    type = s4::DropType(m);
    facing = mover;
  } else {
    from = s4::MoveFrom(m);
    const s4::Cell c = pos.board[from];
    type = s4::TypeOf(c);
    if (s4::IsPromotion(m)) type = s4::kPromoted[type];
    facing = s4::FacingOf(c);
  }
  const int tr = s4::RankOf(to), tc = s4::ColOf(to);
  for (int o = 0; o < s4::kSeats; ++o) {
    if (o == mover || !pos.Alive(o)) continue;
    const int k = pos.king[o];
    const int dr = s4::RankOf(k) - tr, dc = s4::ColOf(k) - tc;
    const int sr = (dr > 0) - (dr < 0), sc = (dc > 0) - (dc < 0);
    int d = 0;
    while (d < 8 && !(s4::kDirRank[d] == sr && s4::kDirCol[d] == sc)) ++d;
    if (d == 8) continue;  // same square: impossible
    if (std::max(std::abs(dr), std::abs(dc)) == 1 && ((t.steps[type][facing] >> d) & 1))
      return true;
    if (s4::Slides(type) && (dr == 0 || dc == 0)) {
      int n = t.next[to][d];
      while (n != s4::kNoSquare && n != k && (pos.board[n] == 0 || n == from)) n = t.next[n][d];
      if (n == k) return true;
    }
  }
  return false;
}

class Shogi4Searcher {
 public:
  // `mates`: take a mate at once and look for a forced mate by check first (level 10).
  Shogi4Searcher(int me, int max_depth, uint64_t max_nodes, int64_t time_ms, int noise,
                 uint64_t seed, bool mates)
      : me_(me),
        mates_(mates),
        max_depth_(max_depth),
        max_nodes_(max_nodes),
        time_ms_(time_ms),
        noise_(noise),
        seed_(seed),
        start_(std::chrono::steady_clock::now()),
        tt_(ThreadTable()) {
    for (auto& l : lists_) l = std::make_unique<s4::MoveList>();
    tt_.Clear();
  }

  // Root moves best first after the deepest iteration (an iteration cut short by the node
  // or time limit still counts for the root moves it finished: the previous best is
  // searched first, so a move that beat it is better).
  std::vector<std::pair<int, s4::Move>> Run(const s4::Position& root, int* depth, uint64_t* nodes) {
    s4::MoveList& list = *lists_[0];
    list.size = 0;
    s4::GenerateLegal(root, me_, &list);
    std::vector<std::pair<int, s4::Move>> ranked;
    for (s4::Move m : list) ranked.push_back({0, m});
    Order(root, 0, &ranked);
    *depth = 0;
    bool mate_now = !mates_;
    for (const auto& [unused, m] : ranked) {
      if (mate_now) break;
      ++nodes_;
      s4::Position child = root;
      s4::MakeMove(child, m);
      mate_now = child.n_elim > root.n_elim;
    }
    if (const s4::Move forced = mate_now ? 0 : ForcedMate(root)) {
      std::stable_partition(ranked.begin(), ranked.end(),
                            [forced](const auto& r) { return r.second == forced; });
      ranked[0].first = kMateNow;
      *depth = 3;
      *nodes = nodes_;
      return ranked;
    }
    for (int d = 1; d <= max_depth_; ++d) {
      std::vector<std::pair<int, s4::Move>> next;
      int alpha = -kInf;
      for (const auto& [unused, m] : ranked) {
        s4::Position child = root;
        s4::MakeMove(child, m);
        int s = Search(child, d - 1, alpha, kInf, 1) + Noise(m);
        if (stop_) break;
        if (mates_ && child.over == s4::EndReason::kNone && child.n_elim > root.n_elim &&
            child.mated_by[child.elim[root.n_elim]] == me_)
          s += kMateNow;
        next.push_back({s, m});
        alpha = std::max(alpha, s);
      }
      std::stable_sort(next.begin(), next.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      if (stop_) {
        if (!next.empty() && next[0].second != ranked[0].second) {
          for (const auto& r : ranked) {
            bool seen = false;
            for (const auto& n : next) seen = seen || n.second == r.second;
            if (!seen) next.push_back(r);
          }
          ranked = next;
        }
        break;
      }
      ranked = next;
      *depth = d;
      if (ranked[0].first >= kWin / 2) break;
      if (time_ms_ > 0 && Elapsed() * 3 > time_ms_) break;
    }
    *nodes = nodes_;
    return ranked;
  }

 private:
  // A move of ours that mates someone at once and does not end the game with us below
  // first place; only checks are tried (a mate is nearly always one). 0 if none.
  s4::Move MateInOne(const s4::Position& pos, s4::MoveList* list) {
    list->size = 0;
    s4::GenerateLegal(pos, me_, list);
    for (s4::Move m : *list) {
      if (!GivesCheck(pos, m)) continue;
      ++nodes_;
      s4::Position child = pos;
      s4::MakeMove(child, m);
      if (child.n_elim == pos.n_elim || child.mated_by[child.elim[pos.n_elim]] != me_) continue;
      if (child.over == s4::EndReason::kNone || s4::Places(child)[me_] == 1) return m;
    }
    return 0;
  }

  // A check after which the checked seat has few answers and every one of them gives us
  // the move with a mate in one. 0 if none.
  s4::Move ForcedMate(const s4::Position& root) {
    s4::MoveList& mine = *lists_[1];
    mine.size = 0;
    s4::GenerateLegal(root, me_, &mine);
    const uint64_t stop = nodes_ + kForcedNodes;
    for (s4::Move m : mine) {
      if (nodes_ >= stop) break;  // a big hand gives many checks: keep the search's nodes
      if (!GivesCheck(root, m)) continue;
      ++nodes_;
      s4::Position c = root;
      s4::MakeMove(c, m);
      if (c.over != s4::EndReason::kNone || c.n_elim != root.n_elim || c.to_move == me_ ||
          !s4::InCheck(c, c.to_move))
        continue;
      s4::MoveList& answers = *lists_[2];
      answers.size = 0;
      s4::GenerateLegal(c, c.to_move, &answers);
      if (answers.size == 0 || answers.size > kForcedAnswers) continue;
      bool forced = true;
      for (s4::Move r : answers) {
        ++nodes_;
        s4::Position d = c;
        s4::MakeMove(d, r);
        forced = d.over == s4::EndReason::kNone && d.to_move == me_ && d.n_elim == c.n_elim &&
                 MateInOne(d, lists_[3].get()) != 0;
        if (!forced) break;
      }
      if (forced) return m;
    }
    return 0;
  }

  int64_t Elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start_)
        .count();
  }

  int Noise(s4::Move m) const {
    if (noise_ <= 0) return 0;
    uint64_t z = (seed_ ^ m) * 0x9E3779B97F4A7C15ULL;
    z ^= z >> 29;
    return int((z >> 17) % uint64_t(2 * noise_ + 1)) - noise_;
  }

  int Eval(const s4::Position& pos) const {
    if (pos.over != s4::EndReason::kNone) {
      const auto places = s4::Places(pos);
      return kWin * (5 - 2 * places[me_]) / 3;
    }
    if (!pos.Alive(me_)) return -kWin;
    int mat[s4::kSeats + 1] = {};
    for (int sq = 0; sq < s4::kSquares; ++sq) {
      const s4::Cell c = pos.board[sq];
      if (c) mat[s4::OwnerOf(c)] += kBoardValue[s4::TypeOf(c)];
    }
    for (int s = 0; s < s4::kSeats; ++s)
      for (int h = 0; h < s4::kHandTypes; ++h) mat[s] += pos.hand[s][h] * kHandValue[h];
    int others = 0, n = 0, pressure = 0, rival_mates = 0;
    const unsigned my_bit = 1u << me_;
    for (int o = 0; o < s4::kSeats; ++o) {
      if (o == me_ || !pos.Alive(o)) continue;
      others += mat[o];
      ++n;
      rival_mates = std::max(rival_mates, pos.MatesMade(o));
      // Our pieces near their king, and checks: mating chances. (Board lookups only: the
      // attack test is the costly part of a node, so it is used once per king.)
      pressure += 10 * Near(pos, pos.king[o], me_, 2);
      if (s4::Attacked(pos.board, pos.king[o], my_bit)) pressure += 40;
    }
    // Enemies around our king hurt, our own pieces beside it (a wall) help.
    const int k = pos.king[me_];
    int enemies = 0;
    for (int o = 0; o < s4::kSeats; ++o)
      if (o != me_ && pos.Alive(o)) enemies += Near(pos, k, o, 2);
    const int safety = 8 * Near(pos, k, me_, 1) - 12 * enemies;
    // Survivors are ranked by mates made first: a rival's mate costs us a place.
    return mat[me_] - (n ? others / n : 0) + kMateBonus * (pos.MatesMade(me_) - rival_mates) +
           pressure + safety;
  }

  // Pieces of `owner` (kings excluded) within `r` squares (king steps) of `sq`.
  static int Near(const s4::Position& pos, int sq, int owner, int r) {
    const int r0 = s4::RankOf(sq), c0 = s4::ColOf(sq);
    int n = 0;
    for (int rr = std::max(0, r0 - r); rr <= std::min(8, r0 + r); ++rr) {
      for (int cc = std::max(0, c0 - r); cc <= std::min(8, c0 + r); ++cc) {
        const s4::Cell c = pos.board[s4::MakeSquare(rr, cc)];
        n += c && s4::OwnerOf(c) == owner && s4::TypeOf(c) != s4::kKing;
      }
    }
    return n;
  }

  // Hash move, captures (most valuable victim), then promotions, board moves, drops.
  // (Checks and killers ahead of the other quiet moves made the bot weaker in matches:
  // the beam then fills with checking drops that lose the piece.)
  void Order(const s4::Position& pos, s4::Move hash_move,
             std::vector<std::pair<int, s4::Move>>* moves) const {
    for (auto& [key, m] : *moves) {
      if (m == hash_move) {
        key = kKeyHash;
        continue;
      }
      const s4::Cell victim = pos.board[s4::MoveTo(m)];
      key = victim ? kKeyCapture + kBoardValue[s4::TypeOf(victim)] : 0;
      if (s4::IsPromotion(m)) key += 500;
      if (s4::IsDrop(m)) key -= 100;
    }
    std::stable_sort(moves->begin(), moves->end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
  }

  bool Tick() {
    ++nodes_;
    if ((max_nodes_ && nodes_ >= max_nodes_) ||
        ((nodes_ & 7) == 0 && time_ms_ > 0 && Elapsed() >= time_ms_)) {
      stop_ = true;
    }
    return stop_;
  }

  int Search(const s4::Position& pos, int depth, int alpha, int beta, int ply) {
    if (Tick()) return 0;
    if (pos.over != s4::EndReason::kNone || !pos.Alive(me_)) return Eval(pos);
    if (depth <= 0 || ply >= kMaxPly - 1) return Quiesce(pos, alpha, beta, ply, 0);
    const uint64_t key = HashKey(pos);
    s4::Move hash_move = 0;
    if (const S4Entry* e = tt_.Probe(key)) {
      hash_move = e->move;
      if (int(e->depth) >= depth) {
        if (e->bound == kExact || (e->bound == kLower && e->score >= beta) ||
            (e->bound == kUpper && e->score <= alpha))
          return e->score;
      }
    }
    const bool maxing = pos.to_move == me_;
    s4::MoveList& list = *lists_[ply];
    list.size = 0;
    s4::GenerateLegal(pos, pos.to_move, &list);
    if (list.size == 0) return Eval(pos);
    std::vector<std::pair<int, s4::Move>> moves;
    moves.reserve(list.size);
    for (s4::Move m : list) moves.push_back({0, m});
    Order(pos, hash_move, &moves);
    const int alpha0 = alpha, beta0 = beta;
    int quiet = 0;
    int best = maxing ? -kInf : kInf;
    s4::Move best_move = 0;
    for (const auto& [key, m] : moves) {
      if (key < kKeyCapture && key != kKeyHash && ++quiet > (maxing ? 40 : 24)) break;  // beam
      s4::Position child = pos;
      s4::MakeMove(child, m);
      const int s = Search(child, depth - 1, alpha, beta, ply + 1);
      if (stop_) return 0;
      if (maxing ? s > best : s < best) {
        best = s;
        best_move = m;
      }
      if (maxing)
        alpha = std::max(alpha, s);
      else
        beta = std::min(beta, s);
      if (alpha >= beta) break;
    }
    const S4Bound bound = best <= alpha0 ? kUpper : best >= beta0 ? kLower : kExact;
    tt_.Store(key, best, best_move, depth, bound);
    return best;
  }

  // Captures only, a few plies deep. (Checks and answers to checks here made the bot
  // weaker in matches: the paranoid rivals then find more joint mates against us.)
  int Quiesce(const s4::Position& pos, int alpha, int beta, int ply, int qdepth) {
    const int stand = Eval(pos);
    if (pos.over != s4::EndReason::kNone || !pos.Alive(me_) || qdepth >= kQuiesceDepth ||
        ply >= kMaxPly - 1)
      return stand;
    const bool maxing = pos.to_move == me_;
    if (maxing) {
      if (stand >= beta) return stand;
      alpha = std::max(alpha, stand);
    } else {
      if (stand <= alpha) return stand;
      beta = std::min(beta, stand);
    }
    s4::MoveList& list = *lists_[ply];
    list.size = 0;
    s4::GenerateLegal(pos, pos.to_move, &list);
    std::vector<std::pair<int, s4::Move>> caps;
    for (s4::Move m : list) {
      if (!s4::IsDrop(m) && pos.board[s4::MoveTo(m)]) caps.push_back({0, m});
    }
    Order(pos, 0, &caps);
    int best = stand;
    for (const auto& [key, m] : caps) {
      if (Tick()) return 0;
      s4::Position child = pos;
      s4::MakeMove(child, m);
      const int s = Quiesce(child, alpha, beta, ply + 1, qdepth + 1);
      if (stop_) return 0;
      if (maxing) {
        best = std::max(best, s);
        alpha = std::max(alpha, s);
      } else {
        best = std::min(best, s);
        beta = std::min(beta, s);
      }
      if (alpha >= beta) break;
    }
    return best;
  }

  const int me_;
  const bool mates_;
  const int max_depth_;
  const uint64_t max_nodes_;
  const int64_t time_ms_;
  const int noise_;
  const uint64_t seed_;
  const std::chrono::steady_clock::time_point start_;
  uint64_t nodes_ = 0;
  bool stop_ = false;
  std::unique_ptr<s4::MoveList> lists_[kMaxPly];
  S4Table& tt_;
};

}  // namespace

absl::StatusOr<Choice> ChooseShogi4(const game::Game& game, const Request& request, uint64_t seed,
                                    bool seeded) {
  const auto* sg = dynamic_cast<const s4::Shogi4Game*>(&game);
  if (!sg) return absl::InternalError("shogi4 game of an unexpected type");
  const s4::Position& pos = sg->position();
  const int me = pos.to_move;
  const LevelSpec& spec = Level(request.level);
  Rng rng(seed);
  Choice c;
  if (spec.random_permille > 0 && rng.Below(1000) < spec.random_permille) {
    std::vector<game::Move> legal = game.LegalMoves();
    if (legal.empty()) return absl::FailedPreconditionError("no legal move");
    c.move = legal[rng.Below(int(legal.size()))];
    return c;
  }
  int depth = std::clamp(spec.max_depth / 2 + 1, 1, spec.max_nodes == 0 ? 12 : 6);
  uint64_t nodes = spec.max_nodes / 4;
  if (seeded && nodes == 0) nodes = uint64_t(request.budget_ms) * 20;
  const int64_t time_ms = std::max(1, request.budget_ms - std::min(20, request.budget_ms / 10));
  Shogi4Searcher s(me, depth, nodes, time_ms, spec.noise_cp, rng.Next(), spec.max_nodes == 0);
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
