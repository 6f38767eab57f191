#include "libs/service/ops.h"

#include <chrono>
#include <thread>

namespace tablero::service {

grpc::Status OpsService::Ping(grpc::ServerContext* ctx, const tablero::v1::PingRequest* req,
                              tablero::v1::PingResponse* resp) {
  if (req->delay_ms() < 0 || req->delay_ms() > 10000) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "delay_ms must be from 0 to 10000");
  }
  if (req->payload().size() > 1024) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "payload is limited to 1024 bytes");
  }
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(req->delay_ms());
  while (std::chrono::steady_clock::now() < until) {
    if (ctx->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  resp->set_payload(req->payload());
  resp->set_service(name_);
  return grpc::Status::OK;
}

}  // namespace tablero::service
