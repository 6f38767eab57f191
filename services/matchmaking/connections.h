// This replica's presence rows, written in batches. A seated player (or room member) is
// connected while at least one Watch stream with their token is open on some replica.
// The table `connections` holds one row per (replica, room, player) with streams here,
// not one per stream, and the rows of many opens and closes are written in one
// transaction (group commit): while one batch commits, the next collects. A replica
// opening 20,000 streams writes a few hundred transactions, not 20,000, and a player's
// second stream on the same replica writes nothing.
//
// A pair's first connection (no live row on any replica) and last disconnection append
// the room's presence event (seating.h Presence) in the same transaction, so the grace
// clock of an absent seat starts exactly once whichever replica writes it.
//
// A row is live while its replica's lease (table `replicas`, one row per replica) is: the
// scheduler renews this replica's lease, one row, and sweeps the rows of replicas whose
// lease ran out (background.cc). No row is written per stream per interval.
#ifndef TABLERO_SERVICES_MATCHMAKING_CONNECTIONS_H_
#define TABLERO_SERVICES_MATCHMAKING_CONNECTIONS_H_

#include <deque>
#include <functional>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace tablero::matchmaking {

class ToPublish;  // room_store.h

class Connections {
 public:
  // Runs fn in a transaction and publishes the rooms it noted (Commits::Tx).
  using TxFn =
      std::function<absl::Status(const std::function<absl::Status(pqxx::work&, ToPublish&)>&)>;
  using Done = std::function<void(absl::Status)>;

  Connections(std::string replica, int lease_seconds, TxFn tx, size_t max_batch = 512);
  ~Connections();
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  void Start();
  // Writes what is still pending (the closes of a draining replica), then stops.
  void Stop();

  // A stream of `player` opened in `room`. `done` runs once the pair's row is written
  // (OK), or with why not: NOT_FOUND when the room is gone or closed, UNAVAILABLE when
  // the database is. It runs on the writer's thread, or on the caller's at once when the
  // row is already there. Every Acquire is paired with one Release, whatever `done` got.
  void Acquire(const std::string& room, const std::string& player, Done done);
  void Release(const std::string& room, const std::string& player);

  // The row id of a pair on this replica.
  static std::string RowId(const std::string& replica, const std::string& room,
                           const std::string& player);

  // Extends `replica`'s lease to `lease_seconds` from now (creating it).
  static void RenewLease(pqxx::transaction_base& t, const std::string& replica, int lease_seconds);

  // Pairs known here (streams open, or a row still to delete); for tests and metrics.
  size_t pairs() const;

 private:
  using Key = std::pair<std::string, std::string>;  // room, player
  struct Entry {
    int streams = 0;
    bool written = false;  // our row is in the table
    bool queued = false;   // in dirty_
    std::vector<Done> waiters;
  };
  struct Op {
    Key key;
    bool connect;
    absl::Status result;
  };

  void Run();
  // Takes up to max_batch_ dirty pairs; those needing no write complete at once.
  std::vector<Op> TakeBatch(std::vector<std::pair<Done, absl::Status>>* complete)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // One transaction for the batch; sets each op's result.
  absl::Status Write(std::vector<Op>* ops);
  void Settle(std::vector<Op>* ops, const absl::Status& batch,
              std::vector<std::pair<Done, absl::Status>>* complete)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Enqueue(const Key& key, Entry* e) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string replica_;
  const int lease_seconds_;
  const TxFn tx_;
  const size_t max_batch_;
  mutable absl::Mutex mu_;
  absl::CondVar cv_;
  absl::flat_hash_map<Key, Entry> entries_ ABSL_GUARDED_BY(mu_);
  std::deque<Key> dirty_ ABSL_GUARDED_BY(mu_);
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_CONNECTIONS_H_
