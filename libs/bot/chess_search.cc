#include "libs/bot/chess_search.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>

#include "libs/bot/chess_captures.h"
#include "libs/bot/chess_eval.h"
#include "libs/bot/chess_memory.h"
#include "libs/bot/clock.h"
#include "libs/bot/tt.h"
#include "libs/chess/game.h"  // RepetitionKey: the game's own repetition identity
#include "libs/chess/movegen.h"

namespace tablero::bot {

using namespace chess;  // NOLINT: the engine's own vocabulary

namespace {

constexpr int kInf = 32000;
constexpr int kMaxPly = 120;
constexpr int kSingularDepth = 8;  // the least depth a singular extension is tested at
constexpr int kProbCutMargin = 180;

uint64_t Mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Mate scores are stored relative to the node, not the root.
int ToTt(int s, int ply) {
  return s > kChessMateBound ? s + ply : s < -kChessMateBound ? s - ply : s;
}
int FromTt(int s, int ply) {
  return s > kChessMateBound ? s - ply : s < -kChessMateBound ? s + ply : s;
}

const auto kLmr = [] {
  std::array<std::array<int8_t, 64>, 64> t{};
  for (int d = 1; d < 64; ++d)
    for (int i = 1; i < 64; ++i) t[d][i] = int8_t(0.75 + std::log(d) * std::log(i) / 2.25);
  return t;
}();

bool IsCapture(const Position& pos, Move m) {
  return pos.piece_on(m.to()) != kNoPiece || m.kind() == Move::kEnPassant;
}

// 4 MB per thread (2^18 entries). (The analyzer takes a thread_local's destruction at
// thread exit for a free before use: a false positive.)
TranspositionTable& ThreadTable() {
  thread_local auto tt = std::make_unique<TranspositionTable>(18);
  return *tt;  // NOLINT(clang-analyzer-cplusplus.NewDelete)
}
// Whether the thread's table holds only entries of noise-free searches, and the network
// they evaluated by (null: a weights table).
thread_local bool table_clean = false;
thread_local const ChessNet* table_net = nullptr;

// 1.3 MB per thread, kept off the stack.
ChessSearchMemory& ThreadMemory() {
  thread_local auto memory = std::make_unique<ChessSearchMemory>();
  return *memory;  // NOLINT(clang-analyzer-cplusplus.NewDelete)
}

class Searcher {
 public:
  Searcher(const ChessLimits& limits, const std::vector<uint64_t>& history)
      : limits_(limits),
        tt_(ThreadTable()),
        mem_(ThreadMemory()),
        net_(ActiveChessNet()),
        keys_(history) {
    const bool reuse =
        limits.reuse_table && limits.noise_cp == 0 && table_clean && table_net == net_;
    if (!reuse) {
      tt_.Clear();
      mem_.Clear();
    }
    table_clean = limits.noise_cp == 0;
    table_net = net_;
    if (net_) net_stack_.emplace(*net_, kMaxPly + 2);
    if (limits.deadline != std::chrono::steady_clock::time_point{}) {
      clock_ = SearchClock(limits.deadline, limits.cancelled);
    } else if (limits.time_ms > 0) {
      clock_ =
          SearchClock(std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.time_ms));
    }
  }

