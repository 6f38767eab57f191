// One feed per room per replica: the room's Watch streams on this replica share it. A
// wake-up (another replica's NOTIFY through the hub, or a commit of this one whose events
// are not at hand) makes the feed read the room's new events once, and every subscribed
// stream is written from that one read. A commit of this replica whose events are exactly
// the feed's next ones (a move, the usual case) is written from memory, with no read.
// No stream reads Postgres on its own once it has joined, and nothing polls per stream:
// lost notifications are caught by OnResync (the LISTEN connection came back) and by a
// slow safety sweep, each one query for every room with subscribers (CatchUp).
//
// Joining: a new stream reads its backlog (seq > after_seq) from the database in pages,
// then joins the feed under the feed's lock, taking from the feed's last few events
// (kept in memory) whatever was appended after its own read. If the feed has moved on
// further than those, it reads again. So a stream gets every event once, in seq order.
//
// Threads: Join and CatchUp block on the database (the caller's thread); wake-ups only
// queue a read for the feed's reader threads. Subscriber::Push is called under the feed's
// lock and must not block or call back into the feeds.
#ifndef TABLERO_SERVICES_MATCHMAKING_FEEDS_H_
#define TABLERO_SERVICES_MATCHMAKING_FEEDS_H_

#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/slice.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "libs/pg/pool.h"
#include "libs/service/work_queue.h"
#include "services/matchmaking/hub.h"
#include "services/matchmaking/mm_metrics.h"
#include "tablero/v1/matchmaking.pb.h"

namespace tablero::matchmaking {

namespace v1 = ::tablero::v1;

// A room event as the streams write it: serialized once (the stored body is the
// serialization) and shared, read-only, by every stream that writes it.
class WireEvent {
 public:
  // From an event's stored body; nullptr if it is no RoomEvent.
  static std::shared_ptr<const WireEvent> FromBody(const std::string& body);
  static std::shared_ptr<const WireEvent> FromMessage(const v1::RoomEvent& e);
  int64_t seq() const { return seq_; }  // 0: a heartbeat
  absl::Time time() const { return time_; }
  const grpc::ByteBuffer& bytes() const { return bytes_; }
  // The event as a field of a RoomEventBatch (WatchBatches): the field's key and length,
  // then the event's bytes (shared, not copied).
  void AppendBatchField(std::vector<grpc::Slice>* out) const {
    out->push_back(batch_key_);
    out->push_back(body_);
  }

 private:
  int64_t seq_ = 0;
  absl::Time time_;
  grpc::Slice body_;
  grpc::Slice batch_key_;
  grpc::ByteBuffer bytes_;
};
using EventPtr = std::shared_ptr<const WireEvent>;

// The first `n` of `events` as one RoomEventBatch message, built from the events' stored
// bytes without parsing or copying them.
grpc::ByteBuffer BatchOf(const std::deque<EventPtr>& events, size_t n);

// A reader of a room's events (a Watch stream).
class Subscriber {
 public:
  virtual ~Subscriber() = default;
  // The room's next events (one read's, in seq order), written out together. A
  // subscriber skips seqs it already has (a joining stream may see an event both in its
  // backlog and from the feed). False: it has ended and leaves the feed.
  virtual bool PushAll(absl::Span<const EventPtr> events) = 0;
  // The same for a joining stream's backlog (a page, or what the feed keeps): not held to
  // the stream's queue limit, since Join paces the backlog itself with AwaitDrained.
  virtual bool PushBacklog(absl::Span<const EventPtr> events) = 0;
  // Waits until the subscriber has written what it holds but `room` events, or `timeout`
  // (then it ends as a slow reader). False: it has ended.
  virtual bool AwaitDrained(int room, absl::Duration timeout) = 0;
  // The room closed after the events pushed: none will follow.
  virtual void RoomClosed() = 0;
};

struct FeedOptions {
  int readers = 2;  // threads reading rooms' new events
  int page = 256;   // events per read
  int recent = 64;  // events each feed keeps for streams joining it
  absl::Duration backlog_patience = absl::Seconds(10);  // for a joining stream to read a page
};

class Feeds : public Hub::Listener {
 public:
  Feeds(pg::Pool* pool, FeedOptions options, Metrics* metrics);
  ~Feeds() override;

  // Delivers the room's events after `after_seq` to `sub` and subscribes it to the rest.
  // Blocks on the database. NOT_FOUND: no such room (or closed before anything was
  // delivered); UNAVAILABLE: the database. On OK the subscriber stays until Leave, unless
  // the room closed (then RoomClosed was called and it is not subscribed).
  absl::Status Join(const std::string& room, const std::shared_ptr<Subscriber>& sub,
                    int64_t after_seq);
  void Leave(const std::string& room, const Subscriber* sub);

  // Hub::Listener: a room may have new events (queues one read of the room's feed), or
  // any room may (queues CatchUp).
  void OnRoom(const std::string& room) override;
  void OnResync() override;
  // Hub::Listener: written from memory if they follow the feed's head at once, else as
  // OnRoom. Queued for the readers like a read (the committing call does not wait).
  void OnCommitted(const std::string& room, absl::Span<const v1::RoomEvent> events) override;

  // One query for every room with subscribers; rooms whose log moved past their feed (or
  // closed) are read. Blocks on the database. The safety sweep calls it.
  absl::Status CatchUp();

  // Rooms with a feed on this replica.
  size_t rooms() const;

 private:
  struct Feed;
  struct Page;
  absl::Status Read(const std::string& room, int64_t after, Page* out);
  void Fetch(const std::string& room, const std::shared_ptr<Feed>& f);
  // Takes the events that follow the feed's head (seq order; others are skipped) and
  // writes them to the live streams.
  void Advance(Feed& f, absl::Span<const EventPtr> events);
  // A commit's events, from memory; then reads if woken meanwhile (as Fetch).
  void Deliver(const std::string& room, const std::shared_ptr<Feed>& f,
               const std::vector<EventPtr>& events);
  // Join's last step under the feed's lock: the events the feed kept after *last, then
  // the live set. False: the feed is further ahead than it keeps (read the gap first).
  bool TryJoinLive(const std::shared_ptr<Feed>& f, const std::shared_ptr<Subscriber>& sub,
                   int64_t* last, bool* started);
  void DropIfUnused(const std::string& room, const std::shared_ptr<Feed>& f)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  pg::Pool* pool_;
  FeedOptions options_;
  Metrics* metrics_;
  mutable absl::Mutex mu_;  // the map; taken before any feed's lock
  absl::flat_hash_map<std::string, std::shared_ptr<Feed>> feeds_ ABSL_GUARDED_BY(mu_);
  absl::Mutex resync_mu_;
  bool resync_queued_ ABSL_GUARDED_BY(resync_mu_) = false;
  service::WorkQueue readers_;  // last member: its threads stop first
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_FEEDS_H_
