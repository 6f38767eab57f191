// tablero.v1.Ops, registered by Server on every service binary.
#ifndef TABLERO_LIBS_SERVICE_OPS_H_
#define TABLERO_LIBS_SERVICE_OPS_H_

#include <string>

#include "tablero/v1/ops.grpc.pb.h"

namespace tablero::service {

class OpsService final : public tablero::v1::Ops::Service {
 public:
  explicit OpsService(std::string name) : name_(std::move(name)) {}
  grpc::Status Ping(grpc::ServerContext* ctx, const tablero::v1::PingRequest* req,
                    tablero::v1::PingResponse* resp) override;

 private:
  std::string name_;
};

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_OPS_H_
