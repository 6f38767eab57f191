#include "libs/bot/levels.h"

namespace tablero::bot {

namespace {

using Table = LevelSpec[kMaxLevel];

// Each table is calibrated with benchmarks/bot/ladder.sh (seeded, 300 ms a move: level 10
// then searches 75k nodes in chess and Chinese Checkers, 6k in four-player shogi) so that
// each level scores 0.60-0.75 against the one below; the measured steps are in the
// benchmark's README. Level 10 is bounded by the clock (budget_ms * kSeededNodesPerMs nodes
// when seeded) and keeps the depth it always had.

// Chess: strength follows the node budget (a partly searched iteration still counts), about
// x1.7 a level, with a little evaluation noise below level 8. Levels 1-7 play the handcrafted
// evaluation, levels 8-10 the network (kChessLearntEvalLevel, chess_net.h), which at equal
// nodes is worth about as much as four times the nodes with the handcrafted one: level 8
// searches 24k nodes to level 7's 52k. No level plays random moves (one costs more than a
// step).
constexpr Table kChess = {
    {64, 1750, 22, 0, 300},   // 1
    {64, 3300, 17, 0, 300},   // 2
    {64, 5200, 13, 0, 400},   // 3
    {64, 9000, 9, 0, 500},    // 4
    {64, 16500, 5, 0, 600},   // 5
    {64, 29000, 2, 0, 800},   // 6
    {64, 52000, 1, 0, 1000},  // 7
    {64, 24000, 0, 0, 1500},  // 8
    {64, 40000, 0, 0, 2000},  // 9
    {100, 0, 0, 0, 3000},     // 10
};

// Four-player shogi: levels 1-9 search paranoid (three rivals against us), level 10
// best-reply (shogi4_search.cc). Paranoid depth adds little past 2 plies (d3 scores 0.52
// against d2, d4 0.55 against d3), so the steps below level 9 come from noise at the root
// and random moves.
constexpr Table kShogi4 = {
    {1, 2000, 250, 950, 300},  // 1
    {1, 2000, 250, 800, 300},  // 2
    {1, 2000, 200, 660, 400},  // 3
    {1, 2000, 150, 440, 500},  // 4
    {1, 2000, 150, 260, 600},  // 5
    {2, 2000, 100, 220, 800},  // 6
    {2, 2000, 100, 70, 1000},  // 7
    {2, 2000, 20, 0, 1500},    // 8
    {4, 100000, 0, 0, 2000},   // 9
    {8, 0, 0, 0, 3000},        // 10
};

// Chinese Checkers: a search of odd depth is far stronger than the even one below it (3
// against 2 layers scores 0.97, 5 against 4 0.93; 4 against 3 only 0.55), and noise is
// added to the root moves' scores, where a few units already change the move (depth 3
// without noise scores 0.95 against depth 3 with 10; noise 1 only breaks ties and still
// weakens it: depth 4 scores 0.77 against depth 3 with noise 1, 0.60 against depth 3
// without). So levels 1-5 step by noise at depth 3; level 6 searches depth 5 on 10k
// nodes, which completes depth 5 only on the smaller trees (about one move in five) and
// otherwise plays its depth-4 answer (a partly searched iteration does not count), with 1%
// random moves (without them 7-6 scored 0.56); levels 7-8 step by random moves at depth 5.
constexpr Table kCheckers = {
    {3, 10000, 19, 0, 300},   // 1
    {3, 10000, 16, 0, 300},   // 2
    {3, 10000, 8, 0, 400},    // 3
    {3, 10000, 3, 0, 500},    // 4
    {3, 10000, 0, 0, 600},    // 5
    {5, 10000, 0, 10, 800},   // 6
    {5, 40000, 0, 40, 1000},  // 7
    {5, 40000, 0, 20, 1500},  // 8
    {5, 40000, 0, 0, 2000},   // 9
    {7, 0, 0, 0, 3000},       // 10
};

// Chinese Checkers at 3 seats, calibrated at 3 players (the upper level in one seat,
// the level below in the other two). The same depths span less there: depth 5 on 40k nodes
// scores only 0.74 against depth 3 and level 10 about 0.83, so depth 3 without noise is
// level 7, not 5, and the levels below step by noise and then random moves, which with two
// opponents are each worth more than against one (10% random moves against 25%: 0.79).
// Level 8 plays 2% random moves: without them 9-8 scored 0.59.
constexpr Table kCheckersMulti = {
    {3, 10000, 13, 250, 300},  // 1
    {3, 10000, 13, 180, 300},  // 2
    {3, 10000, 13, 100, 400},  // 3
    {3, 10000, 13, 0, 500},    // 4
    {3, 10000, 8, 0, 600},     // 5
    {3, 10000, 3, 0, 800},     // 6
    {3, 10000, 1, 0, 1000},    // 7
    {5, 10000, 0, 20, 1500},   // 8
    {5, 40000, 0, 0, 2000},    // 9
    {7, 0, 0, 0, 3000},        // 10
};

// Chinese Checkers at 5 or more seats, calibrated at 6 players (the upper level in one seat,
// the level below in the other five). Depth 5 adds little there (depth 5 on 10k nodes with
// 2% random moves scored 0.53 against depth 3 with noise 1; level 10 0.51 against depth 3
// without noise, but 0.70 with noise 1), so levels 1-9 all search depth 3: noise 1, 4, 7,
// 12 and 20 (past 20 it adds little: 20 against 30 scored 0.53), then random moves, which
// at 45% and more leave most games to the engine's move limit.
constexpr Table kCheckersMany = {
    {3, 10000, 20, 380, 300},  // 1
    {3, 10000, 20, 300, 300},  // 2
    {3, 10000, 20, 200, 400},  // 3
    {3, 10000, 20, 100, 500},  // 4
    {3, 10000, 20, 0, 600},    // 5
    {3, 10000, 12, 0, 800},    // 6
    {3, 10000, 7, 0, 1000},    // 7
    {3, 10000, 4, 0, 1500},    // 8
    {3, 10000, 1, 0, 2000},    // 9
    {7, 0, 0, 0, 3000},        // 10
};

// Chinese Checkers at 4 seats, calibrated at 4 players (the upper level in one seat, the
// level below in the other three). Level 10 is further above depth 3 there than at 6 (0.82
// against depth 3 with noise 1), so level 9 searches depth 5 on 10k nodes with 1% random
// moves (without them level 10 scored only 0.60 against it; with 2%, 0.59 against depth 3
// with noise 1), levels 5-8 step by noise at depth 3 (10, 7, 4, 1), and levels 1-3 by fewer
// random moves than at 6 (25, 18, 8%: from the 6-seat table's 38% the ladder up to level 10
// spans more than nine steps of 0.70).
constexpr Table kCheckersFour = {
    {3, 10000, 20, 250, 300},  // 1
    {3, 10000, 20, 180, 300},  // 2
    {3, 10000, 20, 80, 400},   // 3
    {3, 10000, 20, 0, 500},    // 4
    {3, 10000, 10, 0, 600},    // 5
    {3, 10000, 7, 0, 800},     // 6
    {3, 10000, 4, 0, 1000},    // 7
    {3, 10000, 1, 0, 1500},    // 8
    {5, 10000, 0, 10, 2000},   // 9
    {7, 0, 0, 0, 3000},        // 10
};

}  // namespace

const LevelSpec& Level(game::Kind kind, int level, int seats) {
  switch (kind) {
    case game::Kind::kShogi4:
      return kShogi4[level - 1];
    case game::Kind::kCheckers:
      return seats >= 5   ? kCheckersMany[level - 1]
             : seats == 4 ? kCheckersFour[level - 1]
             : seats == 3 ? kCheckersMulti[level - 1]
                          : kCheckers[level - 1];
    default:
      return kChess[level - 1];
  }
}

// Chess levels on Stockfish 15.1's UCI_Elo scale (CCRL 40/4): benchmarks/bot/elo.sh, 100
// seeded games an anchor (level 10: 300 ms, 75k nodes), the mean of a level's estimates
// against two UCI_Elo with the same pick depth (levels 3-7: 1950 and 1900), put on that pair's
// footing through levels that played two pairs: levels 1-2 read against 1750 and 1700 less
// 125 (what levels 2 and 3 read more there), levels 8-10 against 2250 and 2200 plus 174 (what
// level 7 reads more on 1950 and 1900); rounded to 10. The table and its caveats:
// benchmarks/bot/README.md, "Elo of the chess levels".
constexpr int kChessElo[kMaxLevel] = {1620, 1710, 1770, 1840, 1950, 2010, 2150, 2270, 2370, 2440};

int ApproxElo(game::Kind kind, int level) {
  return kind == game::Kind::kChess ? kChessElo[level - 1] : 0;
}

}  // namespace tablero::bot
