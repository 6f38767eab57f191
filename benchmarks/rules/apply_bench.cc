// The ApplyMove handler's own cost, in-process (no gRPC, no server): records random games
// of every kind through RulesService, as rules_load does over the network (same seed, game
// count and move choice), then replays the recorded requests the way the server runs them
// (RulesService::ApplyMoveBytes, the fast path, into a reused answer), or with --path=plain
// the way a typed handler would (protobuf parses the request, ApplyMove, protobuf
// serializes the answer): what the fast path buys (services/rules/fast/fast_path.h).
// Prints CPU microseconds and heap allocations per call. Not a test: run it by hand, and
// under callgrind to count instructions per call of the replay alone, which does not
// depend on the load:
//   valgrind --tool=callgrind --collect-atstart=no rules_apply_bench --reps=2
// (the replay toggles collection on and off around itself; rules_handler_profile.sh).
#include <time.h>
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "libs/games/kinds.h"
#include "services/rules/rules_service.h"

ABSL_FLAG(std::string, kinds, "chess,shogi4,checkers", "game kinds, each replayed alone");
ABSL_FLAG(int, games, 12, "random games recorded per kind");
ABSL_FLAG(int, max_plies, 160, "plies per recorded game at most");
ABSL_FLAG(uint32_t, seed, 1, "random seed of the recorded games");
ABSL_FLAG(int, reps, 20, "times each kind's requests are replayed");
ABSL_FLAG(int, state_cache_entries, 16384,
          "slots of the decoded-state cache, as the server's flag (0: always decode)");
ABSL_FLAG(std::string, path, "fast",
          "fast: ApplyMoveBytes, as the server; plain: protobuf parse, ApplyMove, serialize");
ABSL_FLAG(int, pollute_kb, 0,
          "KiB of memory written between calls (not timed), to evict the data caches as "
          "gRPC's own work does between two calls on a server");

// Heap allocations by operator new, counted to print allocations per call: each is ~100
// instructions of malloc and free, and touches the allocator's cold lines in a server.
namespace {
uint64_t allocations = 0;
}  // namespace
void* operator new(size_t n) {
  ++allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace {

namespace v1 = tablero::v1;
using tablero::rules::RulesService;

double ThreadCpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// Random games as rules_load plays them: SAN for chess, the canonical text otherwise.
bool Record(RulesService& svc, v1::GameKind kind, std::mt19937& rng,
            std::vector<std::string>* out) {
  grpc::ServerContext ctx;
  for (int g = 0; g < absl::GetFlag(FLAGS_games); ++g) {
    v1::NewGameRequest nreq;
    nreq.set_kind(kind);
    if (kind == v1::GAME_KIND_CHECKERS) nreq.set_seats(2 + static_cast<int>(rng() % 5));
    v1::NewGameResponse nresp;
    if (!svc.NewGame(&ctx, &nreq, &nresp).ok()) return false;
    std::string state = nresp.state();
    for (int ply = 0; ply < absl::GetFlag(FLAGS_max_plies); ++ply) {
      v1::LegalMovesRequest lreq;
      lreq.set_kind(kind);
      lreq.set_state(state);
      v1::LegalMovesResponse lresp;
      if (!svc.LegalMoves(&ctx, &lreq, &lresp).ok()) return false;
      if (lresp.moves_size() == 0) break;
      v1::ApplyMoveRequest areq;
      areq.set_kind(kind);
      areq.set_state(state);
      const v1::Move& m = lresp.moves(rng() % lresp.moves_size());
      areq.set_move_text(kind == v1::GAME_KIND_CHESS ? m.display() : m.notation());
      areq.mutable_expected_ply()->set_value(lresp.ply());
      v1::ApplyMoveResponse aresp;
      if (!svc.ApplyMove(&ctx, &areq, &aresp).ok()) return false;
      out->push_back(areq.SerializeAsString());
      if (aresp.result().over()) break;
      state = aresp.state();
    }
  }
  return true;
}

// What the server does per call (callback_service.h), minus gRPC (the request is one
// slice there too): failed calls.
__attribute__((noinline)) int Replay(RulesService& svc, const std::vector<std::string>& reqs,
                                     int reps, size_t* answer_bytes, double* cpu) {
  static std::string answer;
  grpc::ServerContext ctx;
  int failed = 0;
  static std::vector<char> junk(static_cast<size_t>(absl::GetFlag(FLAGS_pollute_kb)) << 10);
  const bool plain = absl::GetFlag(FLAGS_path) == "plain";
  CALLGRIND_TOGGLE_COLLECT;
  for (int r = 0; r < reps; ++r) {
    for (const std::string& bytes : reqs) {
      if (!junk.empty()) {
        *cpu -= ThreadCpu();
        for (size_t i = 0; i < junk.size(); i += 64) junk[i] = static_cast<char>(junk[i] + 1);
        *cpu += ThreadCpu();
      }
      answer.clear();
      if (plain) {
        v1::ApplyMoveRequest req;
        v1::ApplyMoveResponse resp;
        failed += !req.ParseFromString(bytes) || !svc.ApplyMove(&ctx, &req, &resp).ok() ||
                  !resp.AppendToString(&answer);
      } else {
        failed += !svc.ApplyMoveBytes(&ctx, bytes, &answer).ok();
      }
      *answer_bytes += answer.size();
    }
  }
  CALLGRIND_TOGGLE_COLLECT;
  return failed;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  RulesService svc(static_cast<size_t>(absl::GetFlag(FLAGS_state_cache_entries)));
  std::mt19937 rng(absl::GetFlag(FLAGS_seed));
  const int reps = absl::GetFlag(FLAGS_reps);
  for (absl::string_view name : absl::StrSplit(absl::GetFlag(FLAGS_kinds), ',')) {
    const auto kind = tablero::games::ProtoKindNamed(name);
    if (!kind) {
      std::fprintf(stderr, "rules_apply_bench: unknown kind \"%s\"\n", std::string(name).c_str());
      return 2;
    }
    std::vector<std::string> reqs;
    if (!Record(svc, *kind, rng, &reqs) || reqs.empty()) {
      std::fprintf(stderr, "rules_apply_bench: recording %s failed\n", std::string(name).c_str());
      return 1;
    }
    size_t answer_bytes = 0;
    const uint64_t allocations_before = allocations;
    double cpu = -ThreadCpu();
    const int failed = Replay(svc, reqs, reps, &answer_bytes, &cpu);
    cpu += ThreadCpu();
    const double calls = static_cast<double>(reqs.size()) * reps;
    const double allocs = static_cast<double>(allocations - allocations_before) / calls;
    std::printf("%-9s %6zu requests x %d: %6.2f us/call, %5.1f allocations/call, answer %zu B%s\n",
                std::string(name).c_str(), reqs.size(), reps, 1e6 * cpu / calls, allocs,
                static_cast<size_t>(answer_bytes / calls), failed ? "  FAILED CALLS" : "");
  }
  return 0;
}
