// The full rules state of a game and what happens after each move: finishing, places,
// skipped turns, the move limit, the no-progress ending and resignation. Plain data, cheap
// to copy (a search copies it per node); no text, no game::Game.
#ifndef TABLERO_LIBS_CHECKERS_STATE_H_
#define TABLERO_LIBS_CHECKERS_STATE_H_

#include <cstdint>
#include <vector>

#include "libs/checkers/movegen.h"

namespace tablero::checkers {

// Why a game ended. Stable numbers: they are part of the encoded state.
enum class Reason : uint8_t {
  kNone = 0,
  kAllFinished = 1,    // every place decided by finishing (the last one takes the last place)
  kFirstFinished = 2,  // "play to the end" off: the first finisher ended the game
  kMoveLimit = 3,
  kNoProgress = 4,  // 30 rounds without progress, or nobody can move at all
  kResignation = 5,
};
const char* ReasonName(Reason r);

struct Rules {
  bool anti_blocking = true;
  bool play_to_end = true;
  int move_limit = 200;  // moves per player, 0 = none
};

inline constexpr int kNoProgressRounds = 30;

struct State {
  Layout layout;
  Rules rules;
  uint8_t cell[kHoles] = {};
  int to_move = 0;                    // -1 once over
  uint8_t place[kMaxSeats] = {};      // 0 = still playing
  bool resigned[kMaxSeats] = {};      // placed by resignation (pieces removed)
  uint16_t moves[kMaxSeats] = {};     // moves made per seat (move limit)
  int16_t best_dist[kMaxSeats] = {};  // progress records (no-progress rule)
  uint8_t best_goal[kMaxSeats] = {};
  uint16_t idle = 0;  // turns (moves and skips) since the last progress
  Reason reason = Reason::kNone;
  int ply = 0;
  bool over() const { return to_move < 0; }
};

// What happened automatically after a move or resignation, for the adapter's events.
struct Note {
  enum Type : uint8_t { kFinished, kSkipped, kResigned, kGameOver } type;
  int seat = -1;
  int value = 0;  // kFinished: place
};
using Notes = std::vector<Note>;

// Own pieces in the goal, and total remaining distance (each piece to the nearest goal
// hole; a Japanese king to the goal's tip).
int InGoal(const State& st, int seat);
int RemainingDistance(const State& st, int seat);
bool IsFinished(const State& st, int seat);

// Places not yet given out form the range [lo, hi].
void FreePlaces(const State& st, int* lo, int* hi);

// Whether per-seat places (0 = playing) could come from a game: shared places use up the
// places after them, no two groups overlap, and the free places form one range whose size
// is the number of seats still playing.
bool PlacesConsistent(const uint8_t* place, int seats);

// A new game: start position, `first` to move, progress records set.
void StartState(State* st, const Layout& layout, const Rules& rules, int first);
// After loading a position: records set, finishers placed, an unable seat skipped.
void Normalize(State* st, Notes* notes);

// Plays a legal (from, to) of the seat to move and everything that follows. notes may be
// null (search).
void ApplyMove(State* st, int from, int to, Notes* notes);
// `seat` (still playing, game not over) resigns.
void Resign(State* st, int seat, Notes* notes);

uint64_t Perft(const State& st, int depth);

}  // namespace tablero::checkers

#endif  // TABLERO_LIBS_CHECKERS_STATE_H_
