// The chess engine behind game::Game: rules of play and of the endings (both draw modes),
// draw offers, claims and resignation, notation for clients, and the encoded state.
#ifndef TABLERO_LIBS_CHESS_GAME_H_
#define TABLERO_LIBS_CHESS_GAME_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libs/chess/movegen.h"
#include "libs/chess/position.h"
#include "libs/game/game.h"
#include "libs/game/wire_view.h"

namespace tablero::game {
class ByteReader;
}  // namespace tablero::game

namespace tablero::chess {

class ChessGame final : public game::Game, public game::WireView {
 public:
  // How a game ended when the position alone cannot tell (stored in the encoded state).
  enum class Ending : uint8_t { kNone = 0, kResigned = 1, kAgreed = 2, kClaimed = 3 };

  // `options` must already be resolved against Info().
  ChessGame(const game::Options& options, const Position& start);

  game::Kind kind() const override { return game::Kind::kChess; }
  const game::Options& options() const override { return *options_; }
  int seats() const override { return 2; }
  int to_move() const override { return result_.over ? -1 : int(pos_.side_to_move()); }
  int ply() const override { return int(moves_.size()); }

  std::vector<game::Move> LegalMoves() const override;
  absl::StatusOr<std::vector<game::Move>> LegalMovesFrom(absl::string_view square) const override;
  absl::StatusOr<game::Move> ParseMove(absl::string_view text) const override;
  absl::StatusOr<std::vector<game::Event>> Play(const game::Move& move) override;
  absl::StatusOr<std::vector<game::Event>> Act(int seat, game::Action action,
                                               absl::string_view move_text) override;
  game::Result result() const override;
  void ResultInto(game::Result* r) const override;

  std::string Encode() const override;
  void EncodeInto(std::string* state) const override;
  void ViewRefs(game::PublicView* view, std::vector<game::PieceRef>* pieces) const override;
  game::PublicView View() const override { return game::ViewFromRefs(*this); }
  std::string PositionText() const override { return pos_.Fen(); }
  absl::StatusOr<std::string> Export(absl::string_view format) const override;
  std::unique_ptr<game::Game> Clone() const override;
  uint64_t Perft(int depth) const override;
  std::vector<std::pair<std::string, uint64_t>> Divide(int depth) const override;

  // For search code (the bot): the current and start positions, the moves since the start,
  // and RepetitionKey() of the positions that can still repeat (the current one last): all
  // since the start in a game played in memory, at least those since the last capture or
  // pawn move in a decoded one.
  const Position& position() const { return pos_; }
  const Position& start_position() const { return start_; }
  // In a decoded game the moves are as the client sent them: only the last one is checked
  // on Decode; CheckHistory() replays them all (Export does).
  const std::vector<Move>& moves() const { return moves_; }
  const std::vector<uint64_t>& repetition_keys() const { return keys_; }
  // Replays moves() from the start: each legal, none after the end, leading to position()
  // with the same repetition keys. INVALID_ARGUMENT naming the first problem.
  absl::Status CheckHistory() const;
  // Times the current position occurred (same identity as the repetition rules).
  int RepetitionCount() const;

 private:
  friend absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version,
                                                            absl::string_view payload);
  // Decode builds the game field by field, then evaluates the endings once.
  ChessGame(const game::Options& options, const Position& start, bool evaluate);
  // `flags`: the options as the state's option bits (StateFlags).
  ChessGame(std::shared_ptr<const game::Options> options, const Position& start, bool evaluate,
            uint8_t flags);
  static uint8_t StateFlags(const game::Options& options);
  // Decode's part after the start position: the moves, the position before the last one,
  // the keys and the ending, into this game (built from the start).
  absl::Status DecodeRest(game::ByteReader* r);
  // The last move ParseMove accepted, with its SAN, and what Play needs of the position
  // after it (found while writing the SAN's check suffix). The move as answered is not
  // kept: Play compares the move it is given with this one field by field.
  struct Parsed {
    Move m;
    std::string san;
    uint64_t key = 0;    // RepetitionKey() after m
    bool check = false;  // m gives check
    bool stuck = false;  // no legal move after m
  };
  // Whether `move` is game::Move-equal to the one ParseMove answered for `p`.
  bool Matches(const Parsed& p, const game::Move& move) const;
  absl::Status RestoreEnding(Ending ending, int seat, int draw_offer);
  // Fills in `g` (a default game::Move): m of the side to move in `pos`, with `san`.
  void ToGameMove(const Position& pos, Move m, absl::string_view san, game::Move* g) const;
  // ToGameMove into a new answer.
  absl::StatusOr<game::Move> Answer(const Position& pos, Move m, absl::string_view san) const;
  // Why Play refuses `move` when the game is over or it is the other seat's turn.
  absl::Status Refuse(const game::Move& move) const;
  // Play of a move ParseMove did not just accept: checked here.
  absl::StatusOr<std::vector<game::Event>> PlayStructured(const game::Move& move);
  // `parsed`: m as ParseMove found it (within parsed_, which is then taken), when the
  // caller has it (else the SAN of the move event and the moves after it are found here).
  void ApplyMove(Move m, std::vector<game::Event>* events, Parsed* parsed = nullptr);
  // The automatic endings, `stuck` when the side to move has no legal move.
  void Evaluate(bool stuck, std::vector<game::Event>* events);
  void Finish(int winner, const std::string& reason, std::vector<game::Event>* events);
  // "threefold_repetition" / "fifty_moves" if the position allows a FIDE claim, else empty.
  std::string ClaimableReason() const;
  absl::Status Resign(int seat, std::vector<game::Event>* events);

  std::shared_ptr<const game::Options> options_;  // decoded games share the option tables
  uint8_t flags_ = 0;                             // the options as Encode writes them
  bool fide_ = false;
  bool resignation_exception_ = false;
  Position start_;
  Position pos_;
  std::vector<Move> moves_;
  std::vector<uint64_t> keys_;   // repetition identity of positions since start_ (see above)
  Position prev_;                // the position before the last move
  int8_t in_check_ = -1;         // pos_.InCheck() as the last move found it; -1: not known
  bool history_checked_ = true;  // false after Decode: Export replays the moves first
  int draw_offer_ = -1;          // seat with a pending offer
  Ending ending_ = Ending::kNone;
  int ending_seat_ = -1;  // the resigning seat
  game::Result result_;
  // So that Play of the move ParseMove just accepted neither parses it, writes its SAN nor
  // generates the moves after it again; ApplyMove clears it (only it changes the state).
  mutable std::optional<Parsed> parsed_;
  // The SAN of the last move as ParseMove wrote it, for View (empty: View writes it from
  // prev_): a SAN is never empty.
  std::string last_san_;
};

// The key used for repetition: the Zobrist key without the en passant file unless an en
// passant capture is actually legal.
uint64_t RepetitionKey(const Position& pos);
// The same given the legal moves of `pos`.
uint64_t RepetitionKey(const Position& pos, const MoveList& legal);

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_GAME_H_
