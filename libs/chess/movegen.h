// Legal move generation with check and pin masks: every move produced is legal, so callers
// never test legality after making a move. The counting variant adds up popcounts of target
// sets instead of writing moves (perft's bulk count at the leaves).
#ifndef TABLERO_LIBS_CHESS_MOVEGEN_H_
#define TABLERO_LIBS_CHESS_MOVEGEN_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "libs/chess/position.h"

namespace tablero::chess {

// Writes the legal moves to out[0..n) (out must hold kMaxMoves) and returns n.
int GenerateLegal(const Position& pos, Move* out);
// Number of legal moves, without writing them.
int CountLegal(const Position& pos);
// The legal moves to `to` alone, the same as GenerateLegal's (in another order), without
// looking at pieces that cannot reach `to`; at most 64.
int GenerateLegalTo(const Position& pos, Square to, Move* out);
// GenerateLegal(pos) > 0, stopping at the first move found.
bool HasLegalMove(const Position& pos);

struct MoveList {
  MoveList() : size(0) {}
  explicit MoveList(const Position& pos) : size(GenerateLegal(pos, moves)) {}
  // The legal moves to `to` (GenerateLegalTo).
  MoveList(const Position& pos, Square to) : size(GenerateLegalTo(pos, to, moves)) {}
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
  bool has_en_passant() const {
    for (Move x : *this)
      if (x.kind() == Move::kEnPassant) return true;
    return false;
  }
  // Left uninitialized (a Move array would zero its 1 KiB on every construction).
  union {
    Move moves[kMaxMoves];
  };
  int size;
};

// True when the side to move has a legal en passant capture (repetition identity, FEN).
bool HasLegalEnPassant(const Position& pos);

uint64_t Perft(const Position& pos, int depth);
std::vector<std::pair<Move, uint64_t>> Divide(const Position& pos, int depth);

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_MOVEGEN_H_
