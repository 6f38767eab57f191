#include "services/matchmaking/ticket_watch.h"

#include <optional>

#include "absl/strings/match.h"

namespace tablero::matchmaking {
namespace {

constexpr char kWakePrefix[] = "ticket:";

bool Final(const v1::Ticket& t) {
  return t.status() == v1::Ticket::STATUS_MATCHED || t.status() == v1::Ticket::STATUS_CANCELLED;
}

}  // namespace

TicketWatch::TicketWatch(Hub::Listener* rooms, absl::Duration period)
    : rooms_(rooms), period_(period) {}

TicketWatch::~TicketWatch() {
  Stop(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server shutting down: reconnect"));
}

void TicketWatch::Start(Reader reader, Away away) {
  reader_ = std::move(reader);
  away_ = std::move(away);
  {
    absl::MutexLock lock(&timer_mu_);
    stop_timer_ = false;
  }
  timer_ = std::thread([this] { Run(); });
}

void TicketWatch::Stop(const grpc::Status& status) {
  std::vector<TicketStreamPtr> all;
  {
    absl::MutexLock lock(&mu_);
    stopped_ = true;
    for (const auto& [id, streams] : streams_) {
      for (const auto& [raw, s] : streams) all.push_back(s);
    }
  }
  for (const auto& s : all) s->End(status);
  {
    absl::MutexLock lock(&timer_mu_);
    stop_timer_ = true;
  }
  timer_cv_.SignalAll();
  if (timer_.joinable()) timer_.join();
}

TicketStreamPtr TicketWatch::NewStream() {
  TicketStreamPtr s(new TicketStream());
  s->self_ = s;
  return s;
}

absl::Status TicketWatch::Follow(const TicketStreamPtr& s, const v1::Ticket& ticket) {
  {
    absl::MutexLock lock(&mu_);
    if (stopped_) return absl::UnavailableError("server shutting down: reconnect");
    auto& mine = streams_[ticket.ticket_id()];
    if (static_cast<int>(mine.size()) >= kPerTicket) {
      return absl::ResourceExhaustedError(
          "too many WatchTicket streams of this ticket; close the ones you no longer read");
    }
    absl::MutexLock stream_lock(&s->mu_);
    if (s->done_) {  // the client is gone already
      if (mine.empty()) streams_.erase(ticket.ticket_id());
      return absl::OkStatus();
    }
    s->watch_ = this;
    s->ticket_id_ = ticket.ticket_id();
    mine[s.get()] = s;
  }
  s->Offer(ticket, /*heartbeat=*/false);
  // A change committed after `ticket` was read but before the stream was listed here
  // woke nobody: read once more now that it is.
  reads_.Post([this, id = ticket.ticket_id()] { Refresh({id}, /*heartbeat=*/false); });
  return absl::OkStatus();
}

void TicketWatch::Forget(const TicketStream* s, const std::string& ticket_id, bool left) {
  {
    absl::MutexLock lock(&mu_);
    auto it = streams_.find(ticket_id);
    if (it == streams_.end()) return;
    it->second.erase(s);
    if (!it->second.empty()) return;  // another stream here still follows it
    streams_.erase(it);
    if (stopped_) return;
  }
  if (left && away_) reads_.Post([this, id = ticket_id] { away_(id); });
}

size_t TicketWatch::size() const {
  absl::MutexLock lock(&mu_);
  size_t n = 0;
  for (const auto& [id, streams] : streams_) n += streams.size();
  return n;
}

void TicketWatch::OnRoom(const std::string& name) {
  if (!absl::StartsWith(name, kWakePrefix)) {
    rooms_->OnRoom(name);
    return;
  }
  std::string id = name.substr(sizeof kWakePrefix - 1);
  {
    absl::MutexLock lock(&mu_);
    if (!streams_.contains(id)) return;  // no stream of it here
  }
  reads_.Post([this, id = std::move(id)] { Refresh({id}, /*heartbeat=*/false); });
}

void TicketWatch::OnResync() {
  rooms_->OnResync();
  reads_.Post([this] {
    std::vector<std::string> ids;
    {
      absl::MutexLock lock(&mu_);
      for (const auto& [id, streams] : streams_) ids.push_back(id);
    }
    if (!ids.empty()) Refresh(ids, /*heartbeat=*/false);
  });
}

void TicketWatch::Refresh(const std::vector<std::string>& ids, bool heartbeat) {
  if (!reader_) return;
  for (const v1::Ticket& t : reader_(ids)) {
    std::vector<TicketStreamPtr> to;
    {
      absl::MutexLock lock(&mu_);
      auto it = streams_.find(t.ticket_id());
      if (it == streams_.end()) continue;
      for (const auto& [raw, s] : it->second) to.push_back(s);
    }
    for (const auto& s : to) s->Offer(t, heartbeat);
  }
}

void TicketWatch::Run() {
  while (true) {
    {
      absl::MutexLock lock(&timer_mu_);
      const absl::Time deadline = absl::Now() + period_;
      while (!stop_timer_ && !timer_cv_.WaitWithDeadline(&timer_mu_, deadline)) {
      }
      if (stop_timer_) break;
    }
    std::vector<std::string> ids;
    {
      absl::MutexLock streams_lock(&mu_);
      for (const auto& [id, streams] : streams_) ids.push_back(id);
    }
    if (!ids.empty()) Refresh(ids, /*heartbeat=*/true);
  }
}

void TicketStream::Offer(const v1::Ticket& t, bool heartbeat) {
  {
    absl::MutexLock lock(&mu_);
    if (ended_ || done_) return;
    std::string bytes = t.SerializeAsString();
    if (!heartbeat && bytes == last_) return;
    last_ = std::move(bytes);
    if (in_flight_) {
      next_ = t;
      has_next_ = true;
      return;
    }
    writing_ = t;
    WriteLocked();
  }
  StartWrite(&writing_);
}

void TicketStream::WriteLocked() {
  in_flight_ = true;
  if (Final(writing_)) {
    final_sent_ = true;
    ended_ = true;  // nothing after the final state
  }
}

void TicketStream::End(const grpc::Status& status) {
  {
    absl::MutexLock lock(&mu_);
    if (finished_) return;
    ended_ = true;
    has_next_ = false;
    if (!final_sent_) end_status_ = status;
    if (in_flight_) return;  // OnWriteDone finishes
    finished_ = true;
  }
  Finish(status);
}

void TicketStream::OnWriteDone(bool ok) {
  std::optional<grpc::Status> finish;
  bool write = false;
  {
    absl::MutexLock lock(&mu_);
    in_flight_ = false;
    if (!ok) {  // the client is gone
      left_ = left_ || !ended_;
      ended_ = true;
    }
    if (ok && !ended_ && has_next_) {
      writing_ = std::move(next_);
      has_next_ = false;
      WriteLocked();
      write = true;
    } else if (ended_ && !finished_) {
      finished_ = true;
      finish = !ok           ? grpc::Status(grpc::StatusCode::CANCELLED, "the stream broke")
               : final_sent_ ? grpc::Status::OK
                             : end_status_;
    }
  }
  if (write) {
    StartWrite(&writing_);
  } else if (finish.has_value()) {
    Finish(*finish);
  }
}

void TicketStream::OnCancel() {
  {
    absl::MutexLock lock(&mu_);
    left_ = left_ || !ended_;  // not after the final state or a drain
  }
  End(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
}

void TicketStream::OnDone() {
  TicketWatch* watch = nullptr;
  std::string ticket;
  bool left = false;
  {
    absl::MutexLock lock(&mu_);
    done_ = true;
    watch = watch_;
    ticket = ticket_id_;
    left = left_;
  }
  if (watch != nullptr) watch->Forget(this, ticket, left);
  TicketStreamPtr keep = std::move(self_);  // the last reference may go with it
}

}  // namespace tablero::matchmaking
