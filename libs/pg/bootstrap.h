// Brings a service's database up in the background: connect, migrate, then report ready;
// then keeps checking that the database answers and reports each change, so the service's
// readiness follows its database (a replica that cannot reach it leaves the load balancer
// and comes back with it, without a restart). While the database is unreachable the
// service stays NOT_SERVING and logs why, retrying with backoff; it never crashes. A
// database newer than the binary is a permanent error: the service logs it and exits
// non-zero (refusing to start), as an operator expects.
#ifndef TABLERO_LIBS_PG_BOOTSTRAP_H_
#define TABLERO_LIBS_PG_BOOTSTRAP_H_

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "libs/pg/migrate.h"

namespace tablero::pg {

class Bootstrap {
 public:
  Bootstrap(std::string url, std::string schema, const std::vector<Migration>& migrations)
      : url_(std::move(url)), schema_(std::move(schema)), migrations_(migrations) {}
  ~Bootstrap();

  // Starts the background work: `ready(true)` once migrated, then `ready(false)` when a
  // check (one `SELECT 1` every `check_every`, on a connection of its own) fails and
  // `ready(true)` when one succeeds again (no checks if `check_every` is not positive).
  // The first call is always ready(true).
  void Start(std::function<void(bool)> ready, absl::Duration check_every = absl::Seconds(2));
  void Stop();

 private:
  void Run(const std::function<void(bool)>& ready, absl::Duration check_every);
  bool Migrated();  // false: stopped before the database was ready
  void Watch(const std::function<void(bool)>& ready, absl::Duration check_every);
  bool Sleep(absl::Duration d);  // false: stopped meanwhile
  std::string url_, schema_;
  const std::vector<Migration>& migrations_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace tablero::pg

#endif  // TABLERO_LIBS_PG_BOOTSTRAP_H_
