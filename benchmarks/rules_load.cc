// Load generator for the rules service (see rules_load.sh and README-rules.md).
//
// 1. Records real traffic: plays --games random games of each kind through the service
//    (NewGame, LegalMoves, ApplyMove) and keeps every (state, move) pair it sent.
// 2. Measures, on the same server and with the same client machinery, alternately:
//    the empty RPC (Rules.Ping) as the baseline, and ApplyMove replaying the recorded pairs
//    (all kinds mixed, then each kind alone). Many calls stay in flight (async API, one
//    completion queue and channel per client thread).
// Prints calls per second, p50/p99/max latency, CPU per call, each rate's ratio to the
// baseline, and the handler's own CPU cost per call measured in-process (no gRPC).
#include <grpcpp/grpcpp.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "services/rules/rules_service.h"
#include "tablero/v1/rules.grpc.pb.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "rules service address");
ABSL_FLAG(double, seconds, 5, "measured seconds per phase");
ABSL_FLAG(double, warmup, 0.5, "seconds run before each measured phase");
ABSL_FLAG(int, inflight, 32, "calls kept in flight (over all client threads)");
ABSL_FLAG(int, threads, 2, "client threads (each its own channel and completion queue)");
ABSL_FLAG(int, games, 12, "random games recorded per kind");
ABSL_FLAG(int, max_plies, 160, "plies per recorded game at most");
ABSL_FLAG(std::string, kinds, "chess,shogi4,checkers", "game kinds to drive");
ABSL_FLAG(uint32_t, seed, 1, "random seed of the recorded games");
ABSL_FLAG(bool, handler_cost, true,
          "also time the ApplyMove handler in-process (no gRPC) on the recorded requests");
ABSL_FLAG(int, server_pid, 0,
          "pid of the rules process, when on this machine: CPU time per call is reported");

namespace v1 = tablero::v1;
using Clock = std::chrono::steady_clock;

