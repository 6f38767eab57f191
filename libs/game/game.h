// The common game interface: every engine (chess, four-player shogi, Chinese Checkers)
// implements it, and every service talks to games only through it. Engines keep their
// fast internal representation private; this header speaks in seats, square/hole names
// and notation text, so the rules, bot and matchmaking services treat all games alike.
//
// Conventions shared by all games:
// - Seats are numbered 0..seats()-1 in turn order (clockwise). Chess: seat 0 is White.
// - ply() counts moves applied since the game was created (skips and mates are not
//   moves). It is the "move number" a client names to avoid stale moves.
// - No exceptions cross this API: fallible calls return absl::Status / absl::StatusOr.
//   INVALID_ARGUMENT: malformed text or bytes; FAILED_PRECONDITION: well-formed but not
//   allowed now (illegal move, game over, not your turn, draw offer too early).
#ifndef TABLERO_LIBS_GAME_GAME_H_
#define TABLERO_LIBS_GAME_GAME_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tablero::game {

enum class Kind : uint8_t { kUnknown = 0, kChess = 1, kShogi4 = 2, kCheckers = 3 };

// "chess", "shogi4", "checkers".
absl::string_view KindName(Kind kind);
absl::StatusOr<Kind> ParseKind(absl::string_view name);

// Room options as text, by name (e.g. {"draw_mode", "fide"}). Ordered so that encodings
// are deterministic. Booleans are "on"/"off"; integers are decimal text.
using Options = absl::btree_map<std::string, std::string>;

struct OptionSpec {
  enum class Type : uint8_t { kBool, kChoice, kInt };
  std::string name;         // stable identifier, lower_snake_case
  std::string description;  // one line for a settings screen
  Type type = Type::kBool;
  std::vector<std::string> choices;  // kChoice: allowed values; kBool: {"on","off"}
  int64_t min = 0, max = 0;          // kInt: inclusive range (0 may mean "none", see text)
  std::string default_value;
  // Room-level options (show legal moves, rotate first player) are enforced by the room,
  // not by the engine; they are listed here so that one table describes a game fully.
  bool room_level = false;
  // What a settings screen shows, so that every front end says the same: a short name
  // (one line on a phone, e.g. "Draw mode"), and for kChoice the words for each choice, in
  // `choices`' order ("Site", "FIDE"). kBool's are ChoiceLabels's "On" and "Off".
  std::string label;
  std::vector<std::string> choice_labels;
};

// The words a settings screen shows for each of `spec.choices`: kChoice's own, kBool's
// "On" and "Off"; empty for kInt.
std::vector<std::string> ChoiceLabels(const OptionSpec& spec);

struct GameInfo {
  Kind kind = Kind::kUnknown;
  std::string name;  // display name, e.g. "Four-player Shogi"
  int min_seats = 0, max_seats = 0;
  std::vector<OptionSpec> options;
};

// Fills in defaults and checks every value; an unknown option or a bad value is
// INVALID_ARGUMENT with a message naming the option and what is allowed.
absl::StatusOr<Options> ResolveOptions(const GameInfo& info, const Options& given);

// A move in structured form. Engines fill every field when they produce a move; when
// parsing, any accepted notation text yields this form.
struct Move {
  int seat = -1;                  // the seat that makes the move
  std::vector<std::string> path;  // squares/holes: from, [intermediate jump holes...], to.
                                  // Drops (shogi): just {to}.
  std::string drop;               // shogi drop: piece letter ("P","S","G","R"); else empty
  std::string promotion;          // chess: "q","r","b","n"; shogi: "+" if promoting; else ""
  std::string notation;           // canonical machine text: UCI (chess), shogi4 move text,
                                  // hole path (checkers). ParseMove(notation) gives it back.
  std::string display;            // human text: SAN with +/# (chess); else same as notation
  bool operator==(const Move& o) const {
    return seat == o.seat && path == o.path && drop == o.drop && promotion == o.promotion;
  }
};

enum class EventType : uint8_t {
  kMove,          // seat moved; detail = display notation
  kCapture,       // seat captured a piece of `other` (other = -1: ownerless); detail = piece
  kPromotion,     // seat promoted; detail = new piece
  kCheck,         // seat is in check (from any piece); other = owner of a checking piece
  kMate,          // seat is mated (chess checkmate, shogi mate); other = credited seat
  kElimination,   // seat leaves play (shogi mate, checkers resignation); other = beneficiary
  kPiecesPassed,  // seat's pieces passed to `other` (-1: ownerless); detail = how many
  kFinished,      // seat finished (checkers: all pieces home); detail = place
  kSkipped,       // seat had no legal move and was skipped (checkers)
  kResigned,      // seat resigned
  kDrawOffered,   // seat offered a draw
  kDrawDeclined,  // seat declined the pending offer
  kDrawClaimed,   // seat claimed a draw (FIDE mode); detail = reason
  kGameOver,      // the game ended; detail = Result::reason
};
absl::string_view EventTypeName(EventType type);

struct Event {
  EventType type = EventType::kMove;
  int seat = -1;
  int other = -1;
  std::string detail;
};

