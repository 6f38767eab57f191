// The one way a service builds its channel to another service (matchmaking -> rules, bot,
// rating): client-side load balancing over every address the target resolves to.
//
// A target without a scheme ("bot:50051") is read as "dns:///bot:50051"; targets with a
// scheme (dns://server/name:port, ipv4:a:p,b:p, unix:...) are kept as given. The channel
// uses gRPC's round_robin policy: one connection per resolved address and each call on
// the next one, so every replica behind a headless Service gets a share. It resolves the
// name again whenever a connection ends; servers end theirs after a maximum age
// (ServerOptions::max_connection_age in server.h), so replicas added later are found
// within that age.
#ifndef TABLERO_LIBS_SERVICE_CHANNEL_H_
#define TABLERO_LIBS_SERVICE_CHANNEL_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

namespace tablero::service {

// The service config every service-to-service channel carries.
inline constexpr char kRoundRobinServiceConfig[] =
    R"({"loadBalancingConfig":[{"round_robin":{}}]})";

// `target` with "dns:///" in front when it names no resolver scheme.
std::string BalancedTarget(const std::string& target);

// A round_robin channel to `target` (plaintext: the services talk inside the cluster).
std::shared_ptr<grpc::Channel> ServiceChannel(const std::string& target);

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_CHANNEL_H_
