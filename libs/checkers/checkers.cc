// Registry entry points and the option table (the state encoding is codec.cc).
#include "libs/checkers/checkers.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/checkers/game.h"
#include "libs/checkers/notation.h"

namespace tablero::checkers {

const game::GameInfo& Info() {
  static const game::GameInfo* info = [] {
    using T = game::OptionSpec::Type;
    auto* i = new game::GameInfo;
    i->kind = game::Kind::kCheckers;
    i->name = "Chinese Checkers";
    i->min_seats = 2;
    i->max_seats = 6;
    i->options = {
        {"rules",
         "international (10 pieces, 2-6 players) or japanese (15 pieces with a king, 2-3)",
         T::kChoice,
         {"international", "japanese"},
         0,
         0,
         "international",
         false,
         "Rules",
         {"International", "Japanese"}},
        {"anti_blocking",
         "finish with a full goal holding at least one own piece",
         T::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         false,
         "Anti-blocking"},
        {"play_to_end",
         "with 3+ players, play on after the first finisher until all are placed",
         T::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         false,
         "Play to the end"},
        {"move_limit",
         "moves per player before the game ends (0 = no limit)",
         T::kInt,
         {},
         0,
         1000,
         "200",
         false,
         "Move limit"},
        {"show_legal_moves",
         "mark the holes a selected piece can reach",
         T::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         true,
         "Show legal moves"},
        {"rotate_first_player",
         "the next seat starts each new game in the room",
         T::kBool,
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

absl::StatusOr<Config> ConfigOf(const game::Options& o) {
  Config c;
  c.japanese = o.at("rules") == "japanese";
  c.rules.anti_blocking = o.at("anti_blocking") == "on";
  c.rules.play_to_end = o.at("play_to_end") == "on";
  if (!absl::SimpleAtoi(o.at("move_limit"), &c.rules.move_limit) || c.rules.move_limit < 0) {
    return absl::InvalidArgumentError("option \"move_limit\" is not a count of moves");
  }
  return c;
}

absl::Status CheckSeats(const Config& c, int seats) {
  if (seats < 2 || seats > kMaxSeats) {
    return absl::InvalidArgumentError(
        absl::StrCat("Chinese Checkers is played by 2-6 players, not ", seats));
  }
  if (c.japanese && seats > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("option \"rules\": japanese is played by 2-3 players, not ", seats));
  }
  return absl::OkStatus();
}

absl::StatusOr<Config> ConfigFrom(const game::Options& o, int seats) {
  auto c = ConfigOf(o);
  if (!c.ok()) return c;
  if (absl::Status s = CheckSeats(*c, seats); !s.ok()) return s;
  return c;
}

namespace {

struct Made {
  game::Options options;
  Config config;
  int seats = 0;
};

absl::StatusOr<Made> Prepare(const game::NewGameParams& params) {
  Made m;
  auto options = game::ResolveOptions(Info(), params.options);
  if (!options.ok()) return options.status();
  m.options = *std::move(options);
  m.seats = params.seats == 0 ? 2 : params.seats;
  auto config = ConfigFrom(m.options, m.seats);
  if (!config.ok()) return config.status();
  m.config = *config;
  if (params.first_seat < 0 || params.first_seat >= m.seats) {
    return absl::InvalidArgumentError(absl::StrCat("first seat ", params.first_seat,
                                                   " is not a seat of a ", m.seats, "-seat game"));
  }
  return m;
}

}  // namespace

const game::WireView& WireViewOf(const game::Game& game) {
  return static_cast<const CheckersGame&>(game);
}

absl::StatusOr<std::unique_ptr<game::Game>> NewGame(const game::NewGameParams& params) {
  auto m = Prepare(params);
  if (!m.ok()) return m.status();
  State st;
  StartState(&st, MakeLayout(m->seats, m->config.japanese), m->config.rules, params.first_seat);
  return std::make_unique<CheckersGame>(std::move(m->options), st, params.first_seat);
}

absl::StatusOr<std::unique_ptr<game::Game>> FromPosition(const game::NewGameParams& params,
                                                         absl::string_view text) {
  auto m = Prepare(params);
  if (!m.ok()) return m.status();
  State st;
  st.layout = MakeLayout(m->seats, m->config.japanese);
  st.rules = m->config.rules;
  auto pos = ParsePosition(text, st.layout);
  if (!pos.ok()) return pos.status();
  std::copy(pos->cell, pos->cell + kHoles, st.cell);
  std::copy(pos->place, pos->place + kMaxSeats, st.place);
  st.to_move = pos->to_move;
  for (int s = 0; s < m->seats; ++s) {
    // A placed seat without pieces can only have resigned; finishers keep theirs.
    bool has = false;
    for (int h = 0; h < kHoles; ++h) has |= st.cell[h] != kEmpty && OwnerOf(st.cell[h]) == s;
    st.resigned[s] = st.place[s] != 0 && !has;
  }
  Normalize(&st, nullptr);
  return std::make_unique<CheckersGame>(std::move(m->options), st, params.first_seat);
}

}  // namespace tablero::checkers