namespace {

std::shared_ptr<grpc::Channel> Channel(const std::string& target, int index) {
  grpc::ChannelArguments args;
  args.SetInt("tablero.bench_channel", index);  // distinct args: a connection per thread
  args.SetMaxReceiveMessageSize(16 << 20);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

bool Check(const grpc::Status& s, const char* what) {
  if (s.ok()) return true;
  std::fprintf(stderr, "rules_load: %s failed: %s\n", what, s.error_message().c_str());
  return false;
}

// Plays random games through the service; every ApplyMove request sent is recorded.
bool Record(v1::Rules::Stub* stub, v1::GameKind kind, int games, int max_plies, std::mt19937* rng,
            std::vector<v1::ApplyMoveRequest>* out) {
  for (int g = 0; g < games; ++g) {
    v1::NewGameRequest nreq;
    nreq.set_kind(kind);
    if (kind == v1::GAME_KIND_CHECKERS) nreq.set_seats(2 + static_cast<int>((*rng)() % 5));
    v1::NewGameResponse nresp;
    grpc::ClientContext nctx;
    if (!Check(stub->NewGame(&nctx, nreq, &nresp), "NewGame")) return false;
    std::string state = nresp.state();
    for (int ply = 0; ply < max_plies; ++ply) {
      v1::LegalMovesRequest lreq;
      lreq.set_kind(kind);
      lreq.set_state(state);
      v1::LegalMovesResponse lresp;
      grpc::ClientContext lctx;
      if (!Check(stub->LegalMoves(&lctx, lreq, &lresp), "LegalMoves")) return false;
      if (lresp.moves_size() == 0) break;
      v1::ApplyMoveRequest areq;
      areq.set_kind(kind);
      areq.set_state(state);
      const v1::Move& m = lresp.moves((*rng)() % lresp.moves_size());
      // Clients send what players type: SAN for chess, the canonical text otherwise.
      areq.set_move_text(kind == v1::GAME_KIND_CHESS ? m.display() : m.notation());
      areq.mutable_expected_ply()->set_value(lresp.ply());
      v1::ApplyMoveResponse aresp;
      grpc::ClientContext actx;
      if (!Check(stub->ApplyMove(&actx, areq, &aresp), "ApplyMove")) return false;
      out->push_back(std::move(areq));
      if (aresp.result().over()) break;
      state = aresp.state();
    }
  }
  return true;
}

// CPU seconds used so far by this process, and by `pid` if it is not 0 (from /proc).
double SelfCpu() {
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}
double ProcCpu(int pid) {
  if (pid <= 0) return 0;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::vector<std::string> f = absl::StrSplit(text.substr(paren + 2), ' ');
  if (f.size() < 13) return 0;
  // Fields 14 and 15 of the file (utime, stime), counted from the state field (3).
  return (std::stod(f[11]) + std::stod(f[12])) / sysconf(_SC_CLK_TCK);
}

struct Stats {
  double seconds = 0;
  uint64_t calls = 0, errors = 0;
  uint64_t all_calls = 0;                 // warmup included, for CPU per call
  double client_cpu = 0, server_cpu = 0;  // seconds over the whole phase
  std::vector<uint32_t> micros;           // latency of every measured call
  double rate() const { return calls / seconds; }
  double Quantile(double q) const {
    if (micros.empty()) return 0;
    return micros[std::min(micros.size() - 1, static_cast<size_t>(q * micros.size()))] / 1000.0;
  }
};

// One kind of call, kept `inflight` deep per thread for warmup + seconds.
class Load {
 public:
  virtual ~Load() = default;
  // Starts one call on `cq` and returns its tag.
  virtual void* Start(v1::Rules::Stub* stub, grpc::CompletionQueue* cq, uint64_t n) = 0;
  // Finishes the call of `tag`; true when it succeeded.
  virtual bool Finish(void* tag) = 0;
  virtual Clock::time_point Started(void* tag) = 0;
};

template <typename Req, typename Resp>
class LoadOf : public Load {
 public:
  using Prepare = std::unique_ptr<grpc::ClientAsyncResponseReader<Resp>> (v1::Rules::Stub::*)(
      grpc::ClientContext*, const Req&, grpc::CompletionQueue*);
  LoadOf(Prepare prepare, const std::vector<Req>* requests)
      : prepare_(prepare), requests_(requests) {}

  void* Start(v1::Rules::Stub* stub, grpc::CompletionQueue* cq, uint64_t n) override {
    auto* c = new Call;
    c->started = Clock::now();
    c->ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    c->rpc = (stub->*prepare_)(&c->ctx, (*requests_)[n % requests_->size()], cq);
    c->rpc->StartCall();
    c->rpc->Finish(c->resp, &c->status, c);
    return c;
  }
  bool Finish(void* tag) override {
    std::unique_ptr<Call> c(static_cast<Call*>(tag));
    if (!c->status.ok() && errors_shown_.fetch_add(1) < 3) {
      std::fprintf(stderr, "rules_load: call failed: %s\n", c->status.error_message().c_str());
    }
    return c->status.ok();
  }
  Clock::time_point Started(void* tag) override { return static_cast<Call*>(tag)->started; }

 private:
  // The answer is parsed into an arena with an inline first block, as a careful client
  // does: one allocation per call instead of one per nested message and string.
  struct Call {
    Call() : arena(Options(block, sizeof block)), resp(Arena::CreateMessage<Resp>(&arena)) {}
    static google::protobuf::ArenaOptions Options(char* b, size_t n) {
      google::protobuf::ArenaOptions o;
      o.initial_block = b;
      o.initial_block_size = n;
      return o;
    }
    using Arena = google::protobuf::Arena;
    alignas(8) char block[8192];
    Arena arena;
    Resp* resp;
    grpc::ClientContext ctx;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<Resp>> rpc;
    Clock::time_point started;
  };
  Prepare prepare_;
  const std::vector<Req>* requests_;
  std::atomic<int> errors_shown_{0};
};

Stats Run(Load& load, const std::vector<std::unique_ptr<v1::Rules::Stub>>& stubs, int inflight,
          double warmup, double seconds) {
  const int threads = static_cast<int>(stubs.size());
  const int pid = absl::GetFlag(FLAGS_server_pid);
  const double client0 = SelfCpu(), server0 = ProcCpu(pid);
  const Clock::time_point t0 = Clock::now();
  const Clock::time_point measure =
      t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(warmup));
  const Clock::time_point end =
      measure + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<Stats> per(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      grpc::CompletionQueue cq;
      Stats& st = per[t];
      st.micros.reserve(1 << 20);
      uint64_t n = static_cast<uint64_t>(t) * 7919;  // threads replay different pairs
      const int depth = std::max(1, inflight / threads + (t < inflight % threads ? 1 : 0));
      int outstanding = 0;
      for (int i = 0; i < depth; ++i, ++outstanding) load.Start(stubs[t].get(), &cq, n++);
      void* tag;
      bool ok;
      while (outstanding > 0 && cq.Next(&tag, &ok)) {
        const Clock::time_point started = load.Started(tag);
        const Clock::time_point now = Clock::now();
        const bool good = load.Finish(tag);
        --outstanding;
        ++st.all_calls;
        if (started >= measure && now <= end) {
          ++st.calls;
          st.errors += !good;
          st.micros.push_back(static_cast<uint32_t>(
              std::chrono::duration_cast<std::chrono::microseconds>(now - started).count()));
        }
        if (now < end) {
          load.Start(stubs[t].get(), &cq, n++);
          ++outstanding;
        }
      }
      cq.Shutdown();
      while (cq.Next(&tag, &ok)) {
      }
    });
  }
  for (std::thread& th : pool) th.join();
  Stats all;
  all.seconds = seconds;
  all.client_cpu = SelfCpu() - client0;
  all.server_cpu = ProcCpu(pid) - server0;
  for (Stats& s : per) {
    all.all_calls += s.all_calls;
    all.calls += s.calls;
    all.errors += s.errors;
    all.micros.insert(all.micros.end(), s.micros.begin(), s.micros.end());
  }
  std::sort(all.micros.begin(), all.micros.end());
  return all;
}

double ThreadCpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// The service's own work without gRPC: the same requests through an in-process
// RulesService (handler + answer serialization), one thread, in game order so that the
// decoded-state cache behaves as in the server. CPU microseconds per call.
void HandlerCost(const std::string& name, const std::vector<v1::ApplyMoveRequest>& reqs,
                 size_t cache_entries) {
  prometheus::Registry registry;
  tablero::rules::RulesService svc(registry, cache_entries);
  std::string wire;
  uint64_t failed = 0, in_bytes = 0, out_bytes = 0;
  const double t0 = ThreadCpu();
  for (const v1::ApplyMoveRequest& req : reqs) {
    grpc::ServerContext ctx;
    v1::ApplyMoveResponse resp;
    failed += !svc.ApplyMove(&ctx, &req, &resp).ok();
    resp.SerializeToString(&wire);
    out_bytes += wire.size();
  }
  const double us = 1e6 * (ThreadCpu() - t0) / reqs.size();
  for (const v1::ApplyMoveRequest& req : reqs) in_bytes += req.ByteSizeLong();
  std::printf("handler only %-9s %7.1f us/call (cache %s), request %zu B, answer %zu B%s\n",
              name.c_str(), us, cache_entries ? "on" : "off",
              static_cast<size_t>(in_bytes / reqs.size()),
              static_cast<size_t>(out_bytes / reqs.size()), failed ? " FAILED CALLS" : "");
}

