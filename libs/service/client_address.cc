#include "libs/service/client_address.h"

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"

ABSL_FLAG(int, trusted_proxy_hops, 0,
          "proxies of ours in front of this service that append the client address to "
          "x-forwarded-for (1 behind one Envoy with use_remote_address); 0 trusts none and "
          "uses the connection's peer");

namespace tablero::service {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = absl::ascii_tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// gRPC percent-encodes some characters of a peer URI (ipv6 "[%5B::1%5D]" forms).
std::string Unescape(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    int hi, lo;
    if (s[i] == '%' && i + 2 < s.size() && (hi = HexDigit(s[i + 1])) >= 0 &&
        (lo = HexDigit(s[i + 2])) >= 0) {
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace

std::string PeerHost(absl::string_view peer) {
  std::string p = Unescape(peer);
  absl::string_view v = p;
  if (absl::ConsumePrefix(&v, "ipv4:")) {
    size_t colon = v.rfind(':');
    return std::string(colon == absl::string_view::npos ? v : v.substr(0, colon));
  }
  if (absl::ConsumePrefix(&v, "ipv6:")) {
    if (absl::ConsumePrefix(&v, "[")) {
      size_t close = v.find(']');
      return std::string(close == absl::string_view::npos ? v : v.substr(0, close));
    }
    return std::string(v);
  }
  return p;
}

std::string ClientAddressFrom(absl::string_view peer,
                              const std::vector<absl::string_view>& forwarded_for, int hops) {
  if (hops > 0) {
    std::vector<absl::string_view> entries;
    for (absl::string_view value : forwarded_for) {
      for (absl::string_view e : absl::StrSplit(value, ',')) {
        entries.push_back(absl::StripAsciiWhitespace(e));
      }
    }
    if (entries.size() >= static_cast<size_t>(hops)) {
      absl::string_view e = entries[entries.size() - static_cast<size_t>(hops)];
      if (!e.empty()) return std::string(e);
    }
  }
  return PeerHost(peer);
}

std::string ClientAddress(const grpc::ServerContextBase& ctx) {
  std::vector<absl::string_view> xff;
  int hops = absl::GetFlag(FLAGS_trusted_proxy_hops);
  if (hops > 0) {
    auto range = ctx.client_metadata().equal_range("x-forwarded-for");
    for (auto it = range.first; it != range.second; ++it) {
      xff.emplace_back(it->second.data(), it->second.size());
    }
  }
  return ClientAddressFrom(ctx.peer(), xff, hops);
}

}  // namespace tablero::service
