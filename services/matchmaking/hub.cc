#include "services/matchmaking/hub.h"

#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "libs/pg/pool.h"
#include "libs/service/log.h"

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
  thread_ = std::thread([this] { Run(); });
  notifier_ = std::thread([this] { RunNotifier(); });
}

void Hub::Stop() {
  stop_ = true;
  {
    std::lock_guard<std::mutex> lock(pub_mu_);
    pub_cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  if (notifier_.joinable()) notifier_.join();
  PokeAll();
}

void Hub::Publish(const std::string& room) {
  Poke(room);
  std::lock_guard<std::mutex> lock(pub_mu_);
  published_.insert(room);
  pub_cv_.notify_one();
}

void Hub::OnNotify(const std::string& payload) {
  const size_t colon = payload.find(':');
  if (colon == std::string::npos) {  // a bare room id (an older replica's in-transaction NOTIFY)
    Poke(payload);
    return;
  }
  if (payload.compare(0, colon, replica_) == 0) return;  // ours: woken at commit already
  Poke(payload.substr(colon + 1));
}

void Hub::RunNotifier() {
  std::unique_ptr<pqxx::connection> conn;
  bool warned = false;
  while (!stop_) {
    absl::flat_hash_set<std::string> batch;
    {
      std::unique_lock<std::mutex> lock(pub_mu_);
      pub_cv_.wait_for(lock, std::chrono::milliseconds(200),
                       [this] { return stop_ || !published_.empty(); });
      batch.swap(published_);
    }
    if (batch.empty()) continue;
    // One text[] literal of "<replica>:<room>" payloads (ids are quoted and escaped).
    std::string payloads = "{";
    for (const std::string& room : batch) {
      if (payloads.size() > 1) payloads += ',';
      payloads += '"';
      for (char c : absl::StrCat(replica_, ":", room)) {
        if (c == '"' || c == '\\') payloads += '\\';
        payloads += c;
      }
      payloads += '"';
    }
    payloads += '}';
    try {
      if (conn == nullptr) {
        auto c = pg::Connect(url_);
        if (!c.ok()) {
          if (!warned) {
            service::LogWarn("event notifier cannot connect; other replicas' watchers poll",
                             {{"error", std::string(c.status().message())}});
          }
          warned = true;
          continue;  // these rooms' watchers elsewhere find the events at their next poll
        }
        conn = std::move(*c);
        pqxx::nontransaction(*conn).exec("SET synchronous_commit = off");
        warned = false;
      }
      pqxx::nontransaction t(*conn);
      t.exec_params("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", std::string(kChannel),
                    payloads);
    } catch (const std::exception& e) {
      service::LogWarn("event notifier lost its connection; reconnecting", {{"error", e.what()}});
      conn.reset();
    }
  }
}

std::unique_ptr<Hub::Sub> Hub::Subscribe(const std::string& room) {
  auto sub = std::make_unique<Sub>();
  sub->hub_ = this;
  sub->room_ = room;
  std::lock_guard<std::mutex> lock(mu_);
  auto& e = rooms_[room];
  if (e == nullptr) e = std::make_shared<Sub::Entry>();
  sub->entry_ = e;
  std::lock_guard<std::mutex> l2(e->mu);
  ++e->watchers;
  sub->seen_ = e->version;
  return sub;
}

Hub::Sub::~Sub() {
  std::lock_guard<std::mutex> lock(hub_->mu_);
  std::lock_guard<std::mutex> l2(entry_->mu);
  if (--entry_->watchers == 0) hub_->rooms_.erase(room_);
}

bool Hub::Sub::Wait(absl::Duration timeout) {
  std::unique_lock<std::mutex> lock(entry_->mu);
  const bool woken = entry_->cv.wait_for(lock, absl::ToChronoMilliseconds(timeout),
                                         [this] { return entry_->version != seen_; });
  seen_ = entry_->version;
  return woken;
}

void Hub::Poke(const std::string& room) {
  std::shared_ptr<Sub::Entry> e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = rooms_.find(room);
    if (it == rooms_.end()) return;
    e = it->second;
  }
  std::lock_guard<std::mutex> lock(e->mu);
  ++e->version;
  e->cv.notify_all();
}

void Hub::PokeAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [room, e] : rooms_) {
    std::lock_guard<std::mutex> l2(e->mu);
    ++e->version;
    e->cv.notify_all();
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
      (*conn)->get_notifs();  // issues the LISTEN
      backoff_ms = 100;
      PokeAll();  // anything committed while not listening is read now
      while (!stop_) (*conn)->await_notification(0, 200000);
    } catch (const std::exception& e) {
      service::LogWarn("event listener lost its connection; reconnecting", {{"error", e.what()}});
    }
  }
}

}  // namespace tablero::matchmaking