void Print(const std::string& name, const Stats& s, double baseline) {
  std::printf("%-22s %9.0f calls/s  p50 %6.3f ms  p99 %6.3f ms  max %7.3f ms  errors %llu",
              name.c_str(), s.rate(), s.Quantile(0.5), s.Quantile(0.99),
              s.micros.empty() ? 0.0 : s.micros.back() / 1000.0,
              static_cast<unsigned long long>(s.errors));
  if (baseline > 0) std::printf("  ratio %5.1f%%", 100 * s.rate() / baseline);
  if (s.all_calls > 0) {
    std::printf("  cpu/call client %5.1f us", 1e6 * s.client_cpu / s.all_calls);
    if (s.server_cpu > 0) std::printf(" server %5.1f us", 1e6 * s.server_cpu / s.all_calls);
  }
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  // As in the services (libs/service): Debian's Abseil checks every Mutex lock for
  // deadlock cycles by default, a cost a real client would not pay.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const std::string target = absl::GetFlag(FLAGS_target);
  const int threads = std::max(1, absl::GetFlag(FLAGS_threads));
  const int inflight = std::max(1, absl::GetFlag(FLAGS_inflight));
  const double seconds = absl::GetFlag(FLAGS_seconds), warmup = absl::GetFlag(FLAGS_warmup);

  std::vector<std::unique_ptr<v1::Rules::Stub>> stubs;
  for (int t = 0; t < threads; ++t) stubs.push_back(v1::Rules::NewStub(Channel(target, t)));

  // 1. Record real traffic, kind by kind.
  std::mt19937 rng(absl::GetFlag(FLAGS_seed));
  std::vector<std::pair<std::string, std::vector<v1::ApplyMoveRequest>>> by_kind;
  std::vector<v1::ApplyMoveRequest> mixed;
  for (absl::string_view name : absl::StrSplit(absl::GetFlag(FLAGS_kinds), ',')) {
    v1::GameKind kind;
    if (name == "chess") {
      kind = v1::GAME_KIND_CHESS;
    } else if (name == "shogi4") {
      kind = v1::GAME_KIND_SHOGI4;
    } else if (name == "checkers") {
      kind = v1::GAME_KIND_CHECKERS;
    } else {
      std::fprintf(stderr, "rules_load: unknown kind \"%s\"\n", std::string(name).c_str());
      return 2;
    }
    std::vector<v1::ApplyMoveRequest> reqs;
    if (!Record(stubs[0].get(), kind, absl::GetFlag(FLAGS_games), absl::GetFlag(FLAGS_max_plies),
                &rng, &reqs)) {
      return 1;
    }
    size_t bytes = 0;
    for (const auto& r : reqs) bytes += r.state().size();
    std::printf("recorded %-8s %6zu (state, move) pairs, mean state %zu bytes\n",
                std::string(name).c_str(), reqs.size(), reqs.empty() ? 0 : bytes / reqs.size());
    by_kind.emplace_back(std::string(name), std::move(reqs));
  }
  // Mixed traffic: the kinds interleaved.
  for (size_t i = 0;; ++i) {
    bool any = false;
    for (auto& [name, reqs] : by_kind) {
      if (i < reqs.size()) {
        mixed.push_back(reqs[i]);
        any = true;
      }
    }
    if (!any) break;
  }
  if (mixed.empty()) return 1;

  // 2. Baseline and apply-move, alternating so that drift hits both alike.
  std::printf("target %s, %d client threads, %d calls in flight, %.1f s per phase\n",
              target.c_str(), threads, inflight, seconds);
  const std::vector<v1::RulesPingRequest> pings(1);
  LoadOf<v1::RulesPingRequest, v1::RulesPingResponse> ping(&v1::Rules::Stub::PrepareAsyncPing,
                                                           &pings);
  LoadOf<v1::ApplyMoveRequest, v1::ApplyMoveResponse> apply_mixed(
      &v1::Rules::Stub::PrepareAsyncApplyMove, &mixed);
  Stats base1 = Run(ping, stubs, inflight, warmup, seconds);
  Stats mix = Run(apply_mixed, stubs, inflight, warmup, seconds);
  Stats base2 = Run(ping, stubs, inflight, warmup, seconds);
  const double baseline = (base1.rate() + base2.rate()) / 2;
  Print("ping (baseline) #1", base1, 0);
  Print("ping (baseline) #2", base2, 0);
  Print("apply_move mixed", mix, baseline);
  uint64_t errors = mix.errors;
  for (auto& [name, reqs] : by_kind) {
    LoadOf<v1::ApplyMoveRequest, v1::ApplyMoveResponse> one(&v1::Rules::Stub::PrepareAsyncApplyMove,
                                                            &reqs);
    Stats s = Run(one, stubs, inflight, warmup, seconds);
    Print("apply_move " + name, s, baseline);
    errors += s.errors;
  }
  if (absl::GetFlag(FLAGS_handler_cost)) {
    for (auto& [name, reqs] : by_kind) {
      HandlerCost(name, reqs, 4096);
      HandlerCost(name, reqs, 0);
    }
  }
  std::printf(
      "baseline_calls_per_sec=%.0f\napply_mixed_calls_per_sec=%.0f\nratio=%.3f\n"
      "apply_mixed_p99_ms=%.3f\n",
      baseline, mix.rate(), mix.rate() / baseline, mix.Quantile(0.99));
  return errors == 0 ? 0 : 1;
}
