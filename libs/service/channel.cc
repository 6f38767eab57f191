#include "libs/service/channel.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tablero::service {

std::string BalancedTarget(const std::string& target) {
  // The resolver schemes gRPC knows; anything else is a host:port for DNS.
  for (const char* scheme : {"dns:", "ipv4:", "ipv6:", "unix:", "unix-abstract:"}) {
    if (absl::StartsWith(target, scheme)) return target;
  }
  return absl::StrCat("dns:///", target);
}

std::shared_ptr<grpc::Channel> ServiceChannel(const std::string& target) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(16 << 20);
  args.SetServiceConfigJSON(kRoundRobinServiceConfig);
  // Our config, not one from DNS TXT records.
  args.SetInt(GRPC_ARG_SERVICE_CONFIG_DISABLE_RESOLUTION, 1);
  // The name is resolved again only when a connection ends (a server's maximum age, a
  // failure); gRPC's default spacing of those resolutions (30 s) would delay finding a new
  // replica well past the servers' maximum age.
  args.SetInt(GRPC_ARG_DNS_MIN_TIME_BETWEEN_RESOLUTIONS_MS, 1000);
  return grpc::CreateCustomChannel(BalancedTarget(target), grpc::InsecureChannelCredentials(),
                                   args);
}

}  // namespace tablero::service
