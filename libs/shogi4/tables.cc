#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {
namespace {

// Step sets of a piece facing north (facing 0), as direction bits.
constexpr uint8_t Bit(int d) { return static_cast<uint8_t>(1u << d); }
constexpr uint8_t kGoldSteps = Bit(0) | Bit(1) | Bit(2) | Bit(4) | Bit(6) | Bit(7);
constexpr uint8_t kNorthSteps[kPieceTypes] = {
    0,                                           // none
    Bit(0),                                      // pawn
    Bit(0) | Bit(1) | Bit(3) | Bit(5) | Bit(7),  // silver
    kGoldSteps,                                  // gold
    0,                                           // rook (slides only)
    0xFF,                                        // king
    kGoldSteps,                                  // +P
    kGoldSteps,                                  // +S
    Bit(1) | Bit(3) | Bit(5) | Bit(7),           // dragon: rook + diagonal steps
};

// Turning a piece clockwise by one seat turns each direction by two steps.
uint8_t Rotate(uint8_t mask, int facing) {
  int k = 2 * facing;
  return static_cast<uint8_t>(((mask << k) | (mask >> (8 - k))) & 0xFF);
}

uint64_t SplitMix(uint64_t* s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

const Tables* BuildTables() {
  auto* t = new Tables();
  for (int sq = 0; sq < kSquares; ++sq) {
    int r = RankOf(sq), c = ColOf(sq);
    for (int d = 0; d < 8; ++d) {
      int nr = r + kDirRank[d], nc = c + kDirCol[d];
      t->next[sq][d] = (nr < 0 || nr > 8 || nc < 0 || nc > 8) ? kNoSquare : MakeSquare(nr, nc);
    }
    t->zone[0][sq] = r <= 2;
    t->zone[1][sq] = c >= 6;
    t->zone[2][sq] = r >= 6;
    t->zone[3][sq] = c <= 2;
    t->last[0][sq] = r == 0;
    t->last[1][sq] = c == 8;
    t->last[2][sq] = r == 8;
    t->last[3][sq] = c == 0;
    for (int f = 0; f < 4; ++f) t->line[f][sq] = static_cast<uint8_t>(f % 2 == 0 ? c : r);
  }
  for (int type = 0; type < kPieceTypes; ++type) {
    for (int f = 0; f < 4; ++f) t->steps[type][f] = Rotate(kNorthSteps[type], f);
  }
  uint64_t s = 0x5EED5440C0FFEEull;
  for (auto& sq : t->cell) {
    for (auto& k : sq) k = SplitMix(&s);
  }
  for (auto& seat : t->hand) {
    for (auto& type : seat) {
      type[0] = 0;  // an empty hand slot contributes nothing
      for (int n = 1; n < 82; ++n) type[n] = SplitMix(&s);
    }
  }
  for (auto& k : t->alive) k = SplitMix(&s);
  for (auto& k : t->to_move) k = SplitMix(&s);
  return t;
}

}  // namespace tablero::shogi4
