// Bot service on time under load: N games think at once through the real bot service over
// gRPC, each a client thread that asks for a move (ChooseMove with a fixed budget), plays it
// locally and asks again. For each concurrency in --concurrency (e.g. 1 as the same-run
// baseline, then 8) it prints the client-side time per call (request sent to answer
// received) as p50/p99/max against the budget, how many calls took longer than budget +
// --slack_ms, and the nodes searched per call (how much of its strength a level kept).
// See bot_load.sh and benchmarks/bot/README.md.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "libs/games/games.h"
#include "libs/games/kinds.h"
#include "tablero/v1/bot.grpc.pb.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50054", "bot service address");
ABSL_FLAG(std::string, concurrency, "1,8", "games thinking at once, one phase per value");
ABSL_FLAG(std::string, games, "chess,shogi4,checkers",
          "game kinds, given to the concurrent games in turn");
ABSL_FLAG(int, level, 10, "bot level asked for");
ABSL_FLAG(int, budget_ms, 100, "thinking budget per move sent in each request");
ABSL_FLAG(int, slack_ms, 20, "a call is late when it takes longer than budget + this");
ABSL_FLAG(int, calls, 40, "calls per concurrent game in each phase");
ABSL_FLAG(bool, seeded, false,
          "send a seed (node-bounded searches at every level) instead of 0 (level 10 by the "
          "clock)");
ABSL_FLAG(uint64_t, seed, 1, "seed for the openings");

namespace {

struct Sample {
  double ms;  // client-side, request sent to answer received
  int server_ms;
  uint64_t nodes;
};

std::unique_ptr<tablero::game::Game> Fresh(tablero::game::Kind kind, std::mt19937_64& rng) {
  tablero::game::NewGameParams p;
  p.kind = kind;
  auto g = *tablero::games::NewGame(p);
  for (int i = 0; i < 4 && !g->result().over; ++i) {
    auto legal = g->LegalMoves();
    (void)g->Play(legal[rng() % legal.size()]);
  }
  return g;
}

// One game's client: `calls` moves asked of the service, each timed.
void RunGame(tablero::v1::Bot::Stub* stub, tablero::game::Kind kind, uint64_t seed,
             std::vector<Sample>* out, int* errors) {
  std::mt19937_64 rng(seed);
  auto g = Fresh(kind, rng);
  const int budget = absl::GetFlag(FLAGS_budget_ms);
  for (int i = 0; i < absl::GetFlag(FLAGS_calls); ++i) {
    if (g->result().over || g->ply() > 300) g = Fresh(kind, rng);
    tablero::v1::ChooseMoveRequest req;
    req.set_kind(tablero::games::ToProto(kind));
    req.set_state(g->Encode());
    req.set_level(absl::GetFlag(FLAGS_level));
    req.set_budget_ms(budget);
    req.set_seed(absl::GetFlag(FLAGS_seeded) ? rng() | 1 : 0);
    tablero::v1::ChooseMoveResponse resp;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(budget + 30000));
    const auto t0 = std::chrono::steady_clock::now();
    const grpc::Status st = stub->ChooseMove(&ctx, req, &resp);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!st.ok()) {
      fprintf(stderr, "ChooseMove: %d %s\n", int(st.error_code()), st.error_message().c_str());
      ++*errors;
      g = Fresh(kind, rng);
      continue;
    }
    out->push_back({ms, resp.elapsed_ms(), resp.nodes()});
    auto m = g->ParseMove(resp.move().notation());
    if (!m.ok() || !g->Play(*m).ok()) {
      fprintf(stderr, "the service's move %s was refused\n", resp.move().notation().c_str());
      ++*errors;
      g = Fresh(kind, rng);
    }
  }
}

double Pct(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::vector<tablero::game::Kind> kinds;
  for (absl::string_view k : absl::StrSplit(absl::GetFlag(FLAGS_games), ',', absl::SkipEmpty())) {
    auto kind = tablero::game::ParseKind(std::string(k));
    if (!kind.ok()) {
      fprintf(stderr, "--games: %s\n", std::string(kind.status().message()).c_str());
      return 2;
    }
    kinds.push_back(*kind);
  }
  if (kinds.empty()) return 2;
  const int budget = absl::GetFlag(FLAGS_budget_ms), slack = absl::GetFlag(FLAGS_slack_ms);
  printf("level %d, budget %d ms, %s, %d calls per game; late = over %d ms\n",
         absl::GetFlag(FLAGS_level), budget, absl::GetFlag(FLAGS_seeded) ? "seeded" : "clock",
         absl::GetFlag(FLAGS_calls), budget + slack);
  printf("%-10s %6s %8s %8s %8s %6s %10s %10s\n", "concurrent", "calls", "p50 ms", "p99 ms",
         "max ms", "late", "server p99", "nodes p50");
  bool all_on_time = true;
  for (absl::string_view c : absl::StrSplit(absl::GetFlag(FLAGS_concurrency), ',')) {
    int n = 0;
    if (!absl::SimpleAtoi(c, &n) || n < 1) {
      fprintf(stderr, "--concurrency: bad value %s\n", std::string(c).c_str());
      return 2;
    }
    std::vector<std::vector<Sample>> samples(n);
    std::vector<int> errors(n, 0);
    std::vector<std::unique_ptr<tablero::v1::Bot::Stub>> stubs;
    std::vector<std::thread> threads;
    threads.reserve(n);
    stubs.reserve(n);
    for (int i = 0; i < n; ++i) {
      // A channel per game, as separate players' requests would arrive.
      grpc::ChannelArguments args;
      args.SetInt("tablero_bot_load_channel", i);
      stubs.push_back(tablero::v1::Bot::NewStub(grpc::CreateCustomChannel(
          absl::GetFlag(FLAGS_target), grpc::InsecureChannelCredentials(), args)));
    }
    for (int i = 0; i < n; ++i) {
      threads.emplace_back(RunGame, stubs[i].get(), kinds[i % kinds.size()],
                           absl::GetFlag(FLAGS_seed) * 1000 + i, &samples[i], &errors[i]);
    }
    for (auto& t : threads) t.join();
    std::vector<double> ms, server, nodes;
    int late = 0, errs = 0;
    for (int i = 0; i < n; ++i) {
      errs += errors[i];
      for (const Sample& s : samples[i]) {
        ms.push_back(s.ms);
        server.push_back(s.server_ms);
        nodes.push_back(double(s.nodes));
        if (s.ms > budget + slack) ++late;
      }
    }
    printf("%-10d %6zu %8.1f %8.1f %8.1f %6d %10.0f %10.0f%s\n", n, ms.size(), Pct(ms, 0.5),
           Pct(ms, 0.99), Pct(ms, 1.0), late, Pct(server, 0.99), Pct(nodes, 0.5),
           errs ? " (errors)" : "");
    fflush(stdout);
    if (errs || Pct(ms, 0.99) > budget + slack) all_on_time = false;
  }
  return all_on_time ? 0 : 1;
}
