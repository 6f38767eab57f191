#include "services/matchmaking/feeds.h"

#include <google/protobuf/io/coded_stream.h>

#include "absl/strings/str_cat.h"
#include "libs/pg/prepared.h"
#include "libs/service/log.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {

std::shared_ptr<const WireEvent> WireEvent::FromBody(const std::string& body) {
  v1::RoomEvent e;
  if (!e.ParseFromString(body)) return nullptr;
  auto w = std::make_shared<WireEvent>();
  w->seq_ = e.seq();
  w->time_ = absl::FromUnixSeconds(e.time().seconds()) + absl::Nanoseconds(e.time().nanos());
  w->body_ = grpc::Slice(body);
  w->bytes_ = grpc::ByteBuffer(&w->body_, 1);
  // RoomEventBatch.events: field 1, length-delimited (wire type 2), then the length.
  uint8_t key[1 + 5] = {(1 << 3) | 2};
  uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint32ToArray(
      static_cast<uint32_t>(body.size()), key + 1);
  w->batch_key_ = grpc::Slice(key, static_cast<size_t>(end - key));
  return w;
}

grpc::ByteBuffer BatchOf(const std::deque<EventPtr>& events, size_t n) {
  std::vector<grpc::Slice> slices;
  slices.reserve(2 * n);
  for (size_t i = 0; i < n && i < events.size(); ++i) events[i]->AppendBatchField(&slices);
  return grpc::ByteBuffer(slices.data(), slices.size());
}

std::shared_ptr<const WireEvent> WireEvent::FromMessage(const v1::RoomEvent& e) {
  return FromBody(e.SerializeAsString());
}

struct Feeds::Feed {
  absl::Mutex mu;
  // The last seq delivered to the live subscribers; -1 until the first one joins.
  int64_t head ABSL_GUARDED_BY(mu) = -1;
  std::deque<EventPtr> recent ABSL_GUARDED_BY(mu);  // the last events, up to head
  std::vector<std::shared_ptr<Subscriber>> live ABSL_GUARDED_BY(mu);
  bool fetching ABSL_GUARDED_BY(mu) = false;  // a read is queued or running
  bool dirty ABSL_GUARDED_BY(mu) = false;     // woken again during that read
  bool closed ABSL_GUARDED_BY(mu) = false;
  int joining = 0;  // streams between Join's start and end (guarded by Feeds::mu_)
};

struct Feeds::Page {
  bool exists = false, closed = false;
  std::vector<EventPtr> events;
};

Feeds::Feeds(pg::Pool* pool, FeedOptions options, Metrics* metrics)
    : pool_(pool), options_(options), metrics_(metrics), readers_(options.readers) {}

Feeds::~Feeds() = default;

size_t Feeds::rooms() const {
  absl::MutexLock lock(&mu_);
  return feeds_.size();
}

absl::Status Feeds::Read(const std::string& room, int64_t after, Page* out) {
  return pool_->Read([&](pqxx::transaction_base& t) {
    *out = Page{};
    // One autocommit statement: whether the room is closed, and its next events.
    pqxx::result r = pg::ExecPrepared(
        t, "feed_read",
        "SELECT r.closed, e.body FROM rooms r LEFT JOIN LATERAL (SELECT body, seq FROM "
        "events WHERE room_id = r.id AND seq > $2 ORDER BY seq LIMIT $3) e ON true "
        "WHERE r.id = $1 ORDER BY e.seq",
        room, after, options_.page);
    if (r.empty()) return absl::OkStatus();
    out->exists = true;
    out->closed = r[0][0].as<bool>();
    for (const auto& row : r) {
      if (row[1].is_null()) continue;
      EventPtr e = WireEvent::FromBody(FieldBytes(row[1]));
      if (e == nullptr) return absl::InternalError("an event's stored body does not parse");
      out->events.push_back(std::move(e));
    }
    return absl::OkStatus();
  });
}