  ChessResult Run(const Position& root) {
    ChessResult r;
    root_index_ = int(keys_.size());
    keys_.push_back(RepetitionKey(root));
    keys_.resize(root_index_ + kMaxPly + 2);
    MoveList legal(root);
    if (legal.size == 0) return r;
    root_best_ = legal.moves[0];
    r.move = root_best_;
    int prev = 0;
    for (int depth = 1; depth <= std::min(limits_.max_depth, kMaxPly - 8); ++depth) {
      root_depth_ = depth;
      int score;
      if (depth >= 5 && std::abs(prev) < kChessMateBound) {
        int delta = 25, a = prev - delta, b = prev + delta;
        while (true) {
          score = Search(root, a, b, depth, 0, true);
          if (stop_) break;
          if (score <= a) {
            a = std::max(score - delta, -kInf);
          } else if (score >= b) {
            b = std::min(score + delta, kInf);
          } else {
            break;
          }
          delta *= 2;
        }
      } else {
        score = Search(root, -kInf, kInf, depth, 0, true);
      }
      if (stop_) break;
      prev = score;
      r.move = root_best_;
      r.score = score;
      r.depth = depth;
      if (legal.size == 1 && depth >= 4) break;  // a forced move: no need to think long
      if (std::abs(score) > kChessMateBound && depth >= kChessMate - std::abs(score) + 2) break;
      // Time left over is lost (each move has its own budget), so the next iteration starts
      // whenever time is left, even if it cannot finish: its first move is the best so far,
      // searched first, and a move that beats it in the partial iteration is better.
      if (clock_.Expired()) break;
    }
    // A partly searched iteration's best move beat the previous best at that depth.
    if (stop_) r.move = root_best_;
    r.nodes = nodes_;
    r.stopped_by_time = stopped_by_time_;
    return r;
  }

 private:
  // Limits apply from the second iteration on: the first one always completes, so the
  // answer is never a move that was not even searched (it takes well under a millisecond).
  void Count() {
    if (stop_) return;
    ++nodes_;
    if (root_depth_ == 1) return;
    if (limits_.max_nodes && nodes_ >= limits_.max_nodes) stop_ = true;
    if ((nodes_ & 255) == 0 && clock_.Expired()) {
      stop_ = stopped_by_time_ = true;
    }
  }

  // The static evaluation of `pos`, the position at `ply`.
  int Eval(const Position& pos, int ply) {
    // Quiescence revisits many positions: cache the static evaluation by key.
    EvalSlot& slot = eval_cache_[pos.key() & (kEvalCacheSize - 1)];
    int v;
    if (slot.key == pos.key()) {
      v = slot.eval;
    } else {
      v = net_ && ChessNetApplies(pos) ? net_stack_->Evaluate(ply) : Evaluate(pos, nullptr);
      slot = EvalSlot{pos.key(), v};
    }
    if (limits_.noise_cp > 0) {
      const uint64_t h = Mix(pos.key() ^ limits_.noise_seed);
      v += int(h % uint64_t(2 * limits_.noise_cp + 1)) - limits_.noise_cp;
    }
    return v;
  }

  // Draw by repetition: the position occurred before since the last irreversible move,
  // once inside the search (after the root: the side that repeated can repeat again) or
  // twice in all (a threefold repetition the game itself would call). A single earlier
  // occurrence in the game's history is not a draw: the opponent need not repeat, and
  // scoring it 0 let the bot walk into a repeated position that simply loses a piece.
  bool IsRepetition(const Position& pos, int ply) const {
    const int now = root_index_ + ply;
    const int stop = std::max(0, now - pos.halfmove_clock());
    int seen = 0;
    for (int i = now - 2; i >= stop; i -= 2) {
      if (keys_[i] != keys_[now]) continue;
      if (i > root_index_ || ++seen == 2) return true;
    }
    return false;
  }

  bool HasPieces(const Position& pos) const {
    const Color c = pos.side_to_move();
    return pos.pieces(c) & ~pos.pieces(c, kPawn, kKing);
  }

  // Continuation history: how a quiet move (piece, to) fared after the move one or two plies
  // back (piece, to); null where there is none (the root, a null move).
  using ContRow = int16_t[12][64];
  ContRow* ContAt(int ply) {
    if (ply < 0 || !played_[ply].ok()) return nullptr;
    return &mem_.cont[moved_[ply]][played_[ply].to()];
  }
  // The history of a quiet move: from-to, and piece-to after each of the last two moves.
  int QuietScore(const Position& pos, Move m, const ContRow* c1, const ContRow* c2) const {
    const Color us = pos.side_to_move();
    const Piece pc = pos.piece_on(m.from());
    return mem_.history[us][m.from()][m.to()] + (c1 ? (*c1)[pc][m.to()] : 0) +
           (c2 ? (*c2)[pc][m.to()] : 0);
  }

