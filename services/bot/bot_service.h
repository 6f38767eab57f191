// tablero.v1.Bot: a thin adapter from the contract to libs/bot. Stateless: each call
// decodes the state, searches and answers; nothing is kept between calls.
#ifndef TABLERO_SERVICES_BOT_BOT_SERVICE_H_
#define TABLERO_SERVICES_BOT_BOT_SERVICE_H_

#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "tablero/v1/bot.grpc.pb.h"

namespace tablero::bot {

class BotService final : public tablero::v1::Bot::Service {
 public:
  // Thinking never exceeds max_budget_ms, whatever the request asks.
  // Registers tablero_bot_think_seconds{kind} and tablero_bot_budget_overruns_total{kind}.
  BotService(prometheus::Registry& registry, int max_budget_ms);

  grpc::Status ChooseMove(grpc::ServerContext* context,
                          const tablero::v1::ChooseMoveRequest* request,
                          tablero::v1::ChooseMoveResponse* response) override;

 private:
  int max_budget_ms_;
  prometheus::Histogram* think_[4] = {};  // by game::Kind (index 0 unused)
  prometheus::Counter* overruns_[4] = {};
};

}  // namespace tablero::bot

#endif  // TABLERO_SERVICES_BOT_BOT_SERVICE_H_
