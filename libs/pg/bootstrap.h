// Brings a service's database up in the background: connect, migrate, then report ready.
// While the database is unreachable the service stays NOT_SERVING and logs why, retrying
// with backoff; it never crashes. A database newer than the binary is a permanent error:
// the service logs it and exits non-zero (refusing to start), as an operator expects.
#ifndef TABLERO_LIBS_PG_BOOTSTRAP_H_
#define TABLERO_LIBS_PG_BOOTSTRAP_H_

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "libs/pg/migrate.h"

namespace tablero::pg {

class Bootstrap {
 public:
  Bootstrap(std::string url, std::string schema, const std::vector<Migration>& migrations)
      : url_(std::move(url)), schema_(std::move(schema)), migrations_(migrations) {}
  ~Bootstrap();

  // Starts the background attempt; `ready` is called once with true after migrating.
  void Start(std::function<void(bool)> ready);
  void Stop();

 private:
  void Run(std::function<void(bool)> ready);
  std::string url_, schema_;
  const std::vector<Migration>& migrations_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace tablero::pg

#endif  // TABLERO_LIBS_PG_BOOTSTRAP_H_
