// The transport floor of the rules benchmark: a server that answers tablero.v1.Rules'
// Ping and ApplyMove exactly as the rules service does over the wire (same libs/service
// server, same callback API, ApplyMove a raw method), but without the game work: each
// ApplyMove answer is the one recorded for its request bytes (rules_load
// --save_traffic), found by a hash lookup. Driving it with rules_load --load_traffic
// shows what the empty-RPC ratio of apply-move would be if decoding, playing, encoding
// and the view cost nothing: the share of the gap that is moving the bytes.
// See rules_floor.sh and README.md.
#include <grpcpp/grpcpp.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/flags/flag.h"
#include "benchmarks/rules/traffic_file.h"
#include "libs/service/config.h"
#include "libs/service/server.h"
#include "tablero/v1/rules.grpc.pb.h"

ABSL_FLAG(std::string, traffic, "", "file written by rules_load --save_traffic");
ABSL_FLAG(int, spin_ns, 0,
          "busy-wait this long (thread CPU time) in each ApplyMove before answering: a "
          "handler of that cost whose code and data stay hot");

namespace {

using Answers = absl::flat_hash_map<std::string, std::string>;

bool Load(const std::string& path, Answers* out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::string name, count, req, answer;
  while (tablero::bench::GetString(f, &name) && tablero::bench::GetString(f, &count)) {
    for (unsigned long i = 0, n = std::stoul(count); i < n; ++i) {
      if (!tablero::bench::GetString(f, &req) || !tablero::bench::GetString(f, &answer))
        return std::fclose(f), false;
      (*out)[req] = answer;
    }
  }
  std::fclose(f);
  return !out->empty();
}

class Replay final : public tablero::v1::Rules::WithRawCallbackMethod_ApplyMove<
                         tablero::v1::Rules::CallbackService> {
 public:
  explicit Replay(const Answers* answers)
      : answers_(answers), spin_ns_(absl::GetFlag(FLAGS_spin_ns)) {}

  grpc::ServerUnaryReactor* Ping(grpc::CallbackServerContext* ctx,
                                 const tablero::v1::RulesPingRequest*,
                                 tablero::v1::RulesPingResponse*) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  grpc::ServerUnaryReactor* ApplyMove(grpc::CallbackServerContext* ctx,
                                      const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    thread_local std::string flat;
    flat.clear();
    std::vector<grpc::Slice> slices;
    grpc::Status s = request->Dump(&slices);
    for (const grpc::Slice& sl : slices) {
      flat.append(reinterpret_cast<const char*>(sl.begin()), sl.size());
    }
    auto it = answers_->find(flat);
    if (spin_ns_ > 0) Spin(spin_ns_);
    if (s.ok() && it == answers_->end()) {
      s = grpc::Status(grpc::StatusCode::NOT_FOUND, "request not in the recorded traffic");
    }
    if (s.ok()) {
      grpc::Slice slice(it->second.data(), it->second.size());
      *response = grpc::ByteBuffer(&slice, 1);
    }
    reactor->Finish(s);
    return reactor;
  }

 private:
  static int64_t Now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
  }
  static void Spin(int64_t ns) {
    for (const int64_t end = Now() + ns; Now() < end;) {
    }
  }
  const Answers* answers_;
  const int64_t spin_ns_;
};

}  // namespace

int main(int argc, char** argv) {
  tablero::service::ParseConfig(argc, argv, "rules_replay",
                                "rules_replay: the rules benchmark's transport floor");
  Answers answers;
  if (!Load(absl::GetFlag(FLAGS_traffic), &answers)) {
    std::fprintf(stderr, "rules_replay: no traffic in --traffic\n");
    return 2;
  }
  tablero::service::Server server("rules_replay");
  Replay replay(&answers);
  server.AddService(&replay, "tablero.v1.Rules");
  if (!server.Start().ok()) return 1;
  server.SetReady(true);
  return server.Wait();
}