  // Ordering scores for moves[0..n).
  void ScoreMoves(const Position& pos, const Move* moves, int n, int* scores, Move tt_move, int ply,
                  Move counter = Move(), const ContRow* c1 = nullptr,
                  const ContRow* c2 = nullptr) const {
    for (int i = 0; i < n; ++i) {
      const Move m = moves[i];
      int s;
      if (m == tt_move) {
        s = 1 << 30;
      } else if (IsCapture(pos, m) || (m.kind() == Move::kPromotion && m.promotion() == kQueen)) {
        // The victim's value, then how this capture (piece, square, victim) fared.
        const int victim = Victim(pos, m);
        const int attacker = TypeOf(pos.piece_on(m.from()));
        s = (1 << 24) + 8 * (kPieceValue[victim] + (m.kind() == Move::kPromotion ? 900 : 0)) +
            CaptureHistory(pos, m) / 16;
        if (kPieceValue[attacker] > kPieceValue[victim] && See(pos, m) < 0) s -= 1 << 25;
      } else if (m.kind() == Move::kPromotion) {
        s = -(1 << 26);  // under-promotions last
      } else if (m == killers_[ply][0]) {
        s = (1 << 23) + 1;
      } else if (m == killers_[ply][1]) {
        s = 1 << 23;
      } else if (m == counter) {
        s = (1 << 23) - 1;
      } else {
        s = QuietScore(pos, m, c1, c2);
      }
      scores[i] = s;
    }
  }

  // The type of piece a capture takes (a pawn for en passant; a queen promotion that takes
  // nothing counts as taking a pawn).
  static int Victim(const Position& pos, Move m) {
    const Piece p = pos.piece_on(m.to());
    return p == kNoPiece ? int(kPawn) : int(TypeOf(p));
  }
  int16_t& CaptureHistory(const Position& pos, Move m) {
    return mem_.capture_history[pos.piece_on(m.from())][m.to()][Victim(pos, m)];
  }
  int CaptureHistory(const Position& pos, Move m) const {
    return mem_.capture_history[pos.piece_on(m.from())][m.to()][Victim(pos, m)];
  }

  static void PickNext(Move* moves, int* scores, int n, int i) {
    int best = i;
    for (int j = i + 1; j < n; ++j)
      if (scores[j] > scores[best]) best = j;
    std::swap(moves[i], moves[best]);
    std::swap(scores[i], scores[best]);
  }

