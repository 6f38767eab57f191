#include "services/matchmaking/hub.h"

#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "libs/pg/pool.h"
#include "libs/service/log.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {
namespace {

class Receiver : public pqxx::notification_receiver {
 public:
  Receiver(pqxx::connection_base& c, Hub* hub)
      : pqxx::notification_receiver(c, kChannel), hub_(hub) {}
  void operator()(const std::string& payload, int) override { hub_->OnNotify(payload); }

 private:
  Hub* hub_;
};

}  // namespace

void Hub::Start() {
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
  notifier_ = std::thread([this] { RunNotifier(); });
}

void Hub::Stop() {
  stop_ = true;
  {
    absl::MutexLock lock(&pub_mu_);
    pub_cv_.SignalAll();
  }
  if (thread_.joinable()) thread_.join();
  if (notifier_.joinable()) notifier_.join();
}

void Hub::Publish(const std::string& room) {
  listener_->OnRoom(room);
  Notify(room);
}

void Hub::Publish(const std::string& room, absl::Span<const v1::RoomEvent> events) {
  listener_->OnCommitted(room, events);
  Notify(room);
}

void Hub::Notify(const std::string& room) {
  absl::MutexLock lock(&pub_mu_);
  published_.insert(room);
  pub_cv_.Signal();
}

void Hub::OnNotify(const std::string& payload) {
  const size_t colon = payload.find(':');
  if (colon == std::string::npos) {  // a bare room id (an older replica's in-transaction NOTIFY)
    listener_->OnRoom(payload);
    return;
  }
  if (payload.compare(0, colon, replica_) == 0) return;  // ours: woken at commit already
  listener_->OnRoom(payload.substr(colon + 1));
}

void Hub::RunNotifier() {
  std::unique_ptr<pqxx::connection> conn;
  bool warned = false;
  while (!stop_) {
    absl::flat_hash_set<std::string> batch;
    {
      absl::MutexLock lock(&pub_mu_);
      const absl::Time deadline = absl::Now() + absl::Milliseconds(200);
      while (!stop_ && published_.empty() && !pub_cv_.WaitWithDeadline(&pub_mu_, deadline)) {
      }
      batch.swap(published_);
    }
    if (batch.empty()) continue;
    std::vector<std::string> payloads;
    for (const std::string& room : batch) payloads.push_back(absl::StrCat(replica_, ":", room));
    try {
      if (conn == nullptr) {
        auto c = pg::Connect(url_);
        if (!c.ok()) {
          if (!warned) {
            service::LogWarn("event notifier cannot connect; other replicas catch up by sweep",
                             {{"error", std::string(c.status().message())}});
          }
          warned = true;
          continue;  // other replicas find these rooms' events at their next safety sweep
        }
        conn = std::move(*c);
        pqxx::nontransaction(*conn).exec("SET synchronous_commit = off");
        warned = false;
      }
      pqxx::nontransaction t(*conn);
      t.exec_params("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", std::string(kChannel),
                    TextArray(payloads));
    } catch (const std::exception& e) {
      service::LogWarn("event notifier lost its connection; reconnecting", {{"error", e.what()}});
      conn.reset();
    }
  }
}

void Hub::Run() {
  int backoff_ms = 100;
  while (!stop_) {
    auto conn = pg::Connect(url_);
    if (!conn.ok()) {
      service::LogWarn("event listener cannot connect; retrying",
                       {{"error", std::string(conn.status().message())}});
      for (int w = 0; w < backoff_ms && !stop_; w += 50) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      backoff_ms = std::min(backoff_ms * 2, 3000);
      continue;
    }
    try {
      Receiver receiver(**conn, this);
      pqxx::nontransaction(**conn).exec_params("SELECT set_config('application_name', $1, false)",
                                               absl::StrCat(kListenerName, ":", replica_));
      (*conn)->get_notifs();  // issues the LISTEN
      backoff_ms = 100;
      ++listens_;
      listener_->OnResync();  // anything committed while not listening is read now
      while (!stop_) (*conn)->await_notification(0, 200000);
    } catch (const std::exception& e) {
      service::LogWarn("event listener lost its connection; reconnecting", {{"error", e.what()}});
    }
  }
}

}  // namespace tablero::matchmaking
