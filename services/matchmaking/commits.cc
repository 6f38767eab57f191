#include "services/matchmaking/commits.h"

namespace tablero::matchmaking {

absl::Status Commits::Tx(const std::function<absl::Status(pqxx::work&, ToPublish&)>& fn) {
  ToPublish rooms;
  absl::Status s = pool_->Tx([&](pqxx::work& w) {
    rooms.Clear();  // a retried attempt starts over
    return fn(w, rooms);
  });
  if (s.ok()) {
    for (const std::string& room : rooms.rooms()) hub_->Publish(room);
  }
  return s;
}

absl::Status Commits::Play(const GameRow& g, int seat, const Applied& a, bool by_cpu,
                           v1::Game* out) {
  std::vector<v1::RoomEvent> appended;
  auto path = CommitPlay(*pool_, play_, g, seat, a, by_cpu, out, &appended);
  if (!path.ok()) return path.status();
  hub_->Publish(g.room_id, appended);
  (*path == CommitPath::kOneCall ? metrics_->commits_one_call : metrics_->commits_transaction)
      ->Increment();
  if (a.moved) metrics_->moves[g.kind]->Increment();
  return absl::OkStatus();
}

}  // namespace tablero::matchmaking