  int Search(const Position& pos, int alpha, int beta, int depth, int ply, bool null_ok) {
    if (depth <= 0) return Quiesce(pos, alpha, beta, ply);
    if (net_) net_stack_->Enter(ply, &pos);
    Count();
    if (stop_) return 0;
    const bool pv = beta - alpha > 1;
    if (ply > 0) {
      if (pos.halfmove_clock() >= 100 || IsRepetition(pos, ply) || pos.InsufficientMaterial())
        return 0;
      if (ply >= kMaxPly - 4) return Eval(pos, ply);
      alpha = std::max(alpha, -kChessMate + ply);
      beta = std::min(beta, kChessMate - ply - 1);
      if (alpha >= beta) return alpha;
    }
    const int orig_alpha = alpha;
    const uint64_t key = pos.key();
    // A singular-extension test searches this node again without its table move: the
    // table then neither answers nor is written.
    const Move excluded = excluded_[ply];
    Move tt_move;
    const TtEntry* e = tt_.Probe(key);
    int tt_score = 0, tt_depth = -1;
    Bound tt_bound = kBoundUpper;
    if (e) {
      tt_move = Move(e->move);
      const int s = tt_score = FromTt(e->score, ply);
      tt_depth = e->depth;
      tt_bound = Bound(e->bound);
      if (!pv && ply > 0 && !excluded.ok() && e->depth >= depth &&
          (e->bound == kBoundExact || (e->bound == kBoundLower && s >= beta) ||
           (e->bound == kBoundUpper && s <= alpha)))
        return s;
    }
    const bool in_check = pos.InCheck();
    const int raw_eval = in_check ? 0 : e ? e->eval : Eval(pos, ply);
    int16_t& correction = CorrectionSlot(pos);
    const int static_eval = in_check ? -kInf : Corrected(correction, raw_eval);
    evals_[ply] = static_eval;
    // Whether our position got better than it was two plies ago: prune and reduce less
    // when it did (the previous move of ours was not a wasted one).
    const bool improving = !in_check && ply >= 2 && static_eval > evals_[ply - 2];
    // What pruning goes by: the static evaluation, or the table's score where its bound
    // says the position is better (lower bound) or worse (upper bound) than that.
    int eval = static_eval;
    if (e && !in_check) {
      const int s = FromTt(e->score, ply);
      if (std::abs(s) < kChessMateBound &&
          (e->bound == kBoundExact || (e->bound == kBoundLower && s > eval) ||
           (e->bound == kBoundUpper && s < eval)))
        eval = s;
    }

    if (!pv && !in_check && std::abs(beta) < kChessMateBound) {
      // Reverse futility: far above beta at low depth, the opponent will not catch up.
      if (depth <= 6 && eval - 90 * (depth - improving) >= beta) return eval;
      // Razoring: hopelessly below alpha near the leaves, only captures can save it.
      if (depth <= 2 && eval + 250 * depth < alpha) {
        const int q = Quiesce(pos, alpha - 1, alpha, ply);
        if (stop_) return 0;
        if (q < alpha) return q;
      }
      // Null move: if passing still fails high, a real move will too (not in zugzwang-prone
      // pawn endings).
      if (null_ok && !excluded.ok() && depth >= 3 && eval >= beta && HasPieces(pos)) {
        Position next = pos;
        next.DoNullMove();
        tt_.Prefetch(next.key());
        keys_[root_index_ + ply + 1] = RepetitionKey(next);
        played_[ply] = Move();
        const int r = 3 + depth / 6 + std::min((eval - beta) / 200, 3);
        const int s = -Search(next, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
        if (stop_) return 0;
        if (s >= beta) return s > kChessMateBound ? beta : s;
      }
      // ProbCut: a capture that beats beta by a margin in a search four plies shallower
      // (after quiescence agrees) very likely beats beta in the full one.
      const int pc_beta = beta + kProbCutMargin;
      if (depth >= 5 && !excluded.ok() && !(tt_depth >= depth - 3 && tt_score < pc_beta)) {
        Move caps[kMaxMoves];
        const int nc = GenerateCaptures(pos, caps);
        for (int i = 0; i < nc; ++i) {
          const Move m = caps[i];
          if (See(pos, m) < pc_beta - eval) continue;
          Position next = pos;
          next.DoMove(m);
          if (!LeavesKingSafe(next, pos.side_to_move())) continue;
          keys_[root_index_ + ply + 1] = RepetitionKey(next);
          played_[ply] = m;
          moved_[ply] = pos.piece_on(m.from());
          int s = -Quiesce(next, -pc_beta, -pc_beta + 1, ply + 1);
          if (s >= pc_beta) s = -Search(next, -pc_beta, -pc_beta + 1, depth - 4, ply + 1, true);
          if (stop_) return 0;
          if (s >= pc_beta) {
            tt_.Store(key, ToTt(s, ply), raw_eval, m.raw(), depth - 3, kBoundLower);
            return s;
          }
        }
      }
    }

    // Internal iterative reduction: with no hash move at a deep node, ordering is poor;
    // search it shallower now and let the next iteration come back with a move.
    if (!tt_move.ok() && depth >= 5 && !in_check && !excluded.ok()) --depth;

    Move moves[kMaxMoves];
    int scores[kMaxMoves];
    const int n = GenerateLegal(pos, moves);
    if (n == 0) return in_check ? -kChessMate + ply : 0;
    const Move prev = ply > 0 ? played_[ply - 1] : Move();
    const Move counter = prev.ok() ? mem_.counters[prev.from()][prev.to()] : Move();
    ContRow* const c1 = ContAt(ply - 1);
    ContRow* const c2 = ContAt(ply - 2);
    ScoreMoves(pos, moves, n, scores, tt_move, ply, counter, c1, c2);

    int best = -kInf;
    Move best_move;
    Move quiets[64], captures[32];
    int n_quiets = 0, n_captures = 0;
    int searched = 0;  // moves searched so far (the excluded and pruned ones are not)
    for (int i = 0; i < n; ++i) {
      PickNext(moves, scores, n, i);
      const Move m = moves[i];
      if (m == excluded) continue;
      const bool quiet = !IsCapture(pos, m) && m.kind() != Move::kPromotion;
      // Singular extension: the table's move, when every other move falls well short of
      // its score in a shallower search, is searched a ply deeper; when even without it
      // the node fails high, it does (several good moves).
      int singular_ext = 0;
      if (m == tt_move && ply > 0 && depth >= kSingularDepth && !excluded.ok() &&
          tt_bound != kBoundUpper && tt_depth >= depth - 3 &&
          std::abs(tt_score) < kChessMateBound) {
        const int sbeta = tt_score - 2 * depth;
        excluded_[ply] = m;
        const int s = Search(pos, sbeta - 1, sbeta, (depth - 1) / 2, ply, false);
        excluded_[ply] = Move();
        if (stop_) return 0;
        if (s < sbeta) {
          singular_ext = 1;
        } else if (sbeta >= beta) {
          return sbeta;
        }
      }
      Position next = pos;
      next.DoMove(m);
      tt_.Prefetch(next.key());
      const bool gives_check = next.InCheck();
      if (!pv && !in_check && !gives_check && best > -kChessMateBound && i > 0) {
        if (quiet) {
          // Late move pruning and futility pruning of quiet moves near the leaves, and
          // quiet moves that put a piece where it is simply lost.
          if (depth <= 3 && i >= (3 + 2 * depth * depth) * (2 + improving) / 3) continue;
          if (depth <= 2 && eval + 120 * depth <= alpha) continue;
          if (depth <= 4 && See(pos, m) < -60 * depth) continue;
        } else if (depth <= 4 && See(pos, m) < -100 * depth) {
          continue;  // a capture that loses material at low depth
        }
      }
      // Extend checks that do not simply lose the checking piece.
      const int ext = singular_ext || (gives_check && ply < 2 * root_depth_ &&
                                       (searched == 0 || See(pos, m) >= 0))
                          ? 1
                          : 0;
      const int new_depth = depth - 1 + ext;
      keys_[root_index_ + ply + 1] = RepetitionKey(next);
      played_[ply] = m;
      moved_[ply] = pos.piece_on(m.from());
      int s;
      if (searched++ == 0) {
        s = -Search(next, -beta, -alpha, new_depth, ply + 1, true);
      } else {
        int r = 0;
        if (depth >= 3 && i >= (pv ? 4 : 2) && quiet && !in_check && !gives_check) {
          r = kLmr[std::min(depth, 63)][std::min(i, 63)];
          if (pv) --r;
          if (!improving) ++r;
          if (m == killers_[ply][0] || m == killers_[ply][1] || m == counter) --r;
          // Moves that often refute: less.
          r -= mem_.history[pos.side_to_move()][m.from()][m.to()] / 8192;
          r = std::clamp(r, 0, new_depth - 1);
        }
        s = -Search(next, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
        if (s > alpha && r > 0) s = -Search(next, -alpha - 1, -alpha, new_depth, ply + 1, true);
        if (s > alpha && s < beta) s = -Search(next, -beta, -alpha, new_depth, ply + 1, true);
      }
      if (stop_) return 0;
      if (s > best) {
        best = s;
        best_move = m;
        if (ply == 0 && (searched == 1 || s > alpha)) root_best_ = m;
        if (s > alpha) {
          alpha = s;
          if (alpha >= beta) {
            // The move that refuted is rewarded, the ones tried before it of its kind (and
            // the captures tried before a quiet refutation) are not.
            const int bonus = std::min(depth * depth, 400);
            if (!quiet) ChessSearchMemory::UpdateHistory(CaptureHistory(pos, m), bonus);
            for (int q = 0; q < n_captures; ++q)
              ChessSearchMemory::UpdateHistory(CaptureHistory(pos, captures[q]), -bonus);
            if (quiet) {
              if (!(killers_[ply][0] == m)) {
                killers_[ply][1] = killers_[ply][0];
                killers_[ply][0] = m;
              }
              if (prev.ok()) mem_.counters[prev.from()][prev.to()] = m;
              UpdateQuiet(pos, m, c1, c2, bonus);
              for (int q = 0; q < n_quiets; ++q) UpdateQuiet(pos, quiets[q], c1, c2, -bonus);
            }
            break;
          }
        }
      }
      if (quiet && n_quiets < 64) quiets[n_quiets++] = m;
      if (!quiet && n_captures < 32) captures[n_captures++] = m;
    }
    // No move searched: the table's move was the only one and is excluded (pruning needs a
    // move searched first).
    if (best == -kInf) return alpha;
    if (excluded.ok()) return best;
    const Bound bound = best >= beta ? kBoundLower : best > orig_alpha ? kBoundExact : kBoundUpper;
    tt_.Store(key, ToTt(best, ply), raw_eval, best_move.raw(), depth, bound);
    // Teach the correction what the search found, where the bound says which way the
    // static evaluation erred and the best move is quiet (a capture's gain is not the
    // evaluation's error).
    if (!in_check && std::abs(best) < kChessMateBound &&
        !(best_move.ok() && (IsCapture(pos, best_move) || best_move.kind() == Move::kPromotion)) &&
        !(bound == kBoundLower && best <= static_eval) &&
        !(bound == kBoundUpper && best >= static_eval))
      ChessSearchMemory::UpdateCorrection(correction, best - static_eval, depth);
    return best;
  }

  int Quiesce(const Position& pos, int alpha, int beta, int ply) {
    if (net_) net_stack_->Enter(ply, &pos);
    Count();
    if (stop_) return 0;
    if (ply >= kMaxPly - 1) return Eval(pos, ply);
    // The table: any entry (quiescence stores depth 0) whose bound decides the window
    // answers, and its move is tried first.
    const uint64_t key = pos.key();
    const TtEntry* e = tt_.Probe(key);
    Move tt_move;
    int tt_score = 0;
    if (e) {
      tt_move = Move(e->move);
      tt_score = FromTt(e->score, ply);
      if (e->bound == kBoundExact || (e->bound == kBoundLower && tt_score >= beta) ||
          (e->bound == kBoundUpper && tt_score <= alpha))
        return tt_score;
    }
    const bool store = !e || e->depth == 0;  // never over a deeper entry of this position
    const int orig_alpha = alpha;
    const bool in_check = pos.InCheck();
    int best = -kInf;
    int stand = 0;
    int raw_eval = 0;
    if (!in_check) {
      raw_eval = e ? e->eval : Eval(pos, ply);
      stand = Corrected(CorrectionSlot(pos), raw_eval);
      // The table's score is a better guess than the static evaluation where its bound
      // allows.
      if (e && std::abs(tt_score) < kChessMateBound &&
          (e->bound == kBoundLower ? tt_score > stand : tt_score < stand))
        stand = tt_score;
      if (stand >= beta) {
        if (store) tt_.Store(key, ToTt(stand, ply), raw_eval, 0, 0, kBoundLower);
        return stand;
      }
      if (stand > alpha) alpha = stand;
      best = stand;
    }
    Move moves[kMaxMoves];
    int scores[kMaxMoves];
    int n;
    if (in_check) {
      n = GenerateLegal(pos, moves);
      if (n == 0) return -kChessMate + ply;
    } else {
      // Captures and queen promotions that do not lose material (legality checked below).
      const int all = GenerateCaptures(pos, moves);
      n = 0;
      for (int i = 0; i < all; ++i) {
        const Move m = moves[i];
        const bool promo = m.kind() == Move::kPromotion;
        const Piece victim = pos.piece_on(m.to());
        const int gain = (victim == kNoPiece ? kPieceValue[kPawn] : kPieceValue[TypeOf(victim)]) +
                         (promo ? kPieceValue[kQueen] : 0);
        if (stand + gain + 200 < alpha && !promo) continue;  // delta pruning
        if (See(pos, m) < 0) continue;
        moves[n++] = m;
      }
    }
    ScoreMoves(pos, moves, n, scores, tt_move, std::min(ply, kMaxPly - 1));
    Move best_move;
    for (int i = 0; i < n; ++i) {
      PickNext(moves, scores, n, i);
      Position next = pos;
      next.DoMove(moves[i]);
      if (!in_check && !LeavesKingSafe(next, pos.side_to_move())) continue;
      tt_.Prefetch(next.key());
      __builtin_prefetch(&eval_cache_[next.key() & (kEvalCacheSize - 1)]);
      const int s = -Quiesce(next, -beta, -alpha, ply + 1);
      if (stop_) return 0;
      if (s > best) {
        best = s;
        if (s > alpha) {
          alpha = s;
          best_move = moves[i];
          if (alpha >= beta) break;
        }
      }
    }
    if (store) {
      const Bound bound = best >= beta        ? kBoundLower
                          : best > orig_alpha ? kBoundExact
                                              : kBoundUpper;
      tt_.Store(key, ToTt(best, ply), in_check ? 0 : raw_eval, best_move.raw(), 0, bound);
    }
    return best;
  }

  // The correction history's slot of the position (side to move, pawn structure).
  int16_t& CorrectionSlot(const Position& pos) {
    const uint64_t k = Mix(pos.pieces(kWhite, kPawn)) ^ (Mix(pos.pieces(kBlack, kPawn)) >> 1);
    return mem_.correction[pos.side_to_move()][k & (ChessSearchMemory::kCorrectionSlots - 1)];
  }
  // The static evaluation with what the searches so far found it off by.
  static int Corrected(int16_t slot, int raw) {
    const int v = raw + ChessSearchMemory::Correction(slot);
    return std::clamp(v, -kChessMateBound + 1, kChessMateBound - 1);
  }
  void UpdateQuiet(const Position& pos, Move m, ContRow* c1, ContRow* c2, int bonus) {
    const Piece pc = pos.piece_on(m.from());
    ChessSearchMemory::UpdateHistory(mem_.history[pos.side_to_move()][m.from()][m.to()], bonus);
    if (c1) ChessSearchMemory::UpdateHistory((*c1)[pc][m.to()], bonus);
    if (c2) ChessSearchMemory::UpdateHistory((*c2)[pc][m.to()], bonus);
  }

  struct EvalSlot {
    uint64_t key;
    int eval;
  };
  static constexpr size_t kEvalCacheSize = 1 << 14;

  const ChessLimits limits_;
  std::vector<EvalSlot> eval_cache_ = std::vector<EvalSlot>(kEvalCacheSize, EvalSlot{0, 0});
  TranspositionTable& tt_;
  ChessSearchMemory& mem_;
  const ChessNet* const net_;  // what Eval evaluates by (null: the thread's weights table)
  std::optional<ChessNetStack> net_stack_;  // with net_: its accumulators along the line
  std::vector<uint64_t> keys_;  // game history, then the root and the current search path
  int root_index_ = 0;
  int root_depth_ = 1;
  Move root_best_;
  uint64_t nodes_ = 0;
  bool stop_ = false;
  bool stopped_by_time_ = false;
  SearchClock clock_;
  Move killers_[kMaxPly + 1][2] = {};
  Move excluded_[kMaxPly + 1] = {};  // the move a singular-extension test leaves out
  Move played_[kMaxPly + 1] = {};    // the move made at each ply of the current path
  int evals_[kMaxPly + 1] = {};      // static evaluation at each ply (-kInf in check)
  Piece moved_[kMaxPly + 1] = {};    // the piece that made it
};

}  // namespace

ChessResult SearchChess(const Position& pos, const std::vector<uint64_t>& history,
                        const ChessLimits& limits) {
  auto searcher = std::make_unique<Searcher>(limits, history);  // large: keep off the stack
  return searcher->Run(pos);
}

}  // namespace tablero::bot
