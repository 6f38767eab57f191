#include "libs/games/games.h"

#include "absl/strings/str_cat.h"
#include "libs/checkers/checkers.h"
#include "libs/chess/chess.h"
#include "libs/game/codec.h"
#include "libs/shogi4/shogi4.h"

namespace tablero::games {

using game::Kind;

std::vector<const game::GameInfo*> AllGames() {
  return {&chess::Info(), &shogi4::Info(), &checkers::Info()};
}

absl::StatusOr<const game::GameInfo*> Info(Kind kind) {
  switch (kind) {
    case Kind::kChess:
      return &chess::Info();
    case Kind::kShogi4:
      return &shogi4::Info();
    case Kind::kCheckers:
      return &checkers::Info();
    default:
      return absl::InvalidArgumentError("unknown game kind");
  }
}

namespace {

absl::Status CheckParams(const game::NewGameParams& p, const game::GameInfo& info) {
  int seats = p.seats == 0 ? info.min_seats : p.seats;
  if (seats < info.min_seats || seats > info.max_seats) {
    return absl::InvalidArgumentError(absl::StrCat(game::KindName(p.kind), " is played by ",
                                                   info.min_seats, "-", info.max_seats,
                                                   " players, not ", p.seats));
  }
  if (p.first_seat < 0 || p.first_seat >= seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("first seat ", p.first_seat, " is not a seat of a ", seats, "-seat game"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams& params) {
  auto info = Info(params.kind);
  if (!info.ok()) return info.status();
  if (absl::Status s = CheckParams(params, **info); !s.ok()) return s;
  game::NewGameParams p = params;
  if (p.seats == 0) p.seats = (*info)->min_seats;
  switch (p.kind) {
    case Kind::kChess:
      return chess::NewGame(p);
    case Kind::kShogi4:
      return shogi4::NewGame(p);
    case Kind::kCheckers:
      return checkers::NewGame(p);
    default:
      return absl::InvalidArgumentError("unknown game kind");
  }
}

absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams& params,
                                                         absl::string_view text) {
  auto info = Info(params.kind);
  if (!info.ok()) return info.status();
  if (absl::Status s = CheckParams(params, **info); !s.ok()) return s;
  game::NewGameParams p = params;
  if (p.seats == 0) p.seats = (*info)->min_seats;
  switch (p.kind) {
    case Kind::kChess:
      return chess::FromPosition(p, text);
    case Kind::kShogi4:
      return shogi4::FromPosition(p, text);
    case Kind::kCheckers:
      return checkers::FromPosition(p, text);
    default:
      return absl::InvalidArgumentError("unknown game kind");
  }
}

absl::StatusOr<std::unique_ptr<game::Game>> Decode(absl::string_view bytes, Kind expect) {
  auto env = game::UnwrapState(bytes);
  if (!env.ok()) return env.status();
  if (expect != Kind::kUnknown && env->kind != expect) {
    return absl::InvalidArgumentError(absl::StrCat("state is a ", game::KindName(env->kind),
                                                   " state, not ", game::KindName(expect)));
  }
  switch (env->kind) {
    case Kind::kChess:
      return chess::Decode(env->version, env->payload);
    case Kind::kShogi4:
      return shogi4::Decode(env->version, env->payload);
    case Kind::kCheckers:
      return checkers::Decode(env->version, env->payload);
    default:
      return absl::InvalidArgumentError("unknown game kind");
  }
}

const game::WireView* WireViewOf(const game::Game& game) {
  switch (game.kind()) {
    case Kind::kChess:
      return &chess::WireViewOf(game);
    case Kind::kShogi4:
      return &shogi4::WireViewOf(game);
    case Kind::kCheckers:
      return &checkers::WireViewOf(game);
    default:
      return nullptr;
  }
}

}  // namespace tablero::games
