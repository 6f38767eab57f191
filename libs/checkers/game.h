// The game::Game adapter over State: text in and out, events, encoding. Internal; the
// registry reaches it through checkers.h.
#ifndef TABLERO_LIBS_CHECKERS_GAME_H_
#define TABLERO_LIBS_CHECKERS_GAME_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libs/checkers/state.h"
#include "libs/game/game.h"
#include "libs/game/wire_view.h"

namespace tablero::checkers {

inline constexpr uint8_t kStateVersion = 1;

// Rules from resolved options; INVALID_ARGUMENT for a Japanese game of 4+ seats.
struct Config {
  bool japanese = false;
  Rules rules;
};
absl::StatusOr<Config> ConfigFrom(const game::Options& resolved, int seats);
// ConfigFrom in two: what the options say, and whether `seats` may play by them.
absl::StatusOr<Config> ConfigOf(const game::Options& resolved);
absl::Status CheckSeats(const Config& config, int seats);

// Resolved options with their encoding in the state, made once and shared by the games
// decoded from one option list (Encode copies the bytes instead of writing the map).
struct RoomOptions {
  game::Options options;
  std::string bytes;  // varint count, then each (str name, str value)
};
std::shared_ptr<const RoomOptions> MakeRoomOptions(game::Options options);  // codec.cc

class CheckersGame final : public game::Game, public game::WireView {
 public:
  CheckersGame(game::Options options, const State& st, int first_seat)
      : CheckersGame(MakeRoomOptions(std::move(options)), st, first_seat) {}
  CheckersGame(std::shared_ptr<const RoomOptions> options, const State& st, int first_seat)
      : options_(std::move(options)), st_(st), first_seat_(first_seat) {}

  game::Kind kind() const override { return game::Kind::kCheckers; }
  const game::Options& options() const override { return options_->options; }
  int seats() const override { return st_.layout.seats; }
  int to_move() const override { return st_.to_move; }
  int ply() const override { return st_.ply; }

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
  std::string PositionText() const override;
  absl::StatusOr<std::string> Export(absl::string_view format) const override;
  std::unique_ptr<game::Game> Clone() const override {
    return std::make_unique<CheckersGame>(*this);
  }
  uint64_t Perft(int depth) const override;
  std::vector<std::pair<std::string, uint64_t>> Divide(int depth) const override;

  const State& state() const { return st_; }
  void set_last(int seat, std::vector<uint8_t> path) {
    last_seat_ = seat;
    last_path_ = std::move(path);
  }

 private:
  // The legal path the client's path stands for (a bare from-to pair is completed).
  absl::StatusOr<std::vector<uint8_t>> Resolve(std::vector<uint8_t> path) const;
  void MovesOf(int from, std::vector<game::Move>* out) const;
  // Why Play refuses `move` when the game is over or it is another seat's turn.
  absl::Status Refuse(const game::Move& move) const;
  // Play of a move ParseMove did not just accept: checked and completed here.
  absl::StatusOr<std::vector<game::Event>> PlayPath(const game::Move& move);
  // Plays the legal `path` of the seat to move, taking it: the events.
  std::vector<game::Event> Commit(std::vector<uint8_t>* path);

  std::shared_ptr<const RoomOptions> options_;  // shared: decoded states share one copy
  State st_;
  int first_seat_ = 0;
  int last_seat_ = -1;
  std::vector<uint8_t> last_path_;
  // The last move ParseMove accepted, as its seat and legal path, so that Play of that same
  // move (compared field by field with MakeMove's) neither checks nor names it again; Play
  // and Act clear it. The view names the last move from last_seat_ and last_path_.
  struct Parsed {
    int seat = -1;
    std::vector<uint8_t> path;
  };
  bool Matches(const Parsed& p, const game::Move& move) const;
  mutable std::optional<Parsed> parsed_;
};

game::Move MakeMove(int seat, const uint8_t* path, int n);
// The same into `mv` (a default game::Move).
void MakeMoveInto(int seat, const uint8_t* path, int n, game::Move* mv);

}  // namespace tablero::checkers

#endif  // TABLERO_LIBS_CHECKERS_GAME_H_
