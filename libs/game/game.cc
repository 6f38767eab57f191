#include "libs/game/game.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tablero::game {

absl::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kChess:
      return "chess";
    case Kind::kShogi4:
      return "shogi4";
    case Kind::kCheckers:
      return "checkers";
    default:
      return "unknown";
  }
}

absl::StatusOr<Kind> ParseKind(absl::string_view name) {
  for (Kind k : {Kind::kChess, Kind::kShogi4, Kind::kCheckers}) {
    if (name == KindName(k)) return k;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown game kind \"", name, "\" (expected chess, shogi4 or checkers)"));
}

absl::string_view EventTypeName(EventType type) {
  switch (type) {
    case EventType::kMove:
      return "move";
    case EventType::kCapture:
      return "capture";
    case EventType::kPromotion:
      return "promotion";
    case EventType::kCheck:
      return "check";
    case EventType::kMate:
      return "mate";
    case EventType::kElimination:
      return "elimination";
    case EventType::kPiecesPassed:
      return "pieces_passed";
    case EventType::kFinished:
      return "finished";
    case EventType::kSkipped:
      return "skipped";
    case EventType::kResigned:
      return "resigned";
    case EventType::kDrawOffered:
      return "draw_offered";
    case EventType::kDrawDeclined:
      return "draw_declined";
    case EventType::kDrawClaimed:
      return "draw_claimed";
    case EventType::kGameOver:
      return "game_over";
  }
  return "unknown";
}

std::vector<std::string> ChoiceLabels(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionSpec::Type::kBool:
      return {"On", "Off"};
    case OptionSpec::Type::kChoice:
      return spec.choice_labels;
    case OptionSpec::Type::kInt:
      break;
  }
  return {};
}

absl::StatusOr<Options> ResolveOptions(const GameInfo& info, const Options& given) {
  for (const auto& [name, value] : given) {
    bool known = false;
    for (const OptionSpec& s : info.options) known |= s.name == name;
    if (!known) {
      std::vector<std::string> names;
      for (const OptionSpec& s : info.options) names.push_back(s.name);
      return absl::InvalidArgumentError(
          absl::StrCat("option \"", name, "\" is not an option of ", KindName(info.kind),
                       " (options: ", absl::StrJoin(names, ", "), ")"));
    }
  }
  Options out;
  for (const OptionSpec& s : info.options) {
    auto it = given.find(s.name);
    std::string value = it == given.end() ? s.default_value : it->second;
    switch (s.type) {
      case OptionSpec::Type::kBool:
        if (value != "on" && value != "off") {
          return absl::InvalidArgumentError(
              absl::StrCat("option \"", s.name, "\": \"", value, "\" is not on or off"));
        }
        break;
      case OptionSpec::Type::kChoice: {
        bool ok = false;
        for (const std::string& c : s.choices) ok |= c == value;
        if (!ok) {
          return absl::InvalidArgumentError(absl::StrCat("option \"", s.name, "\": \"", value,
                                                         "\" is not one of ",
                                                         absl::StrJoin(s.choices, ", ")));
        }
        break;
      }
      case OptionSpec::Type::kInt: {
        int64_t v = 0;
        if (!absl::SimpleAtoi(value, &v) || v < s.min || v > s.max) {
          return absl::InvalidArgumentError(absl::StrCat("option \"", s.name, "\": \"", value,
                                                         "\" is not an integer from ", s.min,
                                                         " to ", s.max));
        }
        value = absl::StrCat(v);  // canonical form
        break;
      }
    }
    out[s.name] = value;
  }
  return out;
}

[[gnu::noinline]] void AddEvent(std::vector<Event>* events, EventType type, int seat, int other,
                                absl::string_view detail) {
  // A move reports one to four events (move, capture, check, game over): room for four
  // at the first, rather than growing 1 -> 2 -> 4 with a copy each time.
  if (events->capacity() == 0) events->reserve(4);
  Event& e = events->emplace_back();
  e.type = type;
  e.seat = seat;
  e.other = other;
  e.detail.assign(detail.data(), detail.size());
}

}  // namespace tablero::game
