// Registry entry points, the option table, and the state encoding.
#include "libs/shogi4/shogi4.h"

#include "absl/strings/str_cat.h"
#include "libs/game/codec.h"
#include "libs/shogi4/adapter.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"

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
         false},
        {"ending",
         "singles: end after two mates, or play on to the last one standing",
         OptionSpec::Type::kChoice,
         {"two_mates", "last_one_standing"},
         0,
         0,
         "two_mates",
         false},
        {"mated_pieces",
         "a mated player's board pieces go to the mater, or belong to nobody",
         OptionSpec::Type::kChoice,
         {"to_mater", "ownerless"},
         0,
         0,
         "to_mater",
         false},
        {"move_limit",
         "total moves of all players before the game ends (0 = none)",
         OptionSpec::Type::kInt,
         {},
         0,
         100000,
         "0",
         false},
        {"pawn_before_flipped_king_forbidden",
         "a pawn may not be dropped or moved unpromoted in front of a flipped king",
         OptionSpec::Type::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         false},
        {"show_legal_moves",
         "show the legal moves of a selected piece",
         OptionSpec::Type::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         true},
        {"rotate_first_player",
         "each new game in the room starts one seat further clockwise",
         OptionSpec::Type::kBool,
         {"on", "off"},
         0,
         0,
         "on",
         true},
    };
    return i;
  }();
  return *info;
}

namespace {

constexpr uint8_t kVersion = 1;

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

std::string Shogi4Game::Encode() const {
  game::ByteWriter w;
  w.Reserve(256 + 9 * history_.size());
  w.Varint(options_.size());
  for (const auto& [name, value] : options_) {
    w.Str(name);
    w.Str(value);
  }
  w.Str(shogi4::PositionText(pos_));
  w.U8(static_cast<uint8_t>(pos_.over));
  w.U8(static_cast<uint8_t>(pos_.last_mover + 1));
  w.Varint(history_.size());
  for (const Entry& e : history_) {
    w.U64(e.key);
    w.U8(static_cast<uint8_t>((e.mover + 1) | (e.in_check ? 8 : 0)));
  }
  w.U8(last_move_.has_value());
  if (last_move_) {
    w.U8(static_cast<uint8_t>(last_move_->seat));
    w.Str(last_move_->notation);
  }
  return game::WrapState(game::Kind::kShogi4, kVersion, w.bytes());
}

absl::StatusOr<std::unique_ptr<Shogi4Game>> Shogi4Game::Decode(uint8_t version,
                                                               absl::string_view payload) {
  auto bad = [](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("shogi4 state: ", why));
  };
  if (version != kVersion) return bad(absl::StrCat("unknown version ", version));
  game::ByteReader r(payload);
  uint64_t n_options = r.Varint();
  if (!r.ok() || n_options > 32) return bad("bad option count");
  game::Options options;
  for (uint64_t i = 0; i < n_options; ++i) {
    std::string name = r.Str(64), value = r.Str(64);
    if (!r.ok()) return bad("truncated options");
    options[name] = value;
  }
  auto resolved = game::ResolveOptions(Info(), options);
  if (!resolved.ok()) return resolved.status();
  if (*resolved != options) return bad("options are not complete and canonical");
  auto rules = RulesFromOptions(options);
  if (!rules.ok()) return rules.status();
  std::string text = r.Str(4096);
  uint8_t over = r.U8();
  uint8_t last_mover = r.U8();
  uint64_t n_history = r.Varint();
  if (!r.ok()) return bad("truncated");
  auto pos = ParsePosition(text, *rules);
  if (!pos.ok()) return pos.status();
  if (last_mover > kSeats) return bad("bad last mover");
  pos->last_mover = static_cast<int8_t>(last_mover - 1);
  if (n_history == 0 || n_history > r.remaining() / 9 || n_history > pos->ply + 1u) {
    return bad("bad history length");
  }
  auto g = std::make_unique<Shogi4Game>(options, *pos);
  g->history_.clear();
  g->counts_.clear();
  g->triples_ = 0;
  g->history_.reserve(n_history);
  g->counts_.reserve(n_history);
  for (uint64_t i = 0; i < n_history; ++i) {
    Entry e;
    e.key = r.U64();
    uint8_t b = r.U8();
    if ((b & 7) > kSeats || (b >> 4) != 0) return bad("bad history entry");
    e.mover = static_cast<int8_t>((b & 7) - 1);
    e.in_check = (b & 8) != 0;
    int n = ++g->counts_[e.key];
    if (n == 3) ++g->triples_;
    if (n > 4 || (n == 4 && i + 1 != n_history)) return bad("impossible repetition count");
    g->history_.push_back(e);
  }
  if (r.U8() != 0) {
    uint8_t seat = r.U8();
    std::string notation = r.Str(16);
    if (!r.ok() || seat >= kSeats) return bad("bad last move");
    auto m = ParseMoveText(notation);
    if (!m.ok()) return m.status();
    g->last_move_ = g->ToMove(*m, seat);
  }
  if (!r.ok() || !r.done()) return bad("truncated or trailing bytes");
  // The recorded ending must be the one the position implies (a fourth occurrence is the
  // only ending the position alone cannot show).
  const Entry& back = g->history_.back();
  if (back.key != Key(g->pos_)) return bad("history does not end at the position");
  if (over == static_cast<uint8_t>(EndReason::kFourthOccurrence)) {
    // (The move limit may have been reached by the same move.)
    EndReason shown = g->pos_.over;
    if ((shown != EndReason::kNone && shown != EndReason::kMoveLimit) ||
        g->counts_[back.key] != 4) {
      return bad("fourth occurrence not shown by the history");
    }
    g->pos_.over = EndReason::kFourthOccurrence;
  } else if (over != static_cast<uint8_t>(g->pos_.over)) {
    return bad("the recorded ending does not match the position");
  } else if (g->counts_[back.key] > 3) {
    return bad("impossible repetition count");
  }
  if (back.in_check != InCheck(g->pos_, g->pos_.to_move)) return bad("history check flag");
  if (!g->Over()) {
    // Without a position seen three times the repetition rule refuses nothing, and the
    // first legal move found answers.
    bool any = false;
    if (g->triples_ == 0) {
      any = HasLegalMove(g->pos_, g->pos_.to_move);
    } else {
      std::vector<Move> moves;
      g->Legal(g->pos_, &moves);
      any = !moves.empty();
    }
    if (!any) return bad("the seat to move has no legal move");
  }
  return g;
}

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version, absl::string_view payload) {
  auto g = Shogi4Game::Decode(version, payload);
  if (!g.ok()) return g.status();
  return std::unique_ptr<game::Game>(std::move(*g));
}

}  // namespace tablero::shogi4
