// tablero.v1.Rules: a thin adapter from the contracts to the libraries.
#ifndef TABLERO_SERVICES_RULES_RULES_SERVICE_H_
#define TABLERO_SERVICES_RULES_RULES_SERVICE_H_

#include "tablero/v1/rules.grpc.pb.h"

namespace tablero::rules {

// Every RPC not overridden here answers UNIMPLEMENTED until its issue lands.
class RulesService final : public tablero::v1::Rules::Service {};

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_RULES_SERVICE_H_
