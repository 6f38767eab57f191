// Registry entry points and the option table (the state encoding is codec.cc).
#include "libs/shogi4/shogi4.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "libs/game/codec.h"
#include "libs/shogi4/game.h"
#include "libs/shogi4/history.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"
#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {

using game::OptionSpec;

const game::GameInfo& Info() {
  static const game::GameInfo* info = [] {
    auto* i = new game::GameInfo;
    i->kind = game::Kind::kShogi4;
    i->name = "Four-player Shogi";
    i->min_seats = i->max_seats = kSeats;
    i->options = {
        {"format",
         "singles (each against all) or pairs (partners sit opposite)",
         OptionSpec::Type::kChoice,
         {"singles", "pairs"},
         0,
         0,
         "singles",
         false,
         "Format",
         {"Singles", "Pairs"}},
        {"ending",
         "singles: end after two mates, or play on to the last one standing",
         OptionSpec::Type::kChoice,
         {"two_mates", "last_one_standing"},
         0,
         0,
         "two_mates",
         false,
         "Ending",
         {"Two mates", "Last one standing"}},
        {"mated_pieces",
         "a mated player's board pieces go to the mater, or belong to nobody",
         OptionSpec::Type::kChoice,
         {"to_mater", "ownerless"},
         0,
         0,
         "to_mater",
         false,
         "Mated pieces",
         {"To the mater", "Ownerless"}},
        {"move_limit",
         "total moves of all players before the game ends (0 = none)",
         OptionSpec::Type::kInt,
         {},
         0,
         100000,
         "0",
         false,
         "Move limit"},
        {"pawn_before_flipped_king_forbidden",
         "a pawn may not be dropped or moved unpromoted in front of a flipped king",
         OptionSpec::Type::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         false,
         "No pawn before flipped king"},
        {"show_legal_moves",
         "show the legal moves of a selected piece",
         OptionSpec::Type::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         true,
         "Show legal moves"},
        {"rotate_first_player",
         "each new game in the room starts one seat further clockwise",
         OptionSpec::Type::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         true,
         "Rotate first player"},
    };
    return i;
  }();
  return *info;
}

namespace {

absl::Status CheckSeats(const game::NewGameParams& params) {
  if (params.seats != 0 && params.seats != kSeats) {
    return absl::InvalidArgumentError("four-player shogi has exactly 4 seats");
  }
  if (params.first_seat < 0 || params.first_seat >= kSeats) {
    return absl::InvalidArgumentError("first seat must be 0-3");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams& params) {
  if (absl::Status s = CheckSeats(params); !s.ok()) return s;
  auto options = game::ResolveOptions(Info(), params.options);
  if (!options.ok()) return options.status();
  auto rules = RulesFromOptions(*options);
  if (!rules.ok()) return rules.status();
  return std::make_unique<Shogi4Game>(*options, StartPosition(*rules, params.first_seat));
}

absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams& params,
                                                         absl::string_view text) {
  if (absl::Status s = CheckSeats(params); !s.ok()) return s;
  auto options = game::ResolveOptions(Info(), params.options);
  if (!options.ok()) return options.status();
  auto rules = RulesFromOptions(*options);
  if (!rules.ok()) return rules.status();
  auto pos = ParsePosition(text, *rules);
  if (!pos.ok()) return pos.status();
  if (pos->over == EndReason::kNone && !HasLegalMove(*pos, pos->to_move)) {
    return absl::InvalidArgumentError("shogi4 position: the seat to move has no legal move");
  }
  return std::make_unique<Shogi4Game>(*options, *pos);
}

const game::WireView& WireViewOf(const game::Game& game) {
  return static_cast<const Shogi4Game&>(game);
}

}  // namespace tablero::shogi4
