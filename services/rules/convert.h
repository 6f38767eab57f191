// Conversions between the tablero.v1 messages and the common game interface. Pure
// functions, no engine calls: the service decides what to compute, these only copy.
// Every enum value is checked, so that a client's out-of-range number never becomes an
// out-of-range C++ enum.
#ifndef TABLERO_SERVICES_RULES_CONVERT_H_
#define TABLERO_SERVICES_RULES_CONVERT_H_

#include <grpcpp/support/status.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/game/game.h"
#include "libs/service/status.h"
#include "tablero/v1/common.pb.h"

namespace tablero::rules {

// Game kinds convert through the one table, libs/games/kinds.h.

// INVALID_ARGUMENT for ACTION_UNSPECIFIED and unknown numbers.
absl::StatusOr<game::Action> FromProto(v1::Action action);

// absl::Status -> grpc::Status: the one conversion every service uses.
using ::tablero::service::ToGrpc;

void ToProto(const game::GameInfo& in, v1::GameInfo* out);
void ToProto(const game::Move& in, v1::Move* out);
void ToProto(const game::Event& in, v1::PlayEvent* out);
void ToProto(const game::Result& in, v1::Result* out);
// Moves out of `in` (its strings are not needed afterwards).
void ToProto(game::PublicView&& in, v1::PublicView* out);

// Structured move from a client: path, drop and promotion; seat and texts are the
// engine's business (the seat is always the seat to move).
game::Move FromProto(const v1::Move& in, int seat);

template <typename Map>
game::Options OptionsFromProto(const Map& in) {
  game::Options out;
  for (const auto& [name, value] : in) out.emplace(name, value);
  return out;
}
template <typename Map>
void OptionsToProto(const game::Options& in, Map* out) {
  for (const auto& [name, value] : in) (*out)[name] = value;
}

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_CONVERT_H_
