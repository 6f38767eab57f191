// One Watch stream on gRPC's async API, on one of the replica's Watch completion queues
// (api.h: ServeWatch): no thread is held while it is idle. Events reach it from the room's
// feed (feeds.h) and wait in a bounded queue while the client reads; a client that falls
// `queue_limit` events behind is ended with RESOURCE_EXHAUSTED and told to resume from
// the last seq it received, so a slow reader costs the replica a bounded amount of memory.
// Heartbeats come from the replica's timer (watchers.h). A Watch stream writes one event
// per message; a WatchBatches stream writes what is queued (up to kMaxBatch events) as one
// RoomEventBatch, so a move's events cost one write per stream instead of two or three.
//
// Why not the callback API (as the unary methods): Debian's libgrpc is built with its
// debug checks, and every operation on a completion queue searches the list of operations
// pending on that queue. The callback API puts every call of the process on one queue,
// and each open stream keeps one operation pending there for its whole life, so with
// 20,000 idle streams every heartbeat and every unary call's operation searched 20,000
// entries under that queue's one lock (a third of the replica's CPU under load, in perf).
// Streams here spread over --watch_queues queues of their own.
//
// Writes start on the stream's own completion queue's thread (WriteStarter): events and
// heartbeats come from other threads (a feed's reader, the heartbeat timer), and a write
// started there would wake the queue's thread once per stream for its completion; through
// the starter, one wake-up of each queue's thread starts the writes of all its streams
// that have something new, and their completions find that thread still running.
//
// Lifetime: the stream holds itself from Create until gRPC has returned every one of its
// tags (the done notification, and the write and finish in flight); the feed and the
// registry hold it too while it is subscribed. `on_done` runs once, after the call is
// done and after the stream's opening work (MarkOpened), whichever is last.
#ifndef TABLERO_SERVICES_MATCHMAKING_WATCH_STREAM_H_
#define TABLERO_SERVICES_MATCHMAKING_WATCH_STREAM_H_

#include <grpcpp/alarm.h>
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "libs/service/server.h"
#include "services/matchmaking/feeds.h"
#include "services/matchmaking/mm_metrics.h"

namespace tablero::matchmaking {

class WatchStream;

// How a stream frames its events: Watch's one event per message, or WatchBatches'.
enum class WatchFraming { kEvent, kBatch };

// Starts streams' writes on one completion queue's thread: Start may be called from any
// thread; the first Start of a batch sets an alarm that fires at once on the queue, and
// its thread then starts the writes of every stream started meanwhile.
class WriteStarter {
 public:
  explicit WriteStarter(grpc::CompletionQueue* cq) : cq_(cq) {}
  WriteStarter(const WriteStarter&) = delete;
  WriteStarter& operator=(const WriteStarter&) = delete;
  void Start(std::shared_ptr<WatchStream> stream);

 private:
  struct Fire;    // the alarm's tag: one per batch
  void RunAll();  // on the queue's thread

  grpc::CompletionQueue* const cq_;
  absl::Mutex mu_;
  // Not empty exactly while an alarm is set.
  std::vector<std::shared_ptr<WatchStream>> pending_ ABSL_GUARDED_BY(mu_);
};

class WatchStream final : public Subscriber {
 public:
  // What the acceptor does once a call arrived in a stream (ok), or did not (the server is
  // shutting down: the stream is dropped once this returns).
  using Accepted = std::function<void(bool ok, const std::shared_ptr<WatchStream>& stream)>;
  // A stream waiting for a call: the acceptor requests one into context(), request() and
  // writer() with accept_tag(), whose outcome goes to `on_accept`. It owns itself until
  // gRPC is done with it.
  // `starter` belongs to the queue the stream's call is requested on.
  static std::shared_ptr<WatchStream> Create(int queue_limit, WatchFraming framing,
                                             Metrics* metrics, WriteStarter* starter,
                                             Accepted on_accept);
  WatchStream(int queue_limit, WatchFraming framing, Metrics* metrics, WriteStarter* starter,
              Accepted on_accept);

  // The most events one WatchBatches message holds.
  static constexpr size_t kMaxBatch = 64;

