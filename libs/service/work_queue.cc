#include "libs/service/work_queue.h"

namespace tablero::service {

WorkQueue::WorkQueue(int threads) {
  for (int i = 0; i < (threads < 1 ? 1 : threads); ++i) threads_.emplace_back([this] { Loop(); });
}

WorkQueue::~WorkQueue() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  cv_.SignalAll();
  for (std::thread& t : threads_) t.join();
}

void WorkQueue::Post(std::function<void()> fn) {
  {
    absl::MutexLock lock(&mu_);
    queue_.push_back(std::move(fn));
  }
  cv_.Signal();
}

size_t WorkQueue::queued() const {
  absl::MutexLock lock(&mu_);
  return queue_.size();
}

void WorkQueue::Loop() {
  while (true) {
    std::function<void()> fn;
    {
      absl::MutexLock lock(&mu_);
      while (!stop_ && queue_.empty()) cv_.Wait(&mu_);
      if (queue_.empty()) return;  // stopping, and nothing is left
      fn = std::move(queue_.front());
      queue_.pop_front();
    }
    fn();
  }
}

}  // namespace tablero::service
