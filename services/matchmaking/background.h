// The background work every replica runs: CPU moves (cpu.cc), seats taken over after the
// grace period (cpu.cc), quick-match pairing (matcher.cc), rating reports (outbox.cc), the
// presence leases of its streams and of dead replicas, the database-wide gauges and the
// expiry of retried calls' answers (background.cc). Each piece of work is claimed in the
// database (row locks with SKIP LOCKED, advisory locks, leases), so with several replicas
// exactly one acts on each row, and work a killed replica had claimed is picked up again
// once its lease ends.
//
// One statement per tick (Probe) says which work is due; only that work runs, so an idle
// replica costs Postgres one probe per tick and a few statements every 5 s. The CPU
// workers sleep until there is CPU work: the probe found some, or a commit here gave the
// turn to a CPU seat (WakeCpu).
#ifndef TABLERO_SERVICES_MATCHMAKING_BACKGROUND_H_
#define TABLERO_SERVICES_MATCHMAKING_BACKGROUND_H_

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/matchmaking/backends.h"
#include "services/matchmaking/commits.h"
#include "services/matchmaking/mm_metrics.h"

namespace tablero::matchmaking {

struct BackgroundConfig {
  std::string replica;     // this process's id (its streams' presence rows)
  int lease_seconds = 30;  // this replica's presence lease (renewed every sixth of it)
  absl::Duration tick = absl::Milliseconds(200);
  int cpu_workers = 2;                                // CPU moves computed at once
  absl::Duration ticket_abandon = absl::Seconds(60);  // unpolled tickets are cancelled
};

class Background {
 public:
  // Creates and starts a game in a locked room (the quick-match pairing's games).
  using StartGame =
      std::function<absl::Status(pqxx::transaction_base&, ToPublish&, const v1::Room&,
                                 const std::vector<std::string>& seats, int first_seat, v1::Game*)>;
  Background(BackgroundConfig config, Commits* commits, Backends* backends, Metrics* metrics,
             StartGame start_game);
  ~Background() { Stop(); }

  void Start();
  // Stops the loops and waits for the work in flight.
  void Stop();
  // Wakes a CPU worker at once when `game` (just committed) has a CPU seat to move.
  void WakeCpu(const v1::Game& game);

  // Which work is due, as one statement says it.
  struct DueWork {
    int cpu_moves = 0;       // CPU turns due and unclaimed (at most cpu_workers)
    bool tickets = false;    // quick-match tickets waiting
    bool outbox = false;     // rating reports due
    bool takeovers = false;  // seats whose player is away past the grace period
  };
  absl::StatusOr<DueWork> Probe();
  // Probe's statement ($1: cpu_workers). Each part must read an index, whatever the size of
  // the tables of finished games (tests/probe_plan_test.cc holds its plan).
  static const std::string& ProbeSql();

 private:
  void SchedulerLoop();
  void RenewAndSweepConnections();
  void CountActiveGames();
  // cpu.cc: grace expiry; one CPU move if any is due (false when none was); the workers.
  void TakeoverSweep();
  bool PlayOneCpuMove();
  void CpuLoop();
  void WakeCpuWorkers(int n);
  // matcher.cc: pairs waiting tickets.
  void MatchQueue();
  // outbox.cc: reports finished ranked games.
  void DeliverOutbox();
  void CountOutbox();

  const BackgroundConfig config_;
  Commits* commits_;
  Backends* backends_;
  Metrics* metrics_;
  StartGame start_game_;

  absl::Mutex cpu_mu_;
  absl::CondVar cpu_cv_;
  int cpu_wakeups_ ABSL_GUARDED_BY(cpu_mu_) = 0;

  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_BACKGROUND_H_
