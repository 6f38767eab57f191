// tablero.v1.Matchmaking: a thin adapter from the contracts to the libraries.
#ifndef TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
#define TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_

#include "tablero/v1/matchmaking.grpc.pb.h"

namespace tablero::matchmaking {

// Every RPC not overridden here answers UNIMPLEMENTED until its issue lands.
class MatchmakingService final : public tablero::v1::Matchmaking::Service {};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
