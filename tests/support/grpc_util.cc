#include "tests/support/grpc_util.h"

#include <chrono>
#include <thread>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"

namespace tablero::testing {

std::string HealthStatus(const std::string& addr, const std::string& service) {
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  grpc::health::v1::HealthCheckRequest req;
  req.set_service(service);
  grpc::health::v1::HealthCheckResponse resp;
  grpc::Status s = stub->Check(&ctx, req, &resp);
  if (!s.ok()) return "ERROR: " + s.error_message();
  return grpc::health::v1::HealthCheckResponse::ServingStatus_Name(resp.status());
}

std::string WaitHealth(const std::string& addr, const std::string& want, double seconds,
                       const std::string& service) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::string last;
  do {
    last = HealthStatus(addr, service);
    if (last == want) return last;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (std::chrono::steady_clock::now() < until);
  return last;
}

std::vector<std::string> ReflectionServices(const std::string& addr) {
  auto stub = grpc::reflection::v1alpha::ServerReflection::NewStub(
      grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  auto stream = stub->ServerReflectionInfo(&ctx);
  grpc::reflection::v1alpha::ServerReflectionRequest req;
  req.set_list_services("*");
  std::vector<std::string> names;
  if (!stream->Write(req)) return names;
  stream->WritesDone();
  grpc::reflection::v1alpha::ServerReflectionResponse resp;
  while (stream->Read(&resp)) {
    for (const auto& s : resp.list_services_response().service()) names.push_back(s.name());
  }
  stream->Finish();
  return names;
}

}  // namespace tablero::testing
