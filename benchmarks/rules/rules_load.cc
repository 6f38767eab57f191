// Load generator for the rules service (see rules_load.sh and README.md).
//
// 1. Records real traffic: plays --games random games of each kind through the service
//    (NewGame, LegalMoves, ApplyMove) and keeps every (state, move) pair it sent.
// 2. Measures, on the same server and with the same client machinery, alternately:
//    the empty RPC (Rules.Ping) as the baseline, and ApplyMove replaying the recorded pairs
//    (all kinds mixed, then each kind alone). Many calls stay in flight (async API, one
//    completion queue and channel per client thread).
// Prints calls per second, p50/p99/max latency, CPU per call, each rate's ratio to the
// baseline, and the handler's own CPU cost per call measured in-process (no gRPC).
#include <google/protobuf/arena.h>
#include <grpcpp/generic/generic_stub.h>
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
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "benchmarks/rules/traffic_file.h"
#include "libs/games/kinds.h"
#include "services/rules/rules_service.h"
#include "tablero/v1/rules.grpc.pb.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "rules service address");
ABSL_FLAG(double, seconds, 5, "measured seconds per phase");
ABSL_FLAG(double, warmup, 0.5, "seconds run before each measured phase");
ABSL_FLAG(int, rounds, 1,
          "mixed apply-move phases, each between two baseline phases; the median ratio is "
          "the result");
ABSL_FLAG(int, inflight, 32, "calls kept in flight (over all client threads)");
ABSL_FLAG(int, threads, 2, "client threads (each its own channel and completion queue)");
ABSL_FLAG(int, games, 12, "random games recorded per kind");
ABSL_FLAG(int, max_plies, 160, "plies per recorded game at most");
ABSL_FLAG(std::string, kinds, "chess,shogi4,checkers", "game kinds to drive");
ABSL_FLAG(uint32_t, seed, 1, "random seed of the recorded games");
ABSL_FLAG(bool, handler_cost, true,
          "also time the ApplyMove handler in-process (no gRPC) on the recorded requests");
ABSL_FLAG(int, parse_every, 64,
          "fully parse every Nth answer and compare it with the answer recorded for its "
          "request (1: every answer); every call's status and answer size are always checked");
ABSL_FLAG(std::string, phases, "all",
          "all, or only one load: \"ping\" or \"mixed\" (for profiling the server), or \"none\" "
          "(record only)");
ABSL_FLAG(std::string, save_traffic, "",
          "after recording, write the recorded (request, answer) pairs to this file (for "
          "rules_replay, the transport floor; see rules_floor.sh)");
ABSL_FLAG(std::string, load_traffic, "",
          "replay the pairs of this file (from --save_traffic) instead of recording games");
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
            std::vector<v1::ApplyMoveRequest>* out, std::vector<std::string>* answers) {
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
      answers->push_back(aresp.SerializeAsString());
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
  uint64_t calls = 0, errors = 0, parsed = 0;
  uint64_t all_calls = 0;                 // warmup included, for CPU per call
  double client_cpu = 0, server_cpu = 0;  // seconds over the whole phase
  std::vector<uint32_t> micros;           // latency of every measured call
  double rate() const { return calls / seconds; }
  double Quantile(double q) const {
    if (micros.empty()) return 0;
    return micros[std::min(micros.size() - 1, static_cast<size_t>(q * micros.size()))] / 1000.0;
  }
};

// Adds s's calls and latencies to *all (sort all->micros after the last).
void Merge(const Stats& s, Stats* all) {
  all->all_calls += s.all_calls;
  all->calls += s.calls;
  all->errors += s.errors;
  all->parsed += s.parsed;
  all->micros.insert(all->micros.end(), s.micros.begin(), s.micros.end());
}

// The phases as one: their seconds summed, calls and latencies merged.
Stats Pooled(const std::vector<Stats>& runs) {
  Stats all;
  for (const Stats& s : runs) {
    all.seconds += s.seconds;
    Merge(s, &all);
  }
  std::sort(all.micros.begin(), all.micros.end());
  return all;
}

// One kind of call, kept `inflight` deep per thread for warmup + seconds. Both loads (the
// empty RPC and ApplyMove) go through the same generic stub with requests serialized once
// before the run, so that the client's own cost per call is alike for both and what
// differs is the server's work and the bytes moved. Every call's status and answer size
// are checked; every `parse_every`-th answer is parsed into its message (on an arena, as a
// careful client does) and compared with the answer recorded for its request.
class Load {
 public:
  using Parse = bool (*)(const grpc::ByteBuffer& answer, const std::string& recorded);
  Load(std::string method, const std::vector<std::string>& requests,
       const std::vector<std::string>& answers, Parse parse, int parse_every)
      : method_(std::move(method)), answers_(&answers), parse_(parse), parse_every_(parse_every) {
    for (const std::string& r : requests) {
      grpc::Slice slice(r);
      requests_.emplace_back(&slice, 1);
    }
  }

