// The boundary's health gate (boundary.h): gRPC's default health service answers SERVING
// for the whole server from the moment its port is bound; a health check that arrives
// before the server has set its readiness must wait for it instead.
#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "absl/synchronization/notification.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "libs/service/boundary.h"
#include "libs/service/metrics.h"

namespace tablero::service {
namespace {

using grpc::health::v1::HealthCheckResponse;

TEST(HealthGate, AHealthCheckBeforeTheFirstReadinessWaitsForIt) {
  prometheus::Registry registry;
  RpcMetrics metrics(registry);
  MethodTable methods = MethodTable::ForServices({});
  absl::Notification gate, draining;

  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> icpt;
  icpt.push_back(
      std::make_unique<BoundaryInterceptorFactory>(&methods, &metrics, &gate, &draining));
  builder.experimental().SetInterceptorCreators(std::move(icpt));
  grpc::CallbackGenericService generic;  // a server needs one service of its own
  builder.RegisterCallbackGenericService(&generic);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  ASSERT_NE(port, 0);

  // The port is bound and gRPC's health service holds its initial SERVING for "".
  std::atomic<bool> answered{false};
  HealthCheckResponse::ServingStatus seen = HealthCheckResponse::UNKNOWN;
  grpc::Status status;
  std::thread probe([&] {
    auto stub = grpc::health::v1::Health::NewStub(grpc::CreateChannel(
        "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    grpc::health::v1::HealthCheckRequest req;
    HealthCheckResponse resp;
    status = stub->Check(&ctx, req, &resp);
    seen = resp.status();
    answered = true;
  });
  // Time for the probe to arrive; without the gate it would be answered SERVING here.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(answered) << "the health check was answered before the first readiness";
  server->GetHealthCheckService()->SetServingStatus("", false);
  gate.Notify();
  probe.join();
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(seen, HealthCheckResponse::NOT_SERVING);

  // Once open, the gate holds nothing: the next check answers the status as it is.
  server->GetHealthCheckService()->SetServingStatus("", true);
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  HealthCheckResponse resp;
  ASSERT_TRUE(stub->Check(&ctx, grpc::health::v1::HealthCheckRequest(), &resp).ok());
  EXPECT_EQ(resp.status(), HealthCheckResponse::SERVING);
  server->Shutdown();
}

}  // namespace
}  // namespace tablero::service