absl::Status Feeds::Join(const std::string& room, const std::shared_ptr<Subscriber>& sub,
                         int64_t after_seq) {
  std::shared_ptr<Feed> f;
  {
    // The feed exists from here on, so wake-ups for the room are not dropped meanwhile.
    absl::MutexLock lock(&mu_);
    std::shared_ptr<Feed>& slot = feeds_[room];
    if (slot == nullptr) {
      slot = std::make_shared<Feed>();
      metrics_->watch_rooms->Set(static_cast<double>(feeds_.size()));
    }
    f = slot;
    ++f->joining;
  }
  bool started = false;  // this stream set the feed's head: the feed reads once now
  auto done = [&](absl::Status s) {
    {
      absl::MutexLock lock(&mu_);
      --f->joining;
      DropIfUnused(room, f);
    }
    if (started) OnRoom(room);
    return s;
  };
  int64_t last = after_seq;
  bool first = true;
  while (true) {
    Page p;
    if (absl::Status s = Read(room, last, &p); !s.ok()) return done(s);
    if (!p.exists || (first && p.closed && p.events.empty())) {
      return done(absl::NotFoundError("room not found"));
    }
    first = false;
    // A page at once: queued together, it goes out in as few writes as the framing allows.
    if (!sub->PushBacklog(p.events)) return done(absl::OkStatus());  // the stream ended
    if (!p.events.empty()) last = p.events.back()->seq();
    if (static_cast<int>(p.events.size()) == options_.page) {
      // A long backlog goes at the client's pace, one page held at a time.
      if (!sub->AwaitDrained(options_.page, options_.backlog_patience)) {
        return done(absl::OkStatus());
      }
      continue;
    }
    if (p.closed) {
      sub->RoomClosed();
      return done(absl::OkStatus());
    }
    if (TryJoinLive(f, sub, &last, &started)) return done(absl::OkStatus());
    // The feed moved on past the events it keeps: read the gap, then try again.
  }
}

bool Feeds::TryJoinLive(const std::shared_ptr<Feed>& f, const std::shared_ptr<Subscriber>& sub,
                        int64_t* last, bool* started) {
  absl::MutexLock lock(&f->mu);
  if (f->head < 0) {
    f->head = *last;
    *started = true;
  }
  const int64_t first_kept = f->recent.empty() ? f->head + 1 : f->recent.front()->seq();
  if (*last + 1 < first_kept) return false;
  std::vector<EventPtr> kept;
  for (const EventPtr& e : f->recent) {
    if (e->seq() > *last) kept.push_back(e);
  }
  if (!sub->PushBacklog(kept)) return true;  // the stream ended meanwhile
  if (!kept.empty()) *last = kept.back()->seq();
  if (f->closed) {
    sub->RoomClosed();
  } else {
    f->live.push_back(sub);
  }
  return true;
}

void Feeds::Leave(const std::string& room, const Subscriber* sub) {
  absl::MutexLock lock(&mu_);
  auto it = feeds_.find(room);
  if (it == feeds_.end()) return;
  std::shared_ptr<Feed> f = it->second;
  {
    absl::MutexLock l2(&f->mu);
    auto& live = f->live;
    for (size_t i = 0; i < live.size(); ++i) {
      if (live[i].get() == sub) {
        live[i] = std::move(live.back());
        live.pop_back();
        break;
      }
    }
  }
  DropIfUnused(room, f);
}

void Feeds::DropIfUnused(const std::string& room, const std::shared_ptr<Feed>& f) {
  if (f->joining > 0) return;
  {
    absl::MutexLock lock(&f->mu);
    if (!f->live.empty()) return;
  }
  auto it = feeds_.find(room);
  if (it != feeds_.end() && it->second == f) feeds_.erase(it);
  metrics_->watch_rooms->Set(static_cast<double>(feeds_.size()));
}

void Feeds::OnRoom(const std::string& room) {
  std::shared_ptr<Feed> f;
  {
    absl::MutexLock lock(&mu_);
    auto it = feeds_.find(room);
    if (it == feeds_.end()) return;  // nobody here watches the room
    f = it->second;
  }
  {
    absl::MutexLock lock(&f->mu);
    if (f->fetching) {
      f->dirty = true;  // the read under way reads once more
      return;
    }
    f->fetching = true;
  }
  readers_.Post([this, room, f] { Fetch(room, f); });
}

void Feeds::Fetch(const std::string& room, const std::shared_ptr<Feed>& f) {
  while (true) {
    int64_t head;
    {
      absl::MutexLock lock(&f->mu);
      f->dirty = false;
      head = f->head;
      if (head < 0 || f->closed || f->live.empty()) {  // nobody to write to (yet)
        f->fetching = false;
        return;
      }
    }
    Page p;
    absl::Status s = Read(room, head, &p);
    absl::MutexLock lock(&f->mu);
    if (!s.ok()) {
      // The next wake-up, the listener's resync or the safety sweep reads it again.
      service::Log(service::Level::kDebug, "room feed read failed",
                   {{"room", room}, {"error", std::string(s.message())}});
      f->fetching = false;
      return;
    }
    metrics_->watch_feed_reads->Increment();
    Advance(*f, p.events);
    const bool full = static_cast<int>(p.events.size()) == options_.page;
    if (!p.exists || (p.closed && !full)) {
      f->closed = true;
      for (auto& sub : f->live) sub->RoomClosed();
      f->live.clear();
      f->fetching = false;
      return;
    }
    if (!full && !f->dirty) {
      f->fetching = false;
      return;
    }
  }
}

