// A pool's state as Prometheus metrics, read at each scrape:
//   tablero_db_pool_connections{state="in_use"|"idle"}  gauge
//   tablero_db_pool_size                                 gauge (the most it opens)
//   tablero_db_pool_waits_total                          counter (acquisitions that waited)
//   tablero_db_pool_wait_seconds_total                   counter (time spent waiting)
//   tablero_db_pool_timeouts_total                       counter (waits that gave up)
// Register it with service::Server::AddCollectable before Start.
#ifndef TABLERO_LIBS_PG_POOL_METRICS_H_
#define TABLERO_LIBS_PG_POOL_METRICS_H_

#include <prometheus/collectable.h>

#include <memory>

#include "libs/pg/pool.h"

namespace tablero::pg {

// `pool` must outlive the collectable's use (the server's exposer).
std::shared_ptr<prometheus::Collectable> PoolMetrics(const Pool* pool);

}  // namespace tablero::pg

#endif  // TABLERO_LIBS_PG_POOL_METRICS_H_
