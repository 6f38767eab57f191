#include "libs/service/client_address.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "absl/flags/flag.h"
#include "tablero/v1/ops.grpc.pb.h"

namespace tablero::service {
namespace {

TEST(PeerHost, StripsSchemeAndPort) {
  EXPECT_EQ(PeerHost("ipv4:10.1.2.3:5000"), "10.1.2.3");
  EXPECT_EQ(PeerHost("ipv6:[::1]:5000"), "::1");
  EXPECT_EQ(PeerHost("ipv6:%5B2001:db8::7%5D:443"), "2001:db8::7");
  EXPECT_EQ(PeerHost("unix:/run/x.sock"), "unix:/run/x.sock");
}

TEST(ClientAddressFrom, NoTrustedHopsIgnoresTheHeader) {
  EXPECT_EQ(ClientAddressFrom("ipv4:10.0.0.9:1234", {"203.0.113.5"}, 0), "10.0.0.9");
}

TEST(ClientAddressFrom, TakesTheEntryNHopsFromTheRight) {
  // The client wrote "1.1.1.1" itself; Envoy appended what it saw.
  EXPECT_EQ(ClientAddressFrom("ipv4:10.0.0.9:1", {"1.1.1.1, 203.0.113.5"}, 1), "203.0.113.5");
  EXPECT_EQ(ClientAddressFrom("ipv4:10.0.0.9:1", {"1.1.1.1, 203.0.113.5"}, 2), "1.1.1.1");
  // Several header lines form one list in arrival order.
  EXPECT_EQ(ClientAddressFrom("ipv4:10.0.0.9:1", {"1.1.1.1", "198.51.100.7,203.0.113.5"}, 2),
            "198.51.100.7");
}

TEST(ClientAddressFrom, TooFewEntriesFallBackToThePeer) {
  EXPECT_EQ(ClientAddressFrom("ipv4:10.0.0.9:1", {"203.0.113.5"}, 2), "10.0.0.9");
  EXPECT_EQ(ClientAddressFrom("ipv4:10.0.0.9:1", {}, 1), "10.0.0.9");
  EXPECT_EQ(ClientAddressFrom("ipv4:10.0.0.9:1", {" , "}, 1), "10.0.0.9");
}

// The real thing: a server call's context, over a loopback connection.
class EchoAddress final : public tablero::v1::Ops::Service {
  grpc::Status Ping(grpc::ServerContext* ctx, const tablero::v1::PingRequest*,
                    tablero::v1::PingResponse* resp) override {
    resp->set_service(ClientAddress(*ctx));
    return grpc::Status::OK;
  }
};

std::string Call(tablero::v1::Ops::Stub& stub, const char* xff) {
  grpc::ClientContext ctx;
  if (xff != nullptr) ctx.AddMetadata("x-forwarded-for", xff);
  tablero::v1::PingResponse resp;
  grpc::Status s = stub.Ping(&ctx, {}, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.service();
}

TEST(ClientAddress, FromAServerContext) {
  EchoAddress svc;
  grpc::ServerBuilder b;
  int port = 0;
  b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  b.RegisterService(&svc);
  auto server = b.BuildAndStart();
  ASSERT_NE(port, 0);
  auto stub = tablero::v1::Ops::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  absl::SetFlag(&FLAGS_trusted_proxy_hops, 0);
  EXPECT_EQ(Call(*stub, "203.0.113.5"), "127.0.0.1");
  absl::SetFlag(&FLAGS_trusted_proxy_hops, 1);
  EXPECT_EQ(Call(*stub, "1.1.1.1, 203.0.113.5"), "203.0.113.5");
  EXPECT_EQ(Call(*stub, nullptr), "127.0.0.1");
  absl::SetFlag(&FLAGS_trusted_proxy_hops, 0);
  server->Shutdown();
}

}  // namespace
}  // namespace tablero::service
