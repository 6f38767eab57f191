#include "libs/bot/shogi4_eval.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "libs/bot/shogi4_attacks.h"

namespace tablero::bot {

namespace s4 = shogi4;

namespace {

constexpr int kMateBonus = 6000;
// A game over with us second, on the scale of the running evaluation.
constexpr int kSecondPlace = 2000;
// Drop threats: per point of a hand (HandThreat, at most kMaxHandThreat) and empty square
// beside a king.
constexpr int kDropThreat = 4;
constexpr int kMaxHandThreat = 6;

// What `seat`'s hand threatens by drops: a point per silver or gold, two per rook.
int HandThreat(const s4::Position& pos, int seat) {
  const uint8_t* h = pos.hand[seat];
  return h[s4::HandIndex(s4::kSilver)] + h[s4::HandIndex(s4::kGold)] +
         2 * h[s4::HandIndex(s4::kRook)];
}

// A finished game, by places.
int Finished(const s4::Position& pos, int me, bool brs) {
  const auto places = s4::Places(pos);
  // A game ended with us second is worth less than a running one where we lead by a mate:
  // scored as a near-win, the rivals' side never chose it, so the search did not see a
  // rival's second mate coming (nor avoid making the second mate itself when that leaves
  // us behind on pieces). Best-reply only: the lower levels stay as they were measured.
  if (brs && places[me] == 2) return kSecondPlace;
  return kShogi4Win * (5 - 2 * places[me]) / 3;
}

// The evaluation from its terms: material, the seats in check, and the board sums, seat by
// seat (Shogi4EvaluateFromScratch; Shogi4Evaluate sums the same terms from the node).
[[gnu::always_inline]] inline int Evaluate(const s4::Position& pos, int me, bool brs,
                                           const int* mat, unsigned checked, const Shogi4Sums& e) {
  if (pos.over != s4::EndReason::kNone) return Finished(pos, me, brs);
  if (!pos.Alive(me)) return -kShogi4Win;
  int others = 0, n = 0, pressure = 0, rival_mates = 0, rival_hands = 0, enemies = 0;
  // Level 10's terms (the lower levels stay as they were measured): drop threats, and our
  // pieces near a rival's king counted half (they help the other rivals mate it too).
  const int drop_threat = brs ? kDropThreat : 0;
  const int near_weight = brs ? 5 : 10;
  const int hand_threat = std::min(HandThreat(pos, me), kMaxHandThreat);
  for (int o = 0; o < s4::kSeats; ++o) {
    if (o == me || !pos.Alive(o)) continue;
    others += mat[o];
    ++n;
    rival_mates = std::max(rival_mates, int(e.mates[o]));
    // Our pieces near their king, and checks: mating chances.
    pressure += near_weight * e.near[me][1][o];
    // Drops make mates: our hand against the empty squares beside their king.
    pressure += drop_threat * hand_threat * e.open[o];
    rival_hands += HandThreat(pos, o);
    // (A seat not in check is not attacked by us: the check set answers first.)
    if (((checked >> o) & 1) &&
        Shogi4AttackedFrom(pos.board, pos.king[o], pos.pieces[me], Shogi4Occupied(pos)))
      pressure += 40;
    // Their pieces near our king.
    enemies += e.near[o][1][me];
  }
  // Enemies around our king hurt, our own pieces beside it (a wall) help.
  const int safety = 8 * e.near[me][0][me] - 12 * enemies -
                     drop_threat * std::min(rival_hands, kMaxHandThreat) * e.open[me];
  // Survivors are ranked by mates made first: a rival's mate costs us a place.
  return mat[me] - (n ? others / n : 0) + kMateBonus * (e.mates[me] - rival_mates) + pressure +
         safety;
}

// The mean of the rivals' material (n: their number, 1-3; a division by a constant each).
inline int MeanOf(int sum, int n) { return n == 3 ? sum / 3 : n == 2 ? sum / 2 : sum; }

// Bytes 0xFF for the seats of a 4-bit set, to mask a seat-indexed array of 4 counts.
constexpr auto kSeatBytes = [] {
  std::array<uint32_t, 16> m{};
  for (unsigned set = 0; set < 16; ++set)
    for (int s = 0; s < s4::kSeats; ++s)
      if ((set >> s) & 1) m[set] |= 0xFFu << (8 * s);
  return m;
}();
// The sum of 4 counts (their sum below 256), one per byte of `w`.
inline int ByteSum(uint32_t w) { return int((w * 0x01010101u) >> 24); }
inline uint32_t Word(const uint8_t* counts) {
  uint32_t w;
  std::memcpy(&w, counts, sizeof w);
  return w;
}

// 40 per rival of `checked` (seats in check) whose king we attack. Out of line: a rival is
// rarely in check, and the attack test would weigh on every evaluation's registers.
[[gnu::noinline]] int CheckPressure(const s4::Position& pos, int me, unsigned checked) {
  int pressure = 0;
  for (unsigned b = checked; b != 0; b &= b - 1) {
    const int o = __builtin_ctz(b);
    if (Shogi4AttackedFrom(pos.board, pos.king[o], pos.pieces[me], Shogi4Occupied(pos)))
      pressure += 40;
  }
  return pressure;
}

}  // namespace

// Evaluate's terms from the kept sums, the rivals' byte counts summed a word at a time.
int Shogi4Evaluate(const Shogi4Node& node, int me, bool brs) {
  const s4::Position& pos = node.pos;
  if (pos.over != s4::EndReason::kNone) return Finished(pos, me, brs);
  if (!pos.Alive(me)) return -kShogi4Win;
  const Shogi4Sums& e = node.sums;
  const unsigned rivals = pos.alive & ~(1u << me) & 15u;
  const uint32_t mask = kSeatBytes[rivals];
  int others = 0, rival_mates = 0, enemies = 0;
  for (unsigned b = rivals; b != 0; b &= b - 1) {
    const int o = __builtin_ctz(b);
    others += node.material[o];
    rival_mates = std::max(rival_mates, int(e.mates[o]));
    enemies += e.near[o][1][me];
  }
  const int drop_threat = brs ? kDropThreat : 0;
  const int rival_hands = ByteSum(Word(e.threat) & mask);
  int pressure =
      (brs ? 5 : 10) * ByteSum(Word(e.near[me][1]) & mask) +
      drop_threat * std::min(int(e.threat[me]), kMaxHandThreat) * ByteSum(Word(e.open) & mask);
  if ((rivals & node.checked) != 0) pressure += CheckPressure(pos, me, rivals & node.checked);
  const int safety = 8 * e.near[me][0][me] - 12 * enemies -
                     drop_threat * std::min(rival_hands, kMaxHandThreat) * e.open[me];
  const int n = __builtin_popcount(rivals);
  return node.material[me] - (n ? MeanOf(others, n) : 0) +
         kMateBonus * (e.mates[me] - rival_mates) + pressure + safety;
}

int Shogi4EvaluateFromScratch(const s4::Position& pos, int me, bool brs) {
  int material[s4::kSeats];
  unsigned checked = 0;
  for (int s = 0; s < s4::kSeats; ++s) {
    material[s] = Shogi4Material(pos, s);
    if (pos.Alive(s) && s4::InCheck(pos, s)) checked |= 1u << s;
  }
  return Evaluate(pos, me, brs, material, checked, Shogi4SumsOf(pos));
}

}  // namespace tablero::bot
