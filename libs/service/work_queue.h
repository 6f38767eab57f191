// A fixed set of threads running queued blocking work (database round trips) for handlers
// that must not block gRPC's callback threads. The queue is unbounded: callers bound what
// they submit (Watch streams are limited per replica), and work waits here for a thread
// instead of timing out on a connection pool.
#ifndef TABLERO_LIBS_SERVICE_WORK_QUEUE_H_
#define TABLERO_LIBS_SERVICE_WORK_QUEUE_H_

#include <cstddef>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace tablero::service {

class WorkQueue {
 public:
  explicit WorkQueue(int threads);
  // Runs what is queued, then joins the threads.
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  void Post(std::function<void()> fn);
  // Work waiting for a thread.
  size_t queued() const;

 private:
  void Loop();
  mutable absl::Mutex mu_;
  absl::CondVar cv_;  // queue_ got work, or stop_ was set
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace tablero::service

#endif  // TABLERO_LIBS_SERVICE_WORK_QUEUE_H_
