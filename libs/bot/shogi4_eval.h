// The four-player shogi search's evaluation of a position for seat `me`: material on the
// board and in hand (hand pieces a little more: they drop anywhere), mates made, pressure
// on the other kings (our pieces near them, checks) and the safety of our own king;
// best-reply (level 10) also counts drop threats (silvers, golds and rooks in hand against
// the empty squares beside a king: ours against each rival's king, the rivals' against
// ours) and our pieces near a rival's king half (they help the other rivals mate it as
// much as us). A finished game scores by places.
//
// Shogi4Evaluate reads the sums the node keeps per move (material, the seats in check,
// Shogi4Sums); Shogi4EvaluateFromScratch counts every term from the position, seat by seat,
// and bot_lib_test holds the two equal after random move sequences.
#ifndef TABLERO_LIBS_BOT_SHOGI4_EVAL_H_
#define TABLERO_LIBS_BOT_SHOGI4_EVAL_H_

#include "libs/bot/shogi4_node.h"

namespace tablero::bot {

// A won game (first place); the search's mate scores are on this scale.
inline constexpr int kShogi4Win = 200000;

int Shogi4Evaluate(const Shogi4Node& node, int me, bool brs);
int Shogi4EvaluateFromScratch(const shogi4::Position& pos, int me, bool brs);

}  // namespace tablero::bot

#endif  // TABLERO_LIBS_BOT_SHOGI4_EVAL_H_
