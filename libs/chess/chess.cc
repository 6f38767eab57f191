// Entry points used by the registry: the option table and game construction.
#include "libs/chess/chess.h"

#include "absl/strings/str_cat.h"
#include "libs/chess/game.h"

namespace tablero::chess {
namespace {

absl::Status CheckSeats(const game::NewGameParams& p) {
  if (p.seats != 0 && p.seats != 2) {
    return absl::InvalidArgumentError(absl::StrCat("chess is played by 2, not ", p.seats));
  }
  if (p.first_seat != 0) {
    return absl::InvalidArgumentError(
        "chess: seat 0 is White and moves first; swap players instead of first_seat");
  }
  return absl::OkStatus();
}

}  // namespace

const game::GameInfo& Info() {
  static const game::GameInfo* info = [] {
    using Spec = game::OptionSpec;
    auto* i = new game::GameInfo;
    i->kind = game::Kind::kChess;
    i->name = "Chess";
    i->min_seats = i->max_seats = 2;
    Spec draw{"draw_mode",
              "site: threefold repetition and 50 moves draw automatically; fide: they are "
              "claimed, and fivefold repetition and 75 moves draw automatically",
              Spec::Type::kChoice,
              {"site", "fide"},
              0,
              0,
              "site",
              false,
              "Draw mode",
              {"Site", "FIDE"}};
    Spec resign{"fide_resignation_exception",
                "A resignation is a draw when the opponent's material alone could never mate",
                Spec::Type::kBool,
                {"on", "off"},
                0,
                0,
                "off",
                false,
                "FIDE resignation exception"};
    Spec show{"show_legal_moves",
              "Clients may ask for the legal destinations of a piece",
              Spec::Type::kBool,
              {"on", "off"},
              0,
              0,
              "on",
              true,
              "Show legal moves"};
    Spec rotate{"rotate_first_player",
                "White alternates after each game in the same room",
                Spec::Type::kBool,
                {"on", "off"},
                0,
                0,
                "on",
                true,
                "Rotate first player"};
    i->options = {draw, resign, show, rotate};
    return i;
  }();
  return *info;
}

absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams& params) {
  return FromPosition(params, kStartFen);
}

absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams& params,
                                                         absl::string_view text) {
  if (absl::Status s = CheckSeats(params); !s.ok()) return s;
  auto options = game::ResolveOptions(Info(), params.options);
  if (!options.ok()) return options.status();
  auto pos = Position::ParseFen(text);
  if (!pos.ok()) return pos.status();
  return std::make_unique<ChessGame>(*options, *pos);
}

const game::WireView& WireViewOf(const game::Game& game) {
  return static_cast<const ChessGame&>(game);
}

}  // namespace tablero::chess
