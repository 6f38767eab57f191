#include "libs/bot/shogi4_attacks.h"

#include <algorithm>
#include <cstdlib>

namespace tablero::bot {

const Shogi4Rays* BuildShogi4Rays() {
  namespace s4 = shogi4;
  const s4::Tables& t = s4::Tab();
  auto* r = new Shogi4Rays{};
  for (int sq = 0; sq < s4::kSquares; ++sq) {
    for (int i = 0; i < 4; ++i) {
      for (int n = t.next[sq][2 * i]; n != s4::kNoSquare; n = t.next[n][2 * i])
        r->ray[sq][i] |= s4::SquareBit(n);
      r->cross[sq] |= r->ray[sq][i];
    }
    for (int d = 0; d < 8; ++d) {
      if (t.next[sq][d] == s4::kNoSquare) continue;
      r->dirs[sq] |= static_cast<uint8_t>(1u << d);
      r->adjacent[sq] |= s4::SquareBit(t.next[sq][d]);
      for (int type = 0; type < s4::kPieceTypes; ++type)
        for (int f = 0; f < 4; ++f)
          if ((t.steps[type][f] >> d) & 1) r->step[type][f][sq] |= s4::SquareBit(t.next[sq][d]);
    }
  }
  return r;
}

const Shogi4Near* BuildShogi4Near() {
  namespace s4 = shogi4;
  auto* n = new Shogi4Near{};
  for (int sq = 0; sq < s4::kSquares; ++sq) {
    for (int t = 0; t < s4::kSquares; ++t) {
      const int d = std::max(std::abs(s4::RankOf(sq) - s4::RankOf(t)),
                             std::abs(s4::ColOf(sq) - s4::ColOf(t)));
      for (int r = 1; r <= 2; ++r)
        if (d <= r) n->area[r - 1][sq] |= s4::SquareBit(t);
      n->distance[sq][t] = static_cast<uint8_t>(d);
      const bool line =
          sq != t && (s4::RankOf(sq) == s4::RankOf(t) || s4::ColOf(sq) == s4::ColOf(t));
      n->marks[sq][t] = static_cast<uint16_t>((d <= 1) | (d <= 2) << 4 | line << 8);
    }
  }
  return n;
}

shogi4::Squares Shogi4Sliders(const shogi4::Position& pos) {
  namespace s4 = shogi4;
  s4::Squares sliders = 0;
  for (s4::Squares b = Shogi4Occupied(pos); b != 0;) {
    const int sq = s4::PopSquare(b);
    if (s4::Slides(s4::TypeOf(pos.board[sq]))) sliders |= s4::SquareBit(sq);
  }
  return sliders;
}

}  // namespace tablero::bot