  grpc::ServerContext* context() { return &ctx_; }
  grpc::ByteBuffer* request() { return &request_; }
  grpc::ServerAsyncWriter<grpc::ByteBuffer>* writer() { return &writer_; }
  void* accept_tag() { return &accept_tag_; }

  // The call's request, once parsed (before any other use of the stream).
  void Open(std::string room, int64_t after_seq);
  const std::string& room() const { return room_; }

  // Subscriber.
  bool PushAll(absl::Span<const EventPtr> events) override;
  bool PushBacklog(absl::Span<const EventPtr> events) override;
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

 private:
  // One of the stream's operations on its completion queue.
  struct Tag final : service::AsyncTag {
    Tag(WatchStream* s, void (WatchStream::*fn)(bool)) : stream(s), on(fn) {}
    void Proceed(bool ok) override { (stream->*on)(ok); }
    WatchStream* stream;
    void (WatchStream::*on)(bool);
  };

  friend class WriteStarter;

  void OnAccept(bool ok);
  void OnStart();  // the starter's turn came: write what is queued (or finish)
  void OnWriteDone(bool ok);
  void OnFinishDone(bool ok);
  void OnCallDone(bool ok);

  // PushAll and PushBacklog: `limited` holds the events to the queue limit.
  bool Take(absl::Span<const EventPtr> events, bool limited);
  // From another thread than the queue's: hands the queue's front to the starter (the
  // stream counts as writing until OnStart). Requires !writing_.
  void StartWriting() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // On the queue's thread: writes the queue's front (a batch's worth of it for
  // WatchBatches). Requires !writing_.
  void WriteFront() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Marks the stream ended and finishes the call with `status` once no write is in flight.
  void EndLocked(const grpc::Status& status, WatchEnd reason) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void StartFinish() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Once the call is done, the opening work over and no write or finish in flight (the
  // stream's last tag is back): runs the done work after unlocking, and the stream lets go
  // of itself. Otherwise only unlocks.
  void ReleaseIfLast() ABSL_UNLOCK_FUNCTION(mu_);

  grpc::ServerContext ctx_;
  grpc::ByteBuffer request_;
  grpc::ServerAsyncWriter<grpc::ByteBuffer> writer_{&ctx_};
  Tag accept_tag_{this, &WatchStream::OnAccept};
  Tag write_tag_{this, &WatchStream::OnWriteDone};
  Tag finish_tag_{this, &WatchStream::OnFinishDone};
  Tag done_tag_{this, &WatchStream::OnCallDone};
  Accepted on_accept_;  // once

  std::string room_;  // set by Open, before the stream is shared
  const int queue_limit_;
  const WatchFraming framing_;
  Metrics* const metrics_;
  WriteStarter* const starter_;
  absl::Mutex mu_;
  absl::CondVar drained_;  // the queue got shorter, or the stream ended
  // The first `in_flight_` events are in flight while writing_ (and not starting_).
  std::deque<EventPtr> queue_ ABSL_GUARDED_BY(mu_);
  size_t in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  // A write is in flight, or the starter is to start one (then nothing is in flight yet).
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool starting_ ABSL_GUARDED_BY(mu_) = false;  // the starter holds the stream
  bool wrote_ ABSL_GUARDED_BY(mu_) = false;     // a write was started (headers sent)
  bool ended_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> finish_ ABSL_GUARDED_BY(mu_);  // to send once no write is in flight
  bool finishing_ ABSL_GUARDED_BY(mu_) = false;              // Finish in flight
  bool room_closed_ ABSL_GUARDED_BY(mu_) = false;  // end with OK once the queue is written
  bool opened_ ABSL_GUARDED_BY(mu_) = false;
  bool done_ ABSL_GUARDED_BY(mu_) = false;  // the call is done (done tag back)
  bool released_ ABSL_GUARDED_BY(mu_) = false;
  int64_t queued_seq_ ABSL_GUARDED_BY(mu_) = 0;   // the last event's seq taken into the queue
  int64_t written_seq_ ABSL_GUARDED_BY(mu_) = 0;  // the last event's seq written
  absl::Time last_write_ ABSL_GUARDED_BY(mu_);
  std::function<void()> on_done_ ABSL_GUARDED_BY(mu_);
  std::shared_ptr<WatchStream> self_;  // until every tag is back
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_WATCH_STREAM_H_
