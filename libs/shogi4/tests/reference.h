// A deliberately simple, independent four-player shogi rules model for the tests: its
// own parser and printer of the position text, a naive legal-move generator (piece by
// piece, square by square, with full position copies) and its own game history. It shares
// no code with the engine, so agreement between the two is evidence for both.
#ifndef TABLERO_LIBS_SHOGI4_TESTS_REFERENCE_H_
#define TABLERO_LIBS_SHOGI4_TESTS_REFERENCE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ref {

struct Piece {
  char kind = 0;  // 'K','R','G','S','P'; 0 = empty
  bool pro = false;
  int owner = -1;  // -1 ownerless
  int face = 0;
};

struct Options {
  bool pairs = false;
  bool last_one_standing = false;
  bool ownerless = false;
  bool pawn_rule = true;
  int limit = 0;
};

struct Pos {
  Piece b[9][9];        // [rank a..i][col, 0 = file 9]
  int hand[4][4] = {};  // seat, P S G R
  bool alive[4] = {true, true, true, true};
  int tomove = 0;
  std::pair<int, int> elim[4];  // (seat, mater) in order
  int n_elim = 0;
  int ply = 0;
  Options opt;
  std::string over;  // "" while running, else the reason
};

bool Parse(const std::string& text, const Options& opt, Pos* out);
std::string Print(const Pos& p);
// Legal moves of `seat` by position only (no history), as move text.
std::vector<std::string> Legal(const Pos& p, int seat, bool pawn_drop_mate = true);
bool InCheck(const Pos& p, int seat);
std::vector<int> Places(const Pos& p);
uint64_t Perft(const Pos& p, int depth);
// Applies a legal move and everything it causes (position-only mate tests).
void Apply(Pos& p, const std::string& move);

// A game with history: the repetition rules on top of Pos.
class Game {
 public:
  explicit Game(const Pos& p);
  std::vector<std::string> LegalMoves() const;
  void Play(const std::string& move);
  const Pos& pos() const { return pos_; }

  struct Seen {
    std::string id;
    int mover;
    bool check;
  };

 private:
  std::vector<std::string> LegalWith(const Pos& p, const std::vector<Seen>& h) const;
  static Seen Entry(const Pos& p, int mover);
  Pos pos_;
  std::vector<Seen> hist_;
  std::optional<std::vector<std::string>> cached_;
};

}  // namespace ref

#endif  // TABLERO_LIBS_SHOGI4_TESTS_REFERENCE_H_
