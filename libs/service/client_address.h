// The real client address of a call, for limits keyed by address. Behind Envoy every call
// comes from Envoy's address; Envoy (use_remote_address: true) appends the address it saw
// to `x-forwarded-for`, so with --trusted_proxy_hops=N (the number of proxies of ours in
// front of the service, 1 behind one Envoy) the client is the N-th entry from the right.
// Entries further left were written by the client and are never trusted.
#ifndef TABLERO_LIBS_SERVICE_CLIENT_ADDRESS_H_
#define TABLERO_LIBS_SERVICE_CLIENT_ADDRESS_H_

#include <grpcpp/server_context.h>

#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/strings/string_view.h"

ABSL_DECLARE_FLAG(int, trusted_proxy_hops);  // proxies of ours in front of the service

namespace tablero::service {

// The client's IP address without a port: from `x-forwarded-for` when
// --trusted_proxy_hops > 0 and the header has that many entries, else the gRPC peer.
std::string ClientAddress(const grpc::ServerContextBase& ctx);

// The pure part. `peer` is gRPC's form ("ipv4:10.0.0.1:5000", "ipv6:[::1]:5000",
// "unix:/path"); `forwarded_for` holds each `x-forwarded-for` value in arrival order
// (comma-separated lists, joined as one list); `hops` is --trusted_proxy_hops.
std::string ClientAddressFrom(absl::string_view peer,
                              const std::vector<absl::string_view>& forwarded_for, int hops);

// "ipv4:10.0.0.1:5000" -> "10.0.0.1", "ipv6:[::1]:5000" -> "::1"; other forms unchanged
// (percent-escapes in a peer are decoded).
std::string PeerHost(absl::string_view peer);

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_CLIENT_ADDRESS_H_