// Appends an event. Out of line: one copy of the vector's growth and of the detail's
// construction for every event an engine reports.
void AddEvent(std::vector<Event>* events, EventType type, int seat, int other = -1,
              absl::string_view detail = {});

struct Result {
  bool over = false;
  // One entry per seat: 1 = first place; equal numbers share a place; 0 = not yet placed
  // (game running, or a seat still playing in a multi-player game).
  std::vector<int> places;
  // Why it ended, lower_snake_case: "checkmate", "stalemate", "insufficient_material",
  // "threefold_repetition", "fivefold_repetition", "fifty_moves", "seventy_five_moves",
  // "draw_claimed", "draw_agreed", "resignation", "two_mates", "last_one_standing",
  // "fourth_occurrence", "move_limit", "all_finished", "first_finished", "no_progress", ...
  std::string reason;
};

struct PieceView {
  std::string square;    // square/hole name
  std::string type;      // engine letter: chess "K","Q",..; shogi "K","R","G","S","P","+R",...;
                         // checkers "o" (piece) or "K" (Japanese king)
  int owner = -1;        // seat; -1 = ownerless (shogi option)
  int facing = -1;       // seat whose forward the piece faces (shogi); -1 where meaningless
                         // (the contract then leaves PieceView.facing unset)
  bool flipped = false;  // shogi: the king of a mated player, a permanent obstacle
};

struct PublicView {
  std::vector<PieceView> pieces;
  // Pieces in hand per seat (shogi): seat -> list of (piece letter, count).
  std::vector<std::vector<std::pair<std::string, int>>> hands;
  int to_move = -1;           // -1 when the game is over
  std::vector<int> in_check;  // seats currently in check
  std::vector<bool> active;   // per seat: still playing (not mated/finished/resigned)
  std::optional<Move> last_move;
  std::string position;  // position text (FEN / shogi4 SFEN / checkers text)
  int ply = 0;
  std::optional<int> draw_offer_by;  // chess: seat with a pending draw offer
};

// Non-move actions. Engines refuse with FAILED_PRECONDITION what their rules forbid
// (e.g. shogi has no resignation; draw offers only after both sides have moved).
enum class Action : uint8_t { kResign, kOfferDraw, kAcceptDraw, kDeclineDraw, kClaimDraw };

class Game {
 public:
  virtual ~Game() = default;

  virtual Kind kind() const = 0;
  virtual const Options& options() const = 0;  // resolved (defaults filled in)
  virtual int seats() const = 0;
  virtual int to_move() const = 0;  // seat to move; -1 once the game is over
  virtual int ply() const = 0;

  // Legal moves of the seat to move (empty when over). Checkers lists each distinct
  // (piece, destination) pair once with one path.
  virtual std::vector<Move> LegalMoves() const = 0;
  // Legal moves of the piece on `square` (shogi: "P*" etc. for drops of that piece).
  virtual absl::StatusOr<std::vector<Move>> LegalMovesFrom(absl::string_view square) const = 0;

  // Parses any accepted notation (chess: UCI or SAN; shogi4: board move or drop; checkers:
  // any valid hole path) for the seat to move. INVALID_ARGUMENT if malformed,
  // FAILED_PRECONDITION if well-formed but illegal here.
  virtual absl::StatusOr<Move> ParseMove(absl::string_view text) const = 0;

  // Applies a legal move of the seat to move (re-validated) and everything that follows
  // automatically (checks, mates, skips, endings). Returns the events in order.
  virtual absl::StatusOr<std::vector<Event>> Play(const Move& move) = 0;

  // Resign / draw offer / accept / decline / claim for `seat`. A FIDE claim may carry the
  // move that makes the condition hold (`move_text`), which is then played.
  virtual absl::StatusOr<std::vector<Event>> Act(int seat, Action action,
                                                 absl::string_view move_text) = 0;

  virtual Result result() const = 0;

  // Compact binary encoding of the full state (options, history needed for repetition,
  // pending offers...). Decode(Encode()) continues the game exactly.
  virtual std::string Encode() const = 0;
  // What every player sees: pieces, hands, turn, checks, last move, position text.
  virtual PublicView View() const = 0;
  virtual std::string PositionText() const = 0;
  // Chess: "fen", "pgn". Others: UNIMPLEMENTED.
  virtual absl::StatusOr<std::string> Export(absl::string_view format) const = 0;

  virtual std::unique_ptr<Game> Clone() const = 0;

  // Leaf count of the legal move tree (engine's fast path). Divide: per root move.
  virtual uint64_t Perft(int depth) const = 0;
  virtual std::vector<std::pair<std::string, uint64_t>> Divide(int depth) const = 0;
};

struct NewGameParams {
  Kind kind = Kind::kUnknown;
  Options options;     // missing options take their defaults
  int seats = 0;       // 0 = the game's minimum
  int first_seat = 0;  // seat that moves first (shogi, checkers); chess: must be 0
};

}  // namespace tablero::game

#endif  // TABLERO_LIBS_GAME_GAME_H_
