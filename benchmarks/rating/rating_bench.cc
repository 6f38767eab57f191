// Rating reports applied per second: a gRPC client that keeps many ReportGame calls in
// flight against a running rating service (see rating_bench.sh and README.md).
// Every report is a new ranked game among a population of players, so each call is one
// full apply: insert the game id, lock/create the players' rows, rate, write. ReportGame is
// an internal method: the calls carry --service_key, which must be the service's.
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
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "libs/service/service_key.h"
#include "tablero/v1/rating.grpc.pb.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50053", "rating service address");
ABSL_FLAG(double, seconds, 10, "measured duration");
ABSL_FLAG(double, warmup, 1, "seconds run before measuring");
ABSL_FLAG(int, inflight, 64, "ReportGame calls kept in flight");
ABSL_FLAG(int, players, 10000, "players per pool to draw seats from");
ABSL_FLAG(uint32_t, seed, 1, "random seed");

namespace v1 = tablero::v1;
using Clock = std::chrono::steady_clock;

namespace {

struct Call {
  grpc::ClientContext ctx;
  v1::ReportGameResponse resp;
  grpc::Status status;
  std::unique_ptr<grpc::ClientAsyncResponseReader<v1::ReportGameResponse>> rpc;
  Clock::time_point started;
};

// A game mix like a busy site's: mostly chess, some shogi (singles and pairs) and
// Chinese Checkers with 2-6 players.
class Games {
 public:
  Games(std::string prefix, int players, uint32_t seed)
      : prefix_(std::move(prefix)), players_(players), rng_(seed) {}

  v1::ReportGameRequest Next() {
    v1::ReportGameRequest r;
    r.set_game_id(absl::StrCat(prefix_, "g", n_++));
    r.set_ranked(true);
    int kind = rng_() % 10;
    int seats;
    if (kind < 6) {
      r.set_kind(v1::GAME_KIND_CHESS), r.set_pool(v1::RATING_POOL_CHESS), seats = 2;
    } else if (kind < 7) {
      r.set_kind(v1::GAME_KIND_SHOGI4), r.set_pool(v1::RATING_POOL_SHOGI4_SINGLES), seats = 4;
    } else if (kind < 8) {
      r.set_kind(v1::GAME_KIND_SHOGI4), r.set_pool(v1::RATING_POOL_SHOGI4_PAIRS), seats = 4;
    } else {
      r.set_kind(v1::GAME_KIND_CHECKERS), r.set_pool(v1::RATING_POOL_CHECKERS),
          seats = 2 + rng_() % 5;
    }
    int chosen[6];
    for (int i = 0; i < seats; ++i) {
      bool dup;
      do {
        chosen[i] = static_cast<int>(rng_() % players_);
        dup = false;
        for (int j = 0; j < i; ++j) dup = dup || chosen[j] == chosen[i];
      } while (dup);
      v1::ReportSeat* s = r.add_seats();
      s->set_player_id(absl::StrCat("p", chosen[i]));
      if (r.pool() == v1::RATING_POOL_SHOGI4_PAIRS) {
        s->set_team(i % 2);
      }
    }
    if (r.pool() == v1::RATING_POOL_SHOGI4_PAIRS) {
      int winner = rng_() % 2;
      for (int i = 0; i < 4; ++i) r.mutable_seats(i)->set_place(i % 2 == winner ? 1 : 3);
    } else {
      // Random scores ranked as places (1 + the seats scoring more: ties share a place).
      std::vector<int> score(seats);
      for (int& x : score) x = static_cast<int>(rng_() % seats);
      for (int i = 0; i < seats; ++i) {
        r.mutable_seats(i)->set_place(
            1 + static_cast<int>(std::count_if(score.begin(), score.end(),
                                               [&](int x) { return x > score[i]; })));
      }
    }
    return r;
  }

 private:
  std::string prefix_;
  int players_;
  std::mt19937 rng_;
  long n_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  // As in the services (libs/service): Debian's Abseil checks every Mutex lock for
  // deadlock cycles by default, a cost a real client would not pay.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  auto channel =
      grpc::CreateChannel(absl::GetFlag(FLAGS_target), grpc::InsecureChannelCredentials());
  auto stub = v1::Rating::NewStub(channel);
  std::string prefix =
      absl::StrCat("bench-", std::chrono::system_clock::now().time_since_epoch().count(), "-");
  Games games(prefix, absl::GetFlag(FLAGS_players), absl::GetFlag(FLAGS_seed));

  // Wait for the service to answer (it becomes ready once its database is migrated).
  for (int i = 0;; ++i) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    tablero::service::AddServiceKey(&ctx);
    v1::ReportGameResponse resp;
    grpc::Status s = stub->ReportGame(&ctx, games.Next(), &resp);
    if (s.ok()) break;
    if (i == 60) {
      std::fprintf(stderr, "rating_bench: service not answering: %s\n", s.error_message().c_str());
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }

  grpc::CompletionQueue cq;
  const auto t0 = Clock::now();
  const auto measure_from = t0 + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(absl::GetFlag(FLAGS_warmup)));
  const auto until =
      measure_from + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(absl::GetFlag(FLAGS_seconds)));
  long done = 0, applied = 0, errors = 0, inflight = 0;
  double latency_sum = 0;
  auto start = [&] {
    auto* c = new Call;
    c->ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    tablero::service::AddServiceKey(&c->ctx);
    c->started = Clock::now();
    c->rpc = stub->PrepareAsyncReportGame(&c->ctx, games.Next(), &cq);
    c->rpc->StartCall();
    c->rpc->Finish(&c->resp, &c->status, c);
    ++inflight;
  };
  for (int i = 0; i < absl::GetFlag(FLAGS_inflight); ++i) start();
  void* tag;
  bool ok;
  std::string first_error;
  while (inflight > 0 && cq.Next(&tag, &ok)) {
    std::unique_ptr<Call> c(static_cast<Call*>(tag));
    --inflight;
    auto now = Clock::now();
    // Count calls that finished inside the measured window.
    if (now >= measure_from && now < until) {
      ++done;
      latency_sum += std::chrono::duration<double>(now - c->started).count();
      if (!c->status.ok()) {
        ++errors;
        if (first_error.empty()) first_error = c->status.error_message();
      } else if (c->resp.applied_now()) {
        ++applied;
      }
    }
    if (now < until) start();
  }
  double secs = absl::GetFlag(FLAGS_seconds);
  std::printf("rating_bench: %ld calls in %.1f s, %ld applied, %ld errors, mean latency %.2f ms\n",
              done, secs, applied, errors, done ? 1000 * latency_sum / done : 0.0);
  if (!first_error.empty()) std::printf("rating_bench: first error: %s\n", first_error.c_str());
  std::printf("rating_reports_per_sec=%.1f\n", applied / secs);
  return errors == 0 ? 0 : 1;
}
