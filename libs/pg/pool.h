// A small PostgreSQL connection pool over libpqxx. Connections are opened lazily up to the
// pool size and reopened when broken. libpqxx reports errors with exceptions; this library
// turns them into absl::Status so that none crosses into service code.
#ifndef TABLERO_LIBS_PG_POOL_H_
#define TABLERO_LIBS_PG_POOL_H_

#include <functional>
#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace tablero::pg {

class Pool;

// A connection borrowed from the pool; returned when destroyed.
class Conn {
 public:
  Conn(Conn&& o) noexcept : pool_(o.pool_), c_(std::move(o.c_)) { o.pool_ = nullptr; }
  Conn& operator=(Conn&&) = delete;
  ~Conn();
  pqxx::connection& operator*() { return *c_; }
  pqxx::connection* operator->() { return c_.get(); }

 private:
  friend class Pool;
  Conn(Pool* pool, std::unique_ptr<pqxx::connection> c) : pool_(pool), c_(std::move(c)) {}
  Pool* pool_;
  std::unique_ptr<pqxx::connection> c_;
};

class Pool {
 public:
  Pool(std::string url, int size) : url_(std::move(url)), size_(size < 1 ? 1 : size) {}
  Pool(const Pool&) = delete;

  // UNAVAILABLE if the database cannot be reached (message says why), DEADLINE_EXCEEDED if
  // every connection stays busy for `wait`.
  absl::StatusOr<Conn> Acquire(absl::Duration wait = absl::Seconds(5));

  // Runs `fn` in a transaction and commits it. Retries (up to `attempts`) when Postgres
  // reports a serialization failure or deadlock, or the connection broke before commit.
  // fn returns a non-OK status to roll back; that status is returned as is.
  absl::Status Tx(const std::function<absl::Status(pqxx::work&)>& fn, int attempts = 5);

  // Runs read-only `fn` outside a transaction (autocommit: each statement sees its own
  // snapshot), saving the BEGIN and COMMIT round trips of Tx for reads that are a single
  // statement or need no common snapshot. Retried like Tx when the connection broke.
  absl::Status Read(const std::function<absl::Status(pqxx::transaction_base&)>& fn,
                    int attempts = 3);

  // Runs `fn` outside a transaction, for one statement that writes (it is its own
  // transaction: all or nothing, and no BEGIN/COMMIT round trips). Retried only when
  // Postgres rolled it back (serialization failure, deadlock); a broken connection is not
  // retried, since the statement may have committed.
  absl::Status Autocommit(const std::function<absl::Status(pqxx::transaction_base&)>& fn,
                          int attempts = 5);

  // Checks that a connection can be made and answers a trivial query.
  absl::Status Ping();

  const std::string& url() const { return url_; }

  // For the pool's metrics (pool_metrics.h).
  struct Stats {
    int size = 0;             // the most connections it opens
    int open = 0;             // open now (idle and lent)
    int in_use = 0;           // lent now
    int64_t waits = 0;        // acquisitions that found every connection busy
    double wait_seconds = 0;  // time those spent waiting
    int64_t timeouts = 0;     // waits that gave up (DEADLINE_EXCEEDED)
  };
  Stats stats() const;

 private:
  friend class Conn;
  void Return(std::unique_ptr<pqxx::connection> c);
  absl::Status Untransacted(const std::function<absl::Status(pqxx::transaction_base&)>& fn,
                            int attempts,
                            bool (*retry)(const std::exception&, const absl::Status&));

  std::string url_;
  int size_;
  mutable absl::Mutex mu_;
  absl::CondVar cv_;  // a connection came back, or a slot to open one freed
  std::vector<std::unique_ptr<pqxx::connection>> idle_ ABSL_GUARDED_BY(mu_);
  int open_ ABSL_GUARDED_BY(mu_) = 0;  // connections created and not destroyed (idle + lent)
  int lent_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t waits_ ABSL_GUARDED_BY(mu_) = 0, timeouts_ ABSL_GUARDED_BY(mu_) = 0;
  double wait_seconds_ ABSL_GUARDED_BY(mu_) = 0;
};

// Maps a libpqxx exception to a status: serialization/deadlock -> ABORTED, broken
// connection -> UNAVAILABLE, constraint violations -> ALREADY_EXISTS/FAILED_PRECONDITION,
// anything else -> INTERNAL. Messages keep the SQLSTATE.
absl::Status FromException(const std::exception& e);

// Opens one connection outside any pool (migrations, tests).
absl::StatusOr<std::unique_ptr<pqxx::connection>> Connect(const std::string& url);

}  // namespace tablero::pg

#endif  // TABLERO_LIBS_PG_POOL_H_
