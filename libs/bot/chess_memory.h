// What the chess search learns as it goes, beside the transposition table: how moves fared
// (the quiet and capture histories, counter moves), for move ordering, and what the static
// evaluation was off by (the correction history), added to the evaluation that pruning and
// reductions go by. The searcher keeps one per thread and carries it to the next search
// with the table (ChessLimits::reuse_table): a game's next position is one the last search
// has just looked at. Plain numbers, cleared with the table.
#ifndef TABLERO_LIBS_BOT_CHESS_MEMORY_H_
#define TABLERO_LIBS_BOT_CHESS_MEMORY_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "libs/chess/types.h"

namespace tablero::bot {

struct ChessSearchMemory {
  // History scores stay within +/-kHistoryMax: each update pulls the score towards the
  // bonus's sign by an amount that shrinks as the score nears the bound.
  static constexpr int kHistoryMax = 16384;
  template <typename T>
  static void UpdateHistory(T& h, int bonus) {
    int v = h;
    v += bonus * 32 - v * std::abs(bonus) / 512;
    h = T(std::clamp(v, -kHistoryMax, kHistoryMax));
  }

  // The correction history: per side to move and pawn structure (an evaluation that
  // misjudges a pawn structure misjudges it in every position that has it), in
  // 1/kCorrectionGrain centipawns, at most kCorrectionMax.
  static constexpr int kCorrectionSlots = 1 << 14;  // a power of two
  static constexpr int kCorrectionGrain = 64;
  static constexpr int kCorrectionMax = 64 * kCorrectionGrain;  // 64 centipawns
  // The slot's correction in centipawns.
  static int Correction(int16_t slot) { return slot / kCorrectionGrain; }
  // Moves the slot towards `error` (the search's score less the corrected evaluation), the
  // further the deeper the search that found it.
  static void UpdateCorrection(int16_t& slot, int error, int depth) {
    const int w = std::min(depth + 1, 16);
    const int v = (slot * (256 - w) + std::clamp(error, -2000, 2000) * kCorrectionGrain * w) / 256;
    slot = int16_t(std::clamp(v, -kCorrectionMax, kCorrectionMax));
  }

  void Clear() {
    std::fill_n(&counters[0][0], sizeof(counters) / sizeof(chess::Move), chess::Move());
    std::memset(history, 0, sizeof(history));
    std::memset(cont, 0, sizeof(cont));
    std::memset(capture_history, 0, sizeof(capture_history));
    std::memset(correction, 0, sizeof(correction));
  }

  chess::Move counters[64][64];        // the quiet reply that refuted a move (from, to)
  int history[2][64][64];              // quiet moves by side, from, to
  int16_t cont[12][64][12][64];        // continuation: (piece, to) after (piece, to)
  int16_t capture_history[12][64][6];  // by moving piece, target square, victim type
  int16_t correction[2][kCorrectionSlots];
};

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_CHESS_MEMORY_H_
