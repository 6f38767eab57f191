#include "services/matchmaking/watch_stream.h"

#include "absl/strings/str_cat.h"
#include "libs/service/log.h"

namespace tablero::matchmaking {

struct WriteStarter::Fire final : service::AsyncTag {
  explicit Fire(WriteStarter* s) : starter(s) {}
  void Proceed(bool /*ok*/) override {
    starter->RunAll();
    delete this;  // the alarm has fired: nothing of it is left in gRPC
  }
  WriteStarter* const starter;
  grpc::Alarm alarm;
};

void WriteStarter::Start(std::shared_ptr<WatchStream> stream) {
  absl::MutexLock lock(&mu_);
  const bool armed = !pending_.empty();  // an alarm is set for what is pending
  pending_.push_back(std::move(stream));
  if (armed) return;
  auto* fire = new Fire(this);
  fire->alarm.Set(cq_, gpr_inf_past(GPR_CLOCK_MONOTONIC), static_cast<service::AsyncTag*>(fire));
}

void WriteStarter::RunAll() {
  std::vector<std::shared_ptr<WatchStream>> batch;
  {
    absl::MutexLock lock(&mu_);
    batch.swap(pending_);
  }
  for (const auto& s : batch) s->OnStart();
}

std::shared_ptr<WatchStream> WatchStream::Create(int queue_limit, WatchFraming framing,
                                                 Metrics* metrics, WriteStarter* starter,
                                                 Accepted on_accept) {
  auto s =
      std::make_shared<WatchStream>(queue_limit, framing, metrics, starter, std::move(on_accept));
  s->self_ = s;
  // Before the call starts, as gRPC requires; the tag comes back only if it does start.
  s->ctx_.AsyncNotifyWhenDone(&s->done_tag_);
  return s;
}

WatchStream::WatchStream(int queue_limit, WatchFraming framing, Metrics* metrics,
                         WriteStarter* starter, Accepted on_accept)
    : on_accept_(std::move(on_accept)),
      queue_limit_(queue_limit < 1 ? 1 : queue_limit),
      framing_(framing),
      metrics_(metrics),
      starter_(starter) {}

void WatchStream::Open(std::string room, int64_t after_seq) {
  room_ = std::move(room);
  absl::MutexLock lock(&mu_);
  queued_seq_ = after_seq;
  written_seq_ = after_seq;
  last_write_ = absl::Now();
}

void WatchStream::OnAccept(bool ok) {
  Accepted accept = std::move(on_accept_);
  if (ok) metrics_->watch_streams->Increment();
  // A call that never started gives no other tag back: the stream lives only until `me`
  // goes (declared after `accept`, so it goes first; nothing touches the stream then).
  std::shared_ptr<WatchStream> me = ok ? self_ : std::move(self_);
  accept(ok, me);
}

bool WatchStream::PushBacklog(absl::Span<const EventPtr> events) { return Take(events, false); }

bool WatchStream::AwaitDrained(int room, absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  const absl::Time deadline = absl::Now() + timeout;
  while (!ended_ && static_cast<int>(queue_.size()) > room &&
         !drained_.WaitWithDeadline(&mu_, deadline)) {
  }
  if (!ended_ && static_cast<int>(queue_.size()) > room) {
    EndLocked(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                           "the backlog was read too slowly: call Watch again with after_seq "
                           "set to the last seq you received"),
              WatchEnd::kSlowReader);
  }
  return !ended_;
}

bool WatchStream::PushAll(absl::Span<const EventPtr> events) { return Take(events, true); }

bool WatchStream::Take(absl::Span<const EventPtr> events, bool limited) {
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
                WatchEnd::kUnavailable);
      return false;
    }
    if (limited && static_cast<int>(queue_.size()) >= queue_limit_) {
      EndLocked(grpc::Status(
                    grpc::StatusCode::RESOURCE_EXHAUSTED,
                    absl::StrCat("events arrived faster than this stream read them (", queue_limit_,
                                 " waiting): call Watch again with after_seq set to "
                                 "the last seq you received")),
                WatchEnd::kSlowReader);
      return false;
    }
    queue_.push_back(e);
    queued_seq_ = e->seq();
  }
  // Events taken together go out together: all but the last are buffered (WriteFront).
  if (!writing_ && !queue_.empty()) StartWriting();
  return true;
}

void WatchStream::RoomClosed() {
  absl::MutexLock lock(&mu_);
  if (ended_) return;
  room_closed_ = true;
  if (!writing_ && queue_.empty()) EndLocked(grpc::Status::OK, WatchEnd::kRoomClosed);
}

