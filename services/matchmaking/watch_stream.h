// One Watch stream on gRPC's callback API: no thread is held while it is idle. Events
// reach it from the room's feed (feeds.h) and wait in a bounded queue while the client
// reads; a client that falls `queue_limit` events behind is ended with RESOURCE_EXHAUSTED
// and told to resume from the last seq it received, so a slow reader costs the replica
// a bounded amount of memory. Heartbeats come from the replica's timer (watchers.h).
//
// Lifetime: the stream holds itself from construction until gRPC's OnDone; the feed and
// the registry hold it too while it is subscribed. `on_done` runs once, after OnDone and
// after the stream's opening work (MarkOpened or MarkOpenFailed), whichever is last.
#ifndef TABLERO_SERVICES_MATCHMAKING_WATCH_STREAM_H_
#define TABLERO_SERVICES_MATCHMAKING_WATCH_STREAM_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/matchmaking/feeds.h"
#include "services/matchmaking/mm_metrics.h"

namespace tablero::matchmaking {

class WatchStream final : public grpc::ServerWriteReactor<grpc::ByteBuffer>, public Subscriber {
 public:
  // Creates a stream that owns itself until gRPC is done with it.
  static std::shared_ptr<WatchStream> Create(std::string room, int64_t after_seq, int queue_limit,
                                             Metrics* metrics);
  WatchStream(std::string room, int64_t after_seq, int queue_limit, Metrics* metrics);

  const std::string& room() const { return room_; }

  // Subscriber.
  bool PushAll(absl::Span<const EventPtr> events) override;
  bool PushBacklog(const EventPtr& e) override;
  bool AwaitDrained(int room, absl::Duration timeout) override;
  void RoomClosed() override;

  // Writes `hb` if the stream is open, idle and has written nothing for `every`.
  void Heartbeat(absl::Time now, absl::Duration every, const EventPtr& hb);
  // Ends the stream with `status` (the first end wins; later calls do nothing).
  void End(const grpc::Status& status, WatchEnd reason);
  bool ended();

  // The opening work (authentication, presence, backlog) is over: heartbeats may start.
  // Runs `on_done` now if gRPC is done already, else when it is.
  void MarkOpened(std::function<void()> on_done);

  // grpc::ServerWriteReactor.
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  // PushAll and PushBacklog: `limited` holds the events to the queue limit.
  bool Take(absl::Span<const EventPtr> events, bool limited);
  // Starts writing the queue's front. Requires !writing_.
  void WriteFront() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Marks the stream ended; the caller calls Finish(*finish) after unlocking.
  void EndLocked(const grpc::Status& status, WatchEnd reason, std::optional<grpc::Status>* finish)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string room_;
  const int queue_limit_;
  Metrics* const metrics_;
  absl::Mutex mu_;
  absl::CondVar drained_;                            // the queue got shorter, or the stream ended
  std::deque<EventPtr> queue_ ABSL_GUARDED_BY(mu_);  // the front is in flight while writing_
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool ended_ ABSL_GUARDED_BY(mu_) = false;
  bool room_closed_ ABSL_GUARDED_BY(mu_) = false;  // end with OK once the queue is written
  bool opened_ ABSL_GUARDED_BY(mu_) = false;
  bool done_ ABSL_GUARDED_BY(mu_) = false;    // gRPC's OnDone ran
  int64_t queued_seq_ ABSL_GUARDED_BY(mu_);   // the last event's seq taken into the queue
  int64_t written_seq_ ABSL_GUARDED_BY(mu_);  // the last event's seq written
  absl::Time last_write_ ABSL_GUARDED_BY(mu_);
  std::function<void()> on_done_ ABSL_GUARDED_BY(mu_);
  std::shared_ptr<WatchStream> self_;  // until OnDone
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_WATCH_STREAM_H_