  // Starts call number `n` on `cq` and returns its tag.
  void* Start(grpc::GenericStub* stub, grpc::CompletionQueue* cq, uint64_t n) {
    auto* c = new Call;
    c->index = n % requests_.size();
    c->parse = parse_every_ > 0 && n % parse_every_ == 0;
    c->started = Clock::now();
    c->ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    c->rpc = stub->PrepareUnaryCall(&c->ctx, method_, requests_[c->index], cq);
    c->rpc->StartCall();
    c->rpc->Finish(&c->resp, &c->status, c);
    return c;
  }
  // Finishes the call of `tag`; true when it succeeded and its answer checked out.
  bool Finish(void* tag, uint64_t* parsed) {
    std::unique_ptr<Call> c(static_cast<Call*>(tag));
    const std::string& recorded = (*answers_)[c->index];
    if (!c->status.ok()) return Fail(absl::StrCat("call failed: ", c->status.error_message()));
    if (c->resp.Length() != recorded.size()) {
      return Fail(
          absl::StrCat("answer of ", c->resp.Length(), " bytes, recorded ", recorded.size()));
    }
    if (c->parse) {
      ++*parsed;
      if (!parse_(c->resp, recorded)) return Fail("answer differs from the one recorded");
    }
    return true;
  }
  static Clock::time_point Started(void* tag) { return static_cast<Call*>(tag)->started; }