void Feeds::Advance(Feed& f, absl::Span<const EventPtr> events) {
  f.mu.AssertHeld();
  std::vector<EventPtr> fresh;
  for (const EventPtr& e : events) {
    if (e->seq() != f.head + 1) continue;  // already delivered
    f.head = e->seq();
    f.recent.push_back(e);
    if (static_cast<int>(f.recent.size()) > options_.recent) f.recent.pop_front();
    fresh.push_back(e);
  }
  if (fresh.empty()) return;
  auto& live = f.live;
  for (size_t i = 0; i < live.size();) {
    if (live[i]->PushAll(fresh)) {
      ++i;
    } else {
      live[i] = std::move(live.back());
      live.pop_back();
    }
  }
}

void Feeds::OnCommitted(const std::string& room, absl::Span<const v1::RoomEvent> events) {
  std::shared_ptr<Feed> f;
  {
    absl::MutexLock lock(&mu_);
    auto it = feeds_.find(room);
    if (it == feeds_.end()) return;  // nobody here watches the room
    f = it->second;
  }
  bool next;
  {
    absl::MutexLock lock(&f->mu);
    // Exactly the feed's next events, and no read under way (it may be reading them).
    next = !events.empty() && !f->fetching && f->head >= 0 && !f->closed &&
           events.front().seq() == f->head + 1 &&
           events.back().seq() == events.front().seq() + static_cast<int64_t>(events.size()) - 1;
    if (next) f->fetching = true;
  }
  if (!next) {
    OnRoom(room);
    return;
  }
  std::vector<EventPtr> wire;
  wire.reserve(events.size());
  for (const v1::RoomEvent& e : events) wire.push_back(WireEvent::FromMessage(e));
  readers_.Post([this, room, f, wire = std::move(wire)] { Deliver(room, f, wire); });
}

void Feeds::Deliver(const std::string& room, const std::shared_ptr<Feed>& f,
                    const std::vector<EventPtr>& events) {
  {
    absl::MutexLock lock(&f->mu);
    metrics_->watch_feed_commits->Increment();
    Advance(*f, events);
    if (!f->dirty) {
      f->fetching = false;
      return;
    }
  }
  Fetch(room, f);  // woken meanwhile: read what else came
}

void Feeds::OnResync() {
  {
    absl::MutexLock lock(&resync_mu_);
    if (resync_queued_) return;
    resync_queued_ = true;
  }
  readers_.Post([this] {
    {
      absl::MutexLock lock(&resync_mu_);
      resync_queued_ = false;
    }
    absl::Status s = CatchUp();
    if (!s.ok()) {
      service::LogWarn("watch catch-up failed; the safety sweep retries",
                       {{"error", std::string(s.message())}});
    }
  });
}

absl::Status Feeds::CatchUp() {
  std::vector<std::string> ids;
  absl::flat_hash_map<std::string, int64_t> heads;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [room, f] : feeds_) {
      absl::MutexLock l2(&f->mu);
      if (f->head < 0) continue;  // joining: its stream reads for itself
      ids.push_back(room);
      heads[room] = f->head;
    }
  }
  if (ids.empty()) return absl::OkStatus();
  std::vector<std::string> behind;
  absl::Status s = pool_->Read([&](pqxx::transaction_base& t) {
    behind.clear();
    absl::flat_hash_map<std::string, bool> seen;
    pqxx::result r = pg::ExecPrepared(
        t, "feed_catch_up", "SELECT id, seq, closed FROM rooms WHERE id = ANY($1::text[])",
        TextArray(ids));
    for (const auto& row : r) {
      std::string id = row[0].as<std::string>();
      if (row[1].as<int64_t>() > heads[id] || row[2].as<bool>()) behind.push_back(id);
      seen[id] = true;
    }
    for (const std::string& id : ids) {
      if (!seen.contains(id)) behind.push_back(id);  // gone: its streams end
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  for (const std::string& room : behind) OnRoom(room);
  return absl::OkStatus();
}

}  // namespace tablero::matchmaking
