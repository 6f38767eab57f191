#include "libs/service/rate_limit.h"

namespace tablero::service {

bool WindowCounter::BelowLocked(absl::string_view key, int limit, absl::Time now) {
  if (limit <= 0) return true;
  auto it = windows_.find(key);
  if (it == windows_.end()) return true;
  if (now - it->second.start >= window_) {
    windows_.erase(it);
    return true;
  }
  return it->second.count < limit;
}

void WindowCounter::AddLocked(absl::string_view key, absl::Time now) {
  if (windows_.size() >= max_keys_ && !windows_.contains(key)) windows_.clear();
  Window& w = windows_[key];
  if (w.count == 0 || now - w.start >= window_) w = Window{now, 0};
  ++w.count;
}

bool WindowCounter::Below(absl::string_view key, int limit, absl::Time now) {
  absl::MutexLock lock(&mu_);
  return BelowLocked(key, limit, now);
}

void WindowCounter::Add(absl::string_view key, absl::Time now) {
  absl::MutexLock lock(&mu_);
  AddLocked(key, now);
}

bool WindowCounter::Take(absl::string_view key, int limit, absl::Time now) {
  absl::MutexLock lock(&mu_);
  if (!BelowLocked(key, limit, now)) return false;
  AddLocked(key, now);
  return true;
}

}  // namespace tablero::service
