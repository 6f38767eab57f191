#include "services/rules/convert.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/bot/levels.h"
#include "libs/games/kinds.h"

namespace tablero::rules {

absl::StatusOr<game::Action> FromProto(v1::Action action) {
  switch (action) {
    case v1::ACTION_RESIGN:
      return game::Action::kResign;
    case v1::ACTION_OFFER_DRAW:
      return game::Action::kOfferDraw;
    case v1::ACTION_ACCEPT_DRAW:
      return game::Action::kAcceptDraw;
    case v1::ACTION_DECLINE_DRAW:
      return game::Action::kDeclineDraw;
    case v1::ACTION_CLAIM_DRAW:
      return game::Action::kClaimDraw;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("action ", static_cast<int>(action),
                       " is not one of ACTION_RESIGN, ACTION_OFFER_DRAW, ACTION_ACCEPT_DRAW, "
                       "ACTION_DECLINE_DRAW, ACTION_CLAIM_DRAW"));
  }
}

void ToProto(const game::GameInfo& in, v1::GameInfo* out) {
  out->set_kind(games::ToProto(in.kind));
  out->set_name(in.name);
  out->set_min_seats(in.min_seats);
  out->set_max_seats(in.max_seats);
  for (const game::OptionSpec& s : in.options) {
    v1::OptionSpec* o = out->add_options();
    o->set_name(s.name);
    o->set_description(s.description);
    o->set_type(static_cast<v1::OptionSpec::Type>(static_cast<int>(s.type) + 1));
    for (const std::string& c : s.choices) o->add_choices(c);
    if (s.type == game::OptionSpec::Type::kInt) {
      o->set_min(s.min);
      o->set_max(s.max);
    }
    o->set_default_value(s.default_value);
    o->set_room_level(s.room_level);
    o->set_label(s.label);
    for (const std::string& c : game::ChoiceLabels(s)) o->add_choice_labels(c);
  }
  for (int level = bot::kMinLevel; level <= bot::kMaxLevel; ++level) {
    v1::CpuLevel* c = out->add_cpu_levels();
    c->set_level(level);
    c->set_approx_elo(bot::ApproxElo(in.kind, level));
  }
}

void ToProto(const game::Move& in, v1::Move* out) {
  out->set_seat(in.seat);
  for (const std::string& p : in.path) out->add_path(p);
  out->set_drop(in.drop);
  out->set_promotion(in.promotion);
  out->set_notation(in.notation);
  out->set_display(in.display);
}

void ToProto(const game::Event& in, v1::PlayEvent* out) {
  out->set_type(static_cast<v1::PlayEvent::Type>(static_cast<int>(in.type) + 1));
  out->set_seat(in.seat);
  out->set_other(in.other);
  out->set_detail(in.detail);
}

void ToProto(const game::Result& in, v1::Result* out) {
  out->set_over(in.over);
  out->mutable_places()->Reserve(static_cast<int>(in.places.size()));
  for (int p : in.places) out->add_places(p);
  out->set_reason(in.reason);
}

void ToProto(game::PublicView&& in, v1::PublicView* out) {
  out->mutable_pieces()->Reserve(static_cast<int>(in.pieces.size()));
  for (game::PieceView& p : in.pieces) {
    v1::PieceView* o = out->add_pieces();
    o->set_square(std::move(p.square));
    o->set_type(std::move(p.type));
    o->set_owner(p.owner);
    if (p.facing >= 0) o->set_facing(p.facing);  // -1 (no facing) is left unset
    o->set_flipped(p.flipped);
  }
  for (size_t seat = 0; seat < in.hands.size(); ++seat) {
    v1::Hand* h = out->add_hands();
    h->set_seat(static_cast<int>(seat));
    for (auto& [letter, count] : in.hands[seat]) {
      if (count < 1) continue;  // the contract lists only pieces actually held
      v1::HandPiece* hp = h->add_pieces();
      hp->set_piece(std::move(letter));
      hp->set_count(count);
    }
  }
  out->set_to_move(in.to_move);
  for (int s : in.in_check) out->add_in_check(s);
  for (bool a : in.active) out->add_active(a);
  if (in.last_move) ToProto(*in.last_move, out->mutable_last_move());
  out->set_position(std::move(in.position));
  out->set_ply(in.ply);
  if (in.draw_offer_by) out->mutable_draw_offer_by()->set_value(*in.draw_offer_by);
}

game::Move FromProto(const v1::Move& in, int seat) {
  game::Move m;
  m.seat = seat;
  m.path.assign(in.path().begin(), in.path().end());
  m.drop = in.drop();
  m.promotion = in.promotion();
  return m;
}

}  // namespace tablero::rules
