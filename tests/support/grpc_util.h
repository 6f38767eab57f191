// Test support: gRPC probes (health, reflection) used by the service tests.
#ifndef TABLERO_TESTS_SUPPORT_GRPC_UTIL_H_
#define TABLERO_TESTS_SUPPORT_GRPC_UTIL_H_

#include <grpcpp/grpcpp.h>

#include <string>
#include <vector>

namespace tablero::testing {

// "SERVING", "NOT_SERVING", "UNKNOWN", "SERVICE_UNKNOWN", or "ERROR: <status>".
std::string HealthStatus(const std::string& addr, const std::string& service = "");
// Polls until HealthStatus == want or `seconds` pass; returns the last status seen.
std::string WaitHealth(const std::string& addr, const std::string& want, double seconds,
                       const std::string& service = "");
// Service names listed by server reflection (empty on failure).
std::vector<std::string> ReflectionServices(const std::string& addr);

}  // namespace tablero::testing

#endif  // TABLERO_TESTS_SUPPORT_GRPC_UTIL_H_
