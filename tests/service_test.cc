// Every service binary as a real process: health, reflection, metrics, graceful shutdown,
// and (matchmaking, rating) behaviour without a reachable database.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "libs/version/version.h"
#include "tablero/v1/ops.grpc.pb.h"
#include "tests/support/grpc_util.h"
#include "tests/support/process.h"

namespace tablero::testing {
namespace {

struct Svc {
  const char* binary;
  const char* service;  // full gRPC service name
  bool needs_db;
};

// Names the parameter in test listings (instead of a byte dump).
void PrintTo(const Svc& svc, std::ostream* os) { *os << svc.binary; }

const Svc kServices[] = {{"rules", "tablero.v1.Rules", false},
                         {"matchmaking", "tablero.v1.Matchmaking", true},
                         {"rating", "tablero.v1.Rating", true},
                         {"bot", "tablero.v1.Bot", false}};

struct Running {
  std::unique_ptr<Process> proc;
  std::string addr;
  int metrics_port = 0;
};

Running Start(const Svc& svc, const std::string& db_url, double drain_seconds = 10) {
  Running r;
  int port = FreePort();
  r.metrics_port = FreePort();
  r.addr = "127.0.0.1:" + std::to_string(port);
  std::vector<std::string> args = {"--listen=" + r.addr,
                                   "--metrics_listen=127.0.0.1:" + std::to_string(r.metrics_port),
                                   "--drain_seconds=" + std::to_string(drain_seconds)};
  // The database URL comes through the environment, as in a deployment.
  std::map<std::string, std::string> env;
  if (svc.needs_db) env["TABLERO_DATABASE_URL"] = db_url;
  r.proc = std::make_unique<Process>(BinPath(svc.binary), args, env);
  return r;
}

grpc::Status Ping(const std::string& addr, int delay_ms) {
  auto stub =
      tablero::v1::Ops::NewStub(grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  tablero::v1::PingRequest req;
  req.set_delay_ms(delay_ms);
  req.set_payload("hello");
  tablero::v1::PingResponse resp;
  grpc::Status s = stub->Ping(&ctx, req, &resp);
  if (s.ok() && resp.payload() != "hello") return grpc::Status(grpc::StatusCode::INTERNAL, "echo");
  return s;
}

class ServiceTest : public ::testing::TestWithParam<Svc> {
 protected:
  void SetUp() override {
    if (GetParam().needs_db) {
      ASSERT_FALSE(TestDatabaseUrl().empty())
          << "TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh";
    }
  }
};

TEST_P(ServiceTest, ServesHealthReflectionAndMetrics) {
  const Svc& svc = GetParam();
  Running r = Start(svc, TestDatabaseUrl());
  ASSERT_EQ(WaitHealth(r.addr, "SERVING", 30), "SERVING") << r.proc->log();
  EXPECT_EQ(HealthStatus(r.addr, svc.service), "SERVING");

  std::vector<std::string> names = ReflectionServices(r.addr);
  EXPECT_NE(std::find(names.begin(), names.end(), svc.service), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "grpc.health.v1.Health"), names.end());

  ASSERT_TRUE(Ping(r.addr, 0).ok());
  auto stub =
      tablero::v1::Ops::NewStub(grpc::CreateChannel(r.addr, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  tablero::v1::PingRequest bad;
  bad.set_delay_ms(-1);
  tablero::v1::PingResponse resp;
  EXPECT_EQ(stub->Ping(&ctx, bad, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  auto metrics = HttpGet("127.0.0.1", r.metrics_port, "/metrics");
  ASSERT_TRUE(metrics.has_value());
  bool ok_line = false, err_line = false, hist = false;
  std::istringstream lines(*metrics);
  for (std::string line; std::getline(lines, line);) {
    bool ping = line.find("grpc_method=\"Ping\"") != std::string::npos &&
                line.find("grpc_service=\"tablero.v1.Ops\"") != std::string::npos;
    if (!ping) continue;
    if (line.rfind("grpc_server_handled_total", 0) == 0 &&
        line.find("grpc_code=\"OK\"") != std::string::npos) {
      ok_line = line.substr(line.rfind(' ') + 1) == "1";
    }
    if (line.rfind("grpc_server_handled_total", 0) == 0 &&
        line.find("grpc_code=\"INVALID_ARGUMENT\"") != std::string::npos) {
      err_line = line.substr(line.rfind(' ') + 1) == "1";
    }
    if (line.rfind("grpc_server_handling_seconds_count", 0) == 0) {
      hist = line.substr(line.rfind(' ') + 1) == "2";
    }
  }
  EXPECT_TRUE(ok_line) << *metrics;
  EXPECT_TRUE(err_line) << *metrics;
  EXPECT_TRUE(hist) << *metrics;

  // The build a replica runs (issue 24): one gauge, 1, labelled with version and commit.
  EXPECT_NE(metrics->find("# TYPE tablero_build_info gauge\n"), std::string::npos) << *metrics;
  std::string build_info;
  std::istringstream all(*metrics);
  for (std::string line; std::getline(all, line);)
    if (line.rfind("tablero_build_info{", 0) == 0) build_info = line;
  EXPECT_NE(build_info.find(absl::StrCat("version=\"", tablero::Version(), "\"")),
            std::string::npos)
      << build_info;
  EXPECT_NE(build_info.find(absl::StrCat("commit=\"", tablero::Commit(), "\"")), std::string::npos)
      << build_info;
  EXPECT_EQ(build_info.substr(build_info.rfind(' ') + 1), "1") << build_info;

  r.proc->Signal(SIGTERM);
  EXPECT_EQ(r.proc->Wait(15), std::optional<int>(0)) << r.proc->log();
}

TEST_P(ServiceTest, SigtermDrainsInFlightCallAndExitsZero) {
  const Svc& svc = GetParam();
  Running r = Start(svc, TestDatabaseUrl(), /*drain_seconds=*/5);
  ASSERT_EQ(WaitHealth(r.addr, "SERVING", 30), "SERVING") << r.proc->log();
  grpc::Status in_flight;
  std::thread caller([&] { in_flight = Ping(r.addr, 1500); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the call is being served
  auto t0 = std::chrono::steady_clock::now();
  r.proc->Signal(SIGTERM);
  auto code = r.proc->Wait(15);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  caller.join();
  EXPECT_TRUE(in_flight.ok()) << in_flight.error_message();
  ASSERT_EQ(code, std::optional<int>(0)) << r.proc->log();
  EXPECT_LT(secs, 5 + 2.0);  // within the drain deadline (plus process teardown)
  EXPECT_NE(r.proc->log().find("draining"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(AllServices, ServiceTest, ::testing::ValuesIn(kServices),
                         [](const auto& info) { return std::string(info.param.binary); });

class DatabaseServiceTest : public ::testing::TestWithParam<Svc> {};

TEST_P(DatabaseServiceTest, UnreachableDatabaseMeansNotServingAndNoCrash) {
  const Svc& svc = GetParam();
  Running r = Start(svc, "postgresql://nobody@127.0.0.1:1/nowhere?connect_timeout=2");
  // Reachable over gRPC (health answers) but not ready.
  ASSERT_EQ(WaitHealth(r.addr, "NOT_SERVING", 20), "NOT_SERVING") << r.proc->log();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_TRUE(r.proc->running());
  EXPECT_EQ(HealthStatus(r.addr, svc.service), "NOT_SERVING");
  EXPECT_EQ(HealthStatus(r.addr, "liveness"), "SERVING");  // alive: no restart for a DB outage
  std::string log = r.proc->log();
  EXPECT_NE(log.find("database not available"), std::string::npos) << log;
  EXPECT_NE(log.find("cannot connect to PostgreSQL"), std::string::npos) << log;
  r.proc->Signal(SIGTERM);
  EXPECT_EQ(r.proc->Wait(15), std::optional<int>(0)) << r.proc->log();
}

TEST_P(DatabaseServiceTest, MalformedDatabaseUrlMeansNotServing) {
  const Svc& svc = GetParam();
  Running r = Start(svc, "this is not a url ===");
  ASSERT_EQ(WaitHealth(r.addr, "NOT_SERVING", 20), "NOT_SERVING") << r.proc->log();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_TRUE(r.proc->running());
  EXPECT_NE(r.proc->log().find("database not available"), std::string::npos) << r.proc->log();
  r.proc->Signal(SIGTERM);
  EXPECT_EQ(r.proc->Wait(15), std::optional<int>(0));
}

INSTANTIATE_TEST_SUITE_P(DbServices, DatabaseServiceTest,
                         ::testing::Values(kServices[1], kServices[2]),
                         [](const auto& info) { return std::string(info.param.binary); });

}  // namespace
}  // namespace tablero::testing
