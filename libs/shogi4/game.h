// game::Game implementation of four-player shogi: the position plus the game history the
// repetition rules need, events, results and the state encoding.
#ifndef TABLERO_LIBS_SHOGI4_GAME_H_
#define TABLERO_LIBS_SHOGI4_GAME_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libs/game/codec.h"
#include "libs/game/game.h"
#include "libs/game/wire_view.h"
#include "libs/shogi4/position.h"

namespace tablero::shogi4 {

absl::StatusOr<Rules> RulesFromOptions(const game::Options& options);
std::string EndReasonName(EndReason r);

class Shogi4Game final : public game::Game, public game::WireView {
 public:
  Shogi4Game(game::Options options, const Position& pos);
  Shogi4Game(std::shared_ptr<const game::Options> options, const Position& pos);

  game::Kind kind() const override { return game::Kind::kShogi4; }
  const game::Options& options() const override { return *options_; }
  int seats() const override { return kSeats; }
  int to_move() const override { return Over() ? -1 : pos_.to_move; }
  int ply() const override { return static_cast<int>(pos_.ply); }
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
  // The state in encoding version 1 (options as text, position as text), which Decode
  // still reads: for tests, and for a roll-back to a release that reads only version 1.
  std::string EncodeV1() const;
  void ViewRefs(game::PublicView* view, std::vector<game::PieceRef>* pieces) const override;
  game::PublicView View() const override { return game::ViewFromRefs(*this); }
  std::string PositionText() const override;
  absl::StatusOr<std::string> Export(absl::string_view format) const override;
  std::unique_ptr<game::Game> Clone() const override;
  uint64_t Perft(int depth) const override;
  std::vector<std::pair<std::string, uint64_t>> Divide(int depth) const override;

  static absl::StatusOr<std::unique_ptr<Shogi4Game>> Decode(uint8_t version,
                                                            absl::string_view payload);

  const Position& position() const { return pos_; }

 private:
  bool Over() const { return pos_.over != EndReason::kNone; }
  // Legal moves of pos.to_move under every rule, the repetition rule included;
  // history_.back() must describe `pos`.
  void Legal(const Position& pos, std::vector<Move>* out) const;
  // Would `m` (position-legal) make the fourth occurrence as a perpetual checker?
  bool PerpetualCheck(const Position& pos, Move m) const;
  // Appends `pos` (whose Key is `key`, `in_check` whether its seat to move is) to the
  // history.
  void Record(const Position& pos, uint64_t key, bool in_check);
  // Times `key` occurs in history_. A scan: the history is at most the plies since the
  // last mate, and a map of counts rebuilt on every decode cost more than every scan a
  // move needs (a count matters only once some position was seen three times).
  int Count(uint64_t key) const;
  // Play's engine move for a structured move ParseMove did not just give (validated as
  // its text is), out of line.
  [[gnu::noinline]] absl::StatusOr<Move> ParseStructured(const game::Move& move) const;
  // Plays `m` (legal, of the seat to move): events.
  std::vector<game::Event> Apply(Move m);
  // Apply's "has a legal move" once some position was seen three times: with the
  // repetition rule, out of line (rare).
  [[gnu::noinline]] bool CanMoveRepeating(const Position& p, int seat);
  game::Move ToMove(Move m, int seat) const;
  void ToMoveInto(Move m, int seat, game::Move* g) const;  // g empty (ReusedLastMove)
  std::string WhyIllegal(Move m) const;
  // Encode's and EncodeV1's common end: ending, last mover, history, last move.
  void WriteTail(game::ByteWriter& w) const;

  std::shared_ptr<const game::Options> options_;  // shared: decoded states share one copy
  uint8_t room_flags_ = 0;  // RoomFlags(*options_), kept: Encode needs them on every call
  Position pos_;
  // Decode fills pos_ and history_ itself. `room_flags`: RoomFlags().
  struct Empty {};
  Shogi4Game(std::shared_ptr<const game::Options> options, Empty, uint8_t room_flags);
  // The room-level options (which Rules does not hold) as the state's option bits.
  static uint8_t RoomFlags(const game::Options& options);

  // One entry per position reached since the last mate (older positions cannot recur),
  // after a move and everything it caused, as the state stores it: 9 bytes, the key
  // (little-endian) and (seat whose move led here + 1) | 8 if the seat to move is in check.
  // So a decode copies the history and an encode writes it in one go.
  static constexpr size_t kEntry = 9;
  std::string history_;
  size_t Entries() const { return history_.size() / kEntry; }
  uint64_t KeyAt(size_t i) const { return game::GetU64(history_.data() + kEntry * i); }
  int MoverAt(size_t i) const { return (history_[kEntry * i + 8] & 7) - 1; }
  bool InCheckAt(size_t i) const { return (history_[kEntry * i + 8] & 8) != 0; }
  int triples_ = 0;
  // The keys seen exactly twice in history_, as Decode found them (n_doubles_ of them; -1:
  // not known), so that the next Record knows without a scan whether its key is seen a
  // third time. Any change of history_ makes them unknown.
  static constexpr int kMaxDoubles = 8;
  int8_t n_doubles_ = -1;
  uint64_t doubles_[kMaxDoubles];
  // Bit per seat in check in pos_, as Apply found it for the check events; -1: not known.
  int8_t checked_ = -1;  // keys seen three times: only then can a move be refused or end it
  // The last move (0: none) and its seat, made a game::Move only for a view: a request
  // decodes one and plays another.
  Move last_ = 0;
  int8_t last_seat_ = -1;
  // The last move ParseMove accepted (0: none), so that Play of that same move in the same
  // state does not validate it a second time. Only Play changes the state, and it clears
  // this first.
  mutable Move parsed_ = 0;
};

}  // namespace tablero::shogi4

#endif  // TABLERO_LIBS_SHOGI4_GAME_H_