void WatchStream::Heartbeat(absl::Time now, absl::Duration every, const EventPtr& hb) {
  absl::MutexLock lock(&mu_);
  if (ended_ || !opened_ || writing_ || !queue_.empty() || now - last_write_ < every) return;
  queue_.push_back(hb);
  StartWriting();
}

void WatchStream::End(const grpc::Status& status, WatchEnd reason) {
  absl::MutexLock lock(&mu_);
  EndLocked(status, reason);
}

bool WatchStream::ended() {
  absl::MutexLock lock(&mu_);
  return ended_;
}

void WatchStream::MarkOpened(std::function<void()> on_done) {
  mu_.Lock();
  opened_ = true;
  on_done_ = std::move(on_done);
  ReleaseIfLast();
}

void WatchStream::StartWriting() {
  writing_ = true;
  starting_ = true;
  starter_->Start(self_);  // self_ is set: the stream is not released while writing_
}

void WatchStream::OnStart() {
  mu_.Lock();
  writing_ = false;
  starting_ = false;
  if (ended_) {
    StartFinish();
  } else if (!queue_.empty()) {
    WriteFront();
  } else if (room_closed_) {
    EndLocked(grpc::Status::OK, WatchEnd::kRoomClosed);
  }
  ReleaseIfLast();
}

void WatchStream::WriteFront() {
  writing_ = true;
  in_flight_ = framing_ == WatchFraming::kBatch ? std::min(queue_.size(), kMaxBatch) : 1;
  last_write_ = absl::Now();
  for (size_t i = 0; i < in_flight_; ++i) {
    const WireEvent& e = *queue_[i];
    if (e.seq() > 0) metrics_->watch_fanout->Observe(absl::ToDoubleSeconds(last_write_ - e.time()));
  }
  // More waiting behind it: let gRPC hold this one and send them in one go. Not the
  // stream's first write: it carries the response headers, and gRPC held those with a
  // hinted message until something else on the connection wrote (the stream stalled).
  grpc::WriteOptions options;
  if (queue_.size() > in_flight_ && wrote_) options.set_buffer_hint();
  wrote_ = true;
  if (framing_ == WatchFraming::kBatch) {
    writer_.Write(BatchOf(queue_, in_flight_), options, &write_tag_);  // gRPC refs the slices
  } else {
    writer_.Write(queue_.front()->bytes(), options, &write_tag_);
  }
}

void WatchStream::EndLocked(const grpc::Status& status, WatchEnd reason) {
  if (ended_) return;
  ended_ = true;
  // The events in flight must live until OnWriteDone; the rest is dropped now.
  if (writing_ && !starting_) {
    queue_.resize(in_flight_);
  } else {
    queue_.clear();
  }
  drained_.SignalAll();
  metrics_->watch_ended[static_cast<int>(reason)]->Increment();
  finish_ = status;
  if (!writing_) StartFinish();
}

void WatchStream::StartFinish() {
  if (!finish_ || done_) return;  // a call that is done already takes no Finish
  finishing_ = true;
  writer_.Finish(*finish_, &finish_tag_);
  finish_.reset();
}

void WatchStream::OnWriteDone(bool ok) {
  mu_.Lock();
  writing_ = false;
  for (; in_flight_ > 0 && !queue_.empty(); --in_flight_) {
    if (queue_.front()->seq() > 0) written_seq_ = queue_.front()->seq();
    queue_.pop_front();
  }
  in_flight_ = 0;
  drained_.SignalAll();
  if (ended_) {
    StartFinish();
  } else if (!ok) {
    EndLocked(grpc::Status(grpc::StatusCode::CANCELLED, "the stream broke"), WatchEnd::kClientGone);
  } else if (!queue_.empty()) {
    WriteFront();
  } else if (room_closed_) {
    EndLocked(grpc::Status::OK, WatchEnd::kRoomClosed);
  }
  ReleaseIfLast();
}

void WatchStream::OnFinishDone(bool /*ok*/) {
  mu_.Lock();
  finishing_ = false;
  ReleaseIfLast();
}

void WatchStream::OnCallDone(bool /*ok*/) {
  mu_.Lock();
  done_ = true;
  // Done without our Finish: the client went away (or the server cancelled the call).
  if (ctx_.IsCancelled()) {
    EndLocked(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"), WatchEnd::kClientGone);
  }
  finish_.reset();
  ReleaseIfLast();
}

void WatchStream::ReleaseIfLast() {
  if (released_ || !done_ || !opened_ || writing_ || finishing_) {
    mu_.Unlock();
    return;
  }
  released_ = true;
  queue_.clear();
  std::function<void()> run = std::move(on_done_);
  mu_.Unlock();
  metrics_->watch_streams->Decrement();
  if (run) run();
  self_.reset();  // may destroy this stream: nothing after it
}

}  // namespace tablero::matchmaking
