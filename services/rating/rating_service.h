// tablero.v1.Rating: a thin adapter from the contracts to the libraries.
#ifndef TABLERO_SERVICES_RATING_RATING_SERVICE_H_
#define TABLERO_SERVICES_RATING_RATING_SERVICE_H_

#include "tablero/v1/rating.grpc.pb.h"

namespace tablero::rating {

// Every RPC not overridden here answers UNIMPLEMENTED until its issue lands.
class RatingService final : public tablero::v1::Rating::Service {};

}  // namespace tablero::rating

#endif  // TABLERO_SERVICES_RATING_RATING_SERVICE_H_
