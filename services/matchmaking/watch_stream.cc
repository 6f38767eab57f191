#include "services/matchmaking/watch_stream.h"

#include "absl/strings/str_cat.h"
#include "libs/service/log.h"

namespace tablero::matchmaking {

std::shared_ptr<WatchStream> WatchStream::Create(std::string room, int64_t after_seq,
                                                 int queue_limit, Metrics* metrics) {
  auto s = std::make_shared<WatchStream>(std::move(room), after_seq, queue_limit, metrics);
  s->self_ = s;
  metrics->watch_streams->Increment();
  return s;
}

WatchStream::WatchStream(std::string room, int64_t after_seq, int queue_limit, Metrics* metrics)
    : room_(std::move(room)),
      queue_limit_(queue_limit < 1 ? 1 : queue_limit),
      metrics_(metrics),
      queued_seq_(after_seq),
      written_seq_(after_seq),
      last_write_(absl::Now()) {}

bool WatchStream::PushBacklog(const EventPtr& e) { return Take({&e, 1}, false); }

bool WatchStream::AwaitDrained(int room, absl::Duration timeout) {
  std::optional<grpc::Status> finish;
  bool alive;
  {
    absl::MutexLock lock(&mu_);
    const absl::Time deadline = absl::Now() + timeout;
    while (!ended_ && static_cast<int>(queue_.size()) > room &&
           !drained_.WaitWithDeadline(&mu_, deadline)) {
    }
    if (!ended_ && static_cast<int>(queue_.size()) > room) {
      EndLocked(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                             "the backlog was read too slowly: call Watch again with after_seq "
                             "set to the last seq you received"),
                WatchEnd::kSlowReader, &finish);
    }
    alive = !ended_;
  }
  if (finish) Finish(*finish);
  return alive;
}

bool WatchStream::PushAll(absl::Span<const EventPtr> events) { return Take(events, true); }

bool WatchStream::Take(absl::Span<const EventPtr> events, bool limited) {
  std::optional<grpc::Status> finish;
  bool keep = true;
  {
    absl::MutexLock lock(&mu_);
    if (ended_) return false;
    for (const EventPtr& e : events) {
      if (e->seq() <= queued_seq_) continue;  // had it already
      if (e->seq() != queued_seq_ + 1) {
        // Feeds deliver in seq order without gaps; should that ever break, the client
        // resumes instead of silently missing an event.
        EndLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                               absl::StrCat("the stream lost its place: resume with after_seq=",
                                            written_seq_)),
                  WatchEnd::kUnavailable, &finish);
        keep = false;
        break;
      }
      if (limited && static_cast<int>(queue_.size()) >= queue_limit_) {
        EndLocked(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                               absl::StrCat("events arrived faster than this stream read them (",
                                            queue_limit_,
                                            " waiting): call Watch again with after_seq set to "
                                            "the last seq you received")),
                  WatchEnd::kSlowReader, &finish);
        keep = false;
        break;
      }
      queue_.push_back(e);
      queued_seq_ = e->seq();
    }
    // Events taken together go out together: all but the last are buffered (WriteFront).
    if (keep && !writing_ && !queue_.empty()) WriteFront();
  }
  if (finish) Finish(*finish);
  return keep;
}

void WatchStream::RoomClosed() {
  std::optional<grpc::Status> finish;
  {
    absl::MutexLock lock(&mu_);
    if (ended_) return;
    room_closed_ = true;
    if (!writing_ && queue_.empty()) EndLocked(grpc::Status::OK, WatchEnd::kRoomClosed, &finish);
  }
  if (finish) Finish(*finish);
}

void WatchStream::Heartbeat(absl::Time now, absl::Duration every, const EventPtr& hb) {
  absl::MutexLock lock(&mu_);
  if (ended_ || !opened_ || writing_ || !queue_.empty() || now - last_write_ < every) return;
  queue_.push_back(hb);
  WriteFront();
}

void WatchStream::End(const grpc::Status& status, WatchEnd reason) {
  std::optional<grpc::Status> finish;
  {
    absl::MutexLock lock(&mu_);
    EndLocked(status, reason, &finish);
  }
  if (finish) Finish(*finish);
}

bool WatchStream::ended() {
  absl::MutexLock lock(&mu_);
  return ended_;
}

void WatchStream::MarkOpened(std::function<void()> on_done) {
  std::function<void()> run;
  {
    absl::MutexLock lock(&mu_);
    opened_ = true;
    if (done_) {
      run = std::move(on_done);
    } else {
      on_done_ = std::move(on_done);
    }
  }
  if (run) run();
}

void WatchStream::WriteFront() {
  writing_ = true;
  const WireEvent& e = *queue_.front();
  last_write_ = absl::Now();
  if (e.seq() > 0) metrics_->watch_fanout->Observe(absl::ToDoubleSeconds(last_write_ - e.time()));
  // More waiting behind it: let gRPC hold this one and send them in one go.
  grpc::WriteOptions options;
  if (queue_.size() > 1) options.set_buffer_hint();
  StartWrite(&e.bytes(), options);
}

void WatchStream::EndLocked(const grpc::Status& status, WatchEnd reason,
                            std::optional<grpc::Status>* finish) {
  if (ended_) return;
  ended_ = true;
  // The event in flight must live until OnWriteDone; the rest is dropped now.
  if (writing_) {
    queue_.resize(1);
  } else {
    queue_.clear();
  }
  drained_.SignalAll();
  metrics_->watch_ended[static_cast<int>(reason)]->Increment();
  *finish = status;
}

void WatchStream::OnWriteDone(bool ok) {
  std::optional<grpc::Status> finish;
  {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    if (!queue_.empty()) {
      if (queue_.front()->seq() > 0) written_seq_ = queue_.front()->seq();
      queue_.pop_front();
      drained_.SignalAll();
    }
    if (ended_) return;
    if (!ok) {
      EndLocked(grpc::Status(grpc::StatusCode::CANCELLED, "the stream broke"),
                WatchEnd::kClientGone, &finish);
    } else if (!queue_.empty()) {
      WriteFront();
    } else if (room_closed_) {
      EndLocked(grpc::Status::OK, WatchEnd::kRoomClosed, &finish);
    }
  }
  if (finish) Finish(*finish);
}

void WatchStream::OnCancel() {
  End(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"), WatchEnd::kClientGone);
}

void WatchStream::OnDone() {
  std::function<void()> run;
  {
    absl::MutexLock lock(&mu_);
    done_ = true;
    queue_.clear();
    run = std::move(on_done_);
    on_done_ = nullptr;
  }
  metrics_->watch_streams->Decrement();
  if (run) run();
  self_.reset();  // may destroy this stream: nothing after it
}

}  // namespace tablero::matchmaking
