// WatchTicket: quick-match tickets pushed to their players, no polling. Each stream is a
// TicketStream on gRPC's callback API (no thread held while it waits); this replica's
// streams are kept by ticket id. A change to a ticket (matched, cancelled, abandoned) is
// published through the hub as the wake-up name "ticket:<id>" after its commit, exactly
// like a room's events: this replica's streams of that ticket are woken at once, other
// replicas' by their LISTEN. A woken ticket is read once from the database and written
// to each of its streams (and once more as a stream opens, for a change that came between
// its first read and its listing). Nothing polls per stream: one timer reads every
// watched ticket in one statement per `period`, which renews them (a watched ticket is
// not abandoned), sends each stream a heartbeat (the rating window widens as it waits)
// and catches any lost wake-up. When the last stream of a ticket here ends because its
// client went away (not because the ticket was decided or the replica drains), the ticket
// is told away (Away): a player who closed the page is not paired until they are back.
//
// As the hub's listener this also passes every other name (rooms) on to the room feeds.
#ifndef TABLERO_SERVICES_MATCHMAKING_TICKET_WATCH_H_
#define TABLERO_SERVICES_MATCHMAKING_TICKET_WATCH_H_

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "libs/service/work_queue.h"
#include "services/matchmaking/hub.h"
#include "tablero/v1/matchmaking.pb.h"

namespace tablero::matchmaking {

// A WAITING ticket is paired only while its player is there: polled or watched within
// this window, half the time after which an unpolled ticket is cancelled as abandoned
// (the watch renews its tickets at least three times in the abandon time). A ticket told
// away is set back by the window: not paired, and abandoned the other half later unless
// its player polls or watches it again.
inline absl::Duration TicketPresence(absl::Duration abandon) { return abandon / 2; }

class TicketStream;
using TicketStreamPtr = std::shared_ptr<TicketStream>;

class TicketWatch : public Hub::Listener {
 public:
  // Reads the tickets of these ids (those that exist) and renews the WAITING ones.
  using Reader = std::function<std::vector<v1::Ticket>(const std::vector<std::string>& ids)>;
  // Marks a WAITING ticket whose player left (its last stream here closed by the client).
  using Away = std::function<void(const std::string& id)>;
  // Most streams of one ticket on one replica.
  static constexpr int kPerTicket = 8;

  TicketWatch(Hub::Listener* rooms, absl::Duration period);
  ~TicketWatch() override;
  // Both are called on this watch's own worker, never under its locks.
  void Start(Reader reader, Away away);
  // Ends every stream with `status` and stops the timer (the replica drains).
  void Stop(const grpc::Status& status);

  // The hub name of a ticket's wake-up.
  static std::string WakeName(const std::string& ticket_id) { return "ticket:" + ticket_id; }

  // A new stream that owns itself until gRPC is done with it. Before Follow it sends
  // nothing; End refuses it.
  static TicketStreamPtr NewStream();
  // Starts sending `ticket` (read for its owner already) to `s` and every change after.
  // RESOURCE_EXHAUSTED: the ticket has kPerTicket streams here; UNAVAILABLE: stopped.
  absl::Status Follow(const TicketStreamPtr& s, const v1::Ticket& ticket);

  // Hub::Listener.
  void OnRoom(const std::string& name) override;
  void OnCommitted(const std::string& room, absl::Span<const v1::RoomEvent> events) override {
    rooms_->OnCommitted(room, events);  // tickets are woken by name only
  }
  void OnResync() override;

  // Streams open here.
  size_t size() const;

 private:
  friend class TicketStream;
  // `left`: the stream ended because its client went away.
  void Forget(const TicketStream* s, const std::string& ticket_id, bool left);
  // Reads `ids` and writes each ticket to its streams.
  void Refresh(const std::vector<std::string>& ids, bool heartbeat);
  void Run();

  Hub::Listener* rooms_;
  const absl::Duration period_;
  Reader reader_;
  Away away_;
  mutable absl::Mutex mu_;
  // ticket id -> its streams here
  absl::flat_hash_map<std::string, absl::flat_hash_map<const TicketStream*, TicketStreamPtr>>
      streams_ ABSL_GUARDED_BY(mu_);
  bool stopped_ ABSL_GUARDED_BY(mu_) = false;
  absl::Mutex timer_mu_;
  absl::CondVar timer_cv_;
  bool stop_timer_ ABSL_GUARDED_BY(timer_mu_) = false;
  std::thread timer_;
  service::WorkQueue reads_{1};  // wake-ups' reads, off the hub's threads
};

// One WatchTicket stream: the latest ticket waits while a write is in flight (only the
// newest state matters); after writing a MATCHED or CANCELLED ticket it finishes with OK.
class TicketStream final : public grpc::ServerWriteReactor<v1::Ticket> {
 public:
  // Queues `t` unless it is what the stream sent last (a heartbeat sends it anyway).
  void Offer(const v1::Ticket& t, bool heartbeat);
  // Finishes with `status` once no write is in flight (the first end wins).
  void End(const grpc::Status& status);

  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  friend class TicketWatch;
  TicketStream() = default;
  void WriteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  TicketWatch* watch_ ABSL_GUARDED_BY(mu_) = nullptr;  // set by Follow; told on done
  std::string ticket_id_ ABSL_GUARDED_BY(mu_);
  bool done_ ABSL_GUARDED_BY(mu_) = false;   // gRPC's OnDone ran
  v1::Ticket writing_ ABSL_GUARDED_BY(mu_);  // the message in flight
  bool in_flight_ ABSL_GUARDED_BY(mu_) = false;
  bool has_next_ ABSL_GUARDED_BY(mu_) = false;
  v1::Ticket next_ ABSL_GUARDED_BY(mu_);
  std::string last_ ABSL_GUARDED_BY(mu_);  // serialized: the last ticket queued
  bool final_sent_ ABSL_GUARDED_BY(mu_) = false;
  bool ended_ ABSL_GUARDED_BY(mu_) = false;     // no more writes
  bool finished_ ABSL_GUARDED_BY(mu_) = false;  // Finish called
  bool left_ ABSL_GUARDED_BY(mu_) = false;      // the client went away before the end
  grpc::Status end_status_ ABSL_GUARDED_BY(mu_);
  TicketStreamPtr self_;  // until OnDone
};

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_TICKET_WATCH_H_