  // Parses `answer` as a Resp and compares it, field by field through its canonical
  // serialization, with the recorded answer.
  template <typename Resp>
  static bool ParseAs(const grpc::ByteBuffer& answer, const std::string& recorded) {
    alignas(16) char block[8192];
    google::protobuf::ArenaOptions o;
    o.initial_block = block;
    o.initial_block_size = sizeof block;
    google::protobuf::Arena arena(o);
    Resp* resp = google::protobuf::Arena::CreateMessage<Resp>(&arena);
    std::vector<grpc::Slice> slices;
    if (!answer.Dump(&slices).ok()) return false;
    std::string flat;
    for (const grpc::Slice& s : slices) {
      flat.append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
    return resp->ParseFromString(flat) && resp->SerializeAsString() == recorded;
  }

 private:
  bool Fail(const std::string& why) {
    if (errors_shown_.fetch_add(1) < 3) std::fprintf(stderr, "rules_load: %s\n", why.c_str());
    return false;
  }
  struct Call {
    grpc::ClientContext ctx;
    grpc::Status status;
    grpc::ByteBuffer resp;
    std::unique_ptr<grpc::GenericClientAsyncResponseReader> rpc;
    Clock::time_point started;
    size_t index = 0;
    bool parse = false;
  };
  std::string method_;
  std::vector<grpc::ByteBuffer> requests_;
  const std::vector<std::string>* answers_;
  Parse parse_;
  int parse_every_;
  std::atomic<int> errors_shown_{0};
};

Stats Run(Load& load, const std::vector<std::unique_ptr<grpc::GenericStub>>& stubs, int inflight,
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
        const bool good = load.Finish(tag, &st.parsed);
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
  for (const Stats& s : per) Merge(s, &all);
  std::sort(all.micros.begin(), all.micros.end());
  return all;
}

double ThreadCpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// The service's own work without gRPC: the same requests through an in-process
// RulesService (request parse, handler, answer written as wire bytes), one thread, in
// game order so that the decoded-state cache behaves as in the server. The bytes go
// through RulesService::ApplyMoveBytes, as in the server (services/rules/callback_service.h).
// CPU microseconds per call.
void HandlerCost(const std::string& name, const std::vector<v1::ApplyMoveRequest>& reqs,
                 size_t cache_entries) {
  tablero::rules::RulesService svc(cache_entries);
  std::vector<std::string> in;
  for (const v1::ApplyMoveRequest& req : reqs) in.push_back(req.SerializeAsString());
  std::string wire;
  uint64_t failed = 0, in_bytes = 0, out_bytes = 0;
  const double t0 = ThreadCpu();
  for (const std::string& bytes : in) {
    grpc::ServerContext ctx;
    wire.clear();
    failed += !svc.ApplyMoveBytes(&ctx, bytes, &wire).ok();
    in_bytes += bytes.size();
    out_bytes += wire.size();
  }
  const double us = 1e6 * (ThreadCpu() - t0) / reqs.size();
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
  std::printf("  parsed %llu", static_cast<unsigned long long>(s.parsed));
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

  // A channel per client thread: the recording uses the typed stub of the first, the
  // measured phases a generic stub on each.
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<grpc::GenericStub>> stubs;
  for (int t = 0; t < threads; ++t) {
    channels.push_back(Channel(target, t));
    stubs.push_back(std::make_unique<grpc::GenericStub>(channels.back()));
  }
  auto record_stub = v1::Rules::NewStub(channels[0]);

  // 1. Record real traffic, kind by kind: each request with the answer it got.
  struct Traffic {
    std::string name;
    std::vector<v1::ApplyMoveRequest> reqs;
    std::vector<std::string> wire, answers;  // serialized requests, recorded answers
  };
  std::mt19937 rng(absl::GetFlag(FLAGS_seed));
  std::vector<Traffic> by_kind;
  Traffic mixed{"mixed", {}, {}, {}};
  const std::string load_path = absl::GetFlag(FLAGS_load_traffic);
  if (!load_path.empty()) {
    std::FILE* f = std::fopen(load_path.c_str(), "rb");
    if (f == nullptr) {
      std::fprintf(stderr, "rules_load: cannot read %s\n", load_path.c_str());
      return 2;
    }
    std::string name, count;
    while (tablero::bench::GetString(f, &name) && tablero::bench::GetString(f, &count)) {
      Traffic t{name, {}, {}, {}};
      t.wire.resize(std::stoul(count));
      t.answers.resize(t.wire.size());
      for (size_t i = 0; i < t.wire.size(); ++i) {
        if (!tablero::bench::GetString(f, &t.wire[i]) ||
            !tablero::bench::GetString(f, &t.answers[i]))
          return 2;
        t.reqs.emplace_back();
        if (!t.reqs.back().ParseFromString(t.wire[i])) return 2;
      }
      std::printf("loaded %-8s %6zu (request, answer) pairs\n", t.name.c_str(), t.wire.size());
      by_kind.push_back(std::move(t));
    }
    std::fclose(f);
  }
  for (absl::string_view name : absl::StrSplit(absl::GetFlag(FLAGS_kinds), ',')) {
    if (!load_path.empty()) break;
    const auto kind = tablero::games::ProtoKindNamed(name);
    if (!kind) {
      std::fprintf(stderr, "rules_load: unknown kind \"%s\"\n", std::string(name).c_str());
      return 2;
    }
    Traffic t{std::string(name), {}, {}, {}};
    if (!Record(record_stub.get(), *kind, absl::GetFlag(FLAGS_games),
                absl::GetFlag(FLAGS_max_plies), &rng, &t.reqs, &t.answers)) {
      return 1;
    }
    size_t bytes = 0, request_bytes = 0, answer_bytes = 0;
    for (const auto& r : t.reqs) {
      bytes += r.state().size();
      t.wire.push_back(r.SerializeAsString());
      request_bytes += t.wire.back().size();
    }
    for (const std::string& a : t.answers) answer_bytes += a.size();
    // The bytes moved weigh on both sides (benchmarks/rules/rules_answer_bytes.py splits them).
    const size_t n = std::max<size_t>(1, t.reqs.size());
    std::printf(
        "recorded %-8s %6zu (state, move) pairs, mean state %zu bytes, request %zu, answer %zu\n",
        t.name.c_str(), t.reqs.size(), bytes / n, request_bytes / n, answer_bytes / n);
    by_kind.push_back(std::move(t));
  }
  if (const std::string save = absl::GetFlag(FLAGS_save_traffic); !save.empty()) {
    std::FILE* f = std::fopen(save.c_str(), "wb");
    if (f == nullptr) return 2;
    for (const Traffic& t : by_kind) {
      tablero::bench::PutString(f, t.name);
      tablero::bench::PutString(f, std::to_string(t.wire.size()));
      for (size_t i = 0; i < t.wire.size(); ++i) {
        tablero::bench::PutString(f, t.wire[i]);
        tablero::bench::PutString(f, t.answers[i]);
      }
    }
    if (std::fclose(f) != 0) return 2;
  }
  // Mixed traffic: the kinds interleaved.
  for (size_t i = 0;; ++i) {
    bool any = false;
    for (const Traffic& t : by_kind) {
      if (i < t.reqs.size()) {
        mixed.wire.push_back(t.wire[i]);
        mixed.answers.push_back(t.answers[i]);
        any = true;
      }
    }
    if (!any) break;
  }
  if (mixed.wire.empty()) return 1;

  // 2. Baseline and apply-move, alternating so that drift hits both alike.
  const int parse_every = absl::GetFlag(FLAGS_parse_every);
  const std::string phases = absl::GetFlag(FLAGS_phases);
  std::printf(
      "target %s, %d client threads, %d calls in flight, %.1f s per phase, every %d%s answer "
      "parsed and compared\n",
      target.c_str(), threads, inflight, seconds, parse_every, parse_every == 1 ? "st" : "th");
  const std::vector<std::string> pings(1), ping_answers(1);  // both empty messages
  Load ping("/tablero.v1.Rules/Ping", pings, ping_answers, &Load::ParseAs<v1::RulesPingResponse>,
            parse_every);
  Load apply_mixed("/tablero.v1.Rules/ApplyMove", mixed.wire, mixed.answers,
                   &Load::ParseAs<v1::ApplyMoveResponse>, parse_every);
  if (phases == "none") return 0;  // recorded (and saved) only
  if (phases == "ping" || phases == "mixed") {
    Stats s = Run(phases == "ping" ? ping : apply_mixed, stubs, inflight, warmup, seconds);
    Print(phases, s, 0);
    return s.errors == 0 ? 0 : 1;
  }
  // Rounds of (mixed, ping) after a first ping: each mixed phase is compared with the mean
  // of the pings either side of it, and the round with the median ratio is the result.
  const int rounds = std::max(1, absl::GetFlag(FLAGS_rounds));
  std::vector<Stats> base_runs{Run(ping, stubs, inflight, warmup, seconds)}, mixes;
  for (int r = 0; r < rounds; ++r) {
    mixes.push_back(Run(apply_mixed, stubs, inflight, warmup, seconds));
    base_runs.push_back(Run(ping, stubs, inflight, warmup, seconds));
  }
  uint64_t errors = 0;
  std::vector<std::pair<double, int>> ratios;  // (ratio, round)
  for (int r = 0; r < rounds; ++r) {
    const double base = (base_runs[r].rate() + base_runs[r + 1].rate()) / 2;
    if (r == 0) Print("ping (baseline) #1", base_runs[0], 0);
    Print(rounds == 1 ? "apply_move mixed" : absl::StrCat("apply_move mixed #", r + 1), mixes[r],
          base);
    Print(absl::StrCat("ping (baseline) #", r + 2), base_runs[r + 1], 0);
    ratios.emplace_back(mixes[r].rate() / base, r);
    errors += base_runs[r + 1].errors + mixes[r].errors;
  }
  errors += base_runs[0].errors;
  std::sort(ratios.begin(), ratios.end());
  const int median = ratios[ratios.size() / 2].second;
  const Stats& mix = mixes[median];
  const double baseline = (base_runs[median].rate() + base_runs[median + 1].rate()) / 2;
  if (rounds > 1) {
    std::vector<double> p99s;
    for (const Stats& m : mixes) p99s.push_back(m.Quantile(0.99));
    std::sort(p99s.begin(), p99s.end());
    std::printf(
        "median of %d rounds: ratio %.1f%% (round %d; lowest %.1f%%, highest %.1f%%), "
        "apply p99 median %.3f ms (%.3f-%.3f)\n",
        rounds, 100 * ratios[ratios.size() / 2].first, median + 1, 100 * ratios.front().first,
        100 * ratios.back().first, p99s[p99s.size() / 2], p99s.front(), p99s.back());
    // Pooled: every phase of each load as one long phase. With short phases (SECONDS_EACH of
    // a fraction of a second, many rounds) the two loads see the same machine, as closely
    // interleaved as draining the calls in flight allows.
    const Stats all_mix = Pooled(mixes), all_base = Pooled(base_runs);
    std::printf(
        "pooled over %d rounds: apply %.0f calls/s, baseline %.0f calls/s, ratio %.1f%%, "
        "apply p50 %.3f ms p99 %.3f ms, baseline p99 %.3f ms\n",
        rounds, all_mix.rate(), all_base.rate(), 100 * all_mix.rate() / all_base.rate(),
        all_mix.Quantile(0.5), all_mix.Quantile(0.99), all_base.Quantile(0.99));
  }
  for (const Traffic& t : by_kind) {
    Load one("/tablero.v1.Rules/ApplyMove", t.wire, t.answers,
             &Load::ParseAs<v1::ApplyMoveResponse>, parse_every);
    Stats s = Run(one, stubs, inflight, warmup, seconds);
    Print("apply_move " + t.name, s, baseline);
    errors += s.errors;
  }
  if (absl::GetFlag(FLAGS_handler_cost)) {
    for (const Traffic& t : by_kind) {
      HandlerCost(t.name, t.reqs, 4096);
      HandlerCost(t.name, t.reqs, 0);
    }
  }
  std::printf(
      "baseline_calls_per_sec=%.0f\napply_mixed_calls_per_sec=%.0f\nratio=%.3f\n"
      "apply_mixed_p99_ms=%.3f\n",
      baseline, mix.rate(), mix.rate() / baseline, mix.Quantile(0.99));
  return errors == 0 ? 0 : 1;
}
