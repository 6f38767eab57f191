// tablero.v1.Bot: a thin adapter from the contracts to the libraries.
#ifndef TABLERO_SERVICES_BOT_BOT_SERVICE_H_
#define TABLERO_SERVICES_BOT_BOT_SERVICE_H_

#include "tablero/v1/bot.grpc.pb.h"

namespace tablero::bot {

// Every RPC not overridden here answers UNIMPLEMENTED until its issue lands.
class BotService final : public tablero::v1::Bot::Service {};

}  // namespace tablero::bot

#endif  // TABLERO_SERVICES_BOT_BOT_SERVICE_H_
