#include "services/matchmaking/watchers.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/service/log.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

Watchers::Watchers(WatchLimits limits, absl::Duration heartbeat, absl::Duration sweep, Feeds* feeds,
                   Metrics* metrics)
    : limits_(limits), heartbeat_(heartbeat), sweep_(sweep), feeds_(feeds), metrics_(metrics) {}

Watchers::~Watchers() { Stop(); }

void Watchers::Start() {
  {
    absl::MutexLock lock(&stop_mu_);
    stop_ = false;
  }
  if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
}

void Watchers::Stop() {
  {
    absl::MutexLock lock(&stop_mu_);
    stop_ = true;
  }
  stop_cv_.SignalAll();
  if (thread_.joinable()) thread_.join();
}

absl::Status Watchers::Admit(const std::shared_ptr<WatchStream>& s, const std::string& player,
                             const std::string& address) {
  absl::MutexLock lock(&mu_);
  if (static_cast<int>(streams_.size()) >= limits_.replica) {
    metrics_->watch_refused_replica->Increment();
    return absl::ResourceExhaustedError(
        "this server holds as many Watch streams as it may: retry in a few seconds");
  }
  if (!player.empty()) {
    auto it = per_player_.find(player);
    if (it != per_player_.end() && it->second >= limits_.per_player) {
      metrics_->watch_refused_player->Increment();
      return absl::ResourceExhaustedError(
          absl::StrCat("you have ", limits_.per_player,
                       " Watch streams open: close one (or reuse it) before opening another"));
    }
  }
  auto it = per_address_.find(address);
  if (it != per_address_.end() && it->second >= limits_.per_address) {
    metrics_->watch_refused_address->Increment();
    return absl::ResourceExhaustedError(
        absl::StrCat("your network address has ", limits_.per_address,
                     " Watch streams open: close some before opening more"));
  }
  streams_[s.get()] = s;
  if (!player.empty()) ++per_player_[player];
  ++per_address_[address];
  metrics_->connected_players->Set(static_cast<double>(per_player_.size()));
  return absl::OkStatus();
}

void Watchers::Remove(const WatchStream* s, const std::string& player, const std::string& address) {
  std::shared_ptr<WatchStream> last_ref;  // released after the lock
  absl::MutexLock lock(&mu_);
  auto it = streams_.find(s);
  if (it == streams_.end()) return;
  last_ref = std::move(it->second);
  streams_.erase(it);
  auto drop = [](absl::flat_hash_map<std::string, int>& m, const std::string& key) {
    auto c = m.find(key);
    if (c != m.end() && --c->second <= 0) m.erase(c);
  };
  if (!player.empty()) drop(per_player_, player);
  drop(per_address_, address);
  metrics_->connected_players->Set(static_cast<double>(per_player_.size()));
}

void Watchers::EndAll(const grpc::Status& status, WatchEnd reason) {
  std::vector<std::shared_ptr<WatchStream>> all;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [k, s] : streams_) all.push_back(s);
  }
  for (const auto& s : all) s->End(status, reason);
}

size_t Watchers::size() const {
  absl::MutexLock lock(&mu_);
  return streams_.size();
}

size_t Watchers::players() const {
  absl::MutexLock lock(&mu_);
  return per_player_.size();
}

void Watchers::Run() {
  // Heartbeats are looked at four times per interval: a stream's heartbeat is late by at
  // most a quarter of it.
  const absl::Duration step =
      std::max(absl::Milliseconds(50), std::min(heartbeat_ / 4, absl::Seconds(1)));
  absl::Time next_sweep = absl::Now() + sweep_;
  while (true) {
    {
      absl::MutexLock lock(&stop_mu_);
      const absl::Time deadline = absl::Now() + step;
      while (!stop_ && !stop_cv_.WaitWithDeadline(&stop_mu_, deadline)) {
      }
      if (stop_) return;
    }
    const absl::Time now = absl::Now();
    v1::RoomEvent beat;
    *beat.mutable_time() = ToTimestamp(NowUs());
    beat.mutable_heartbeat();
    const EventPtr hb = WireEvent::FromMessage(beat);
    std::vector<std::shared_ptr<WatchStream>> all;
    {
      absl::MutexLock lock(&mu_);
      all.reserve(streams_.size());
      for (const auto& [k, s] : streams_) all.push_back(s);
    }
    for (const auto& s : all) s->Heartbeat(now, heartbeat_, hb);
    all.clear();
    if (now >= next_sweep) {
      next_sweep = now + sweep_;
      if (absl::Status st = feeds_->CatchUp(); !st.ok()) {
        service::LogWarn("watch safety sweep failed; retrying at the next",
                         {{"error", std::string(st.message())}});
      }
    }
  }
}

}  // namespace tablero::matchmaking
