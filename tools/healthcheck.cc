// healthcheck: asks a gRPC server for its grpc.health.v1 status, for container health
// checks and scripts (no probe binary is packaged in Debian).
//
//   healthcheck --addr host:port [--service tablero.v1.Rules] [--timeout_ms 2000]
//   healthcheck --version
//
// Exit 0 when SERVING; 1 when NOT_SERVING/UNKNOWN; 2 when the server cannot be reached or
// the service is unknown to it; 3 on bad arguments.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "libs/version/version.h"

ABSL_FLAG(std::string, addr, "", "server address, host:port");
ABSL_FLAG(std::string, service, "", "service name to check; empty for the whole server");
ABSL_FLAG(int, timeout_ms, 2000, "deadline of the check");

int main(int argc, char** argv) {
  tablero::InitFlagsUsage("healthcheck", "healthcheck --addr host:port [--service NAME]");
  absl::ParseCommandLine(argc, argv);
  std::string addr = absl::GetFlag(FLAGS_addr);
  if (addr.empty()) {
    std::cerr << "healthcheck: --addr is required\n";
    return 3;
  }
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() +
                   std::chrono::milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
  grpc::health::v1::HealthCheckRequest req;
  req.set_service(absl::GetFlag(FLAGS_service));
  grpc::health::v1::HealthCheckResponse resp;
  grpc::Status s = stub->Check(&ctx, req, &resp);
  if (!s.ok()) {
    std::cerr << "healthcheck: " << addr << ": " << s.error_message() << "\n";
    return 2;
  }
  std::cout << grpc::health::v1::HealthCheckResponse::ServingStatus_Name(resp.status()) << "\n";
  return resp.status() == grpc::health::v1::HealthCheckResponse::SERVING ? 0 : 1;
}
