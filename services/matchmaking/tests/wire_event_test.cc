// A WatchBatches message as the replica builds it (feeds.h: BatchOf, from each event's
// stored bytes, with no parse and no copy) is byte for byte what protobuf serializes for
// the same RoomEventBatch.
#include <gtest/gtest.h>

#include <deque>
#include <string>

#include "services/matchmaking/feeds.h"

namespace tablero::matchmaking {
namespace {

std::string Bytes(const grpc::ByteBuffer& b) {
  grpc::Slice one;
  EXPECT_TRUE(b.DumpToSingleSlice(&one).ok());
  return std::string(reinterpret_cast<const char*>(one.begin()), one.size());
}

// Events of several sizes: their lengths take one, two and three bytes as varints.
std::vector<v1::RoomEvent> Events() {
  std::vector<v1::RoomEvent> out;
  for (int i = 0; i < 3; ++i) {
    v1::RoomEvent e;
    e.set_seq(41 + i);
    e.mutable_time()->set_seconds(1'700'000'000 + i);
    e.set_game_id("g-" + std::to_string(i));
    const size_t name = i == 0 ? 5 : i == 1 ? 300 : 20'000;
    e.mutable_member_left()->set_player_id(std::string(name, 'a' + i));
    out.push_back(e);
  }
  v1::RoomEvent turn;
  turn.set_seq(44);
  turn.mutable_turn_changed();  // an event whose body is only its seq and kind
  out.push_back(turn);
  return out;
}

TEST(WireEventTest, ABatchIsWhatProtobufSerializesForTheSameEvents) {
  const std::vector<v1::RoomEvent> events = Events();
  std::deque<EventPtr> wire;
  for (const v1::RoomEvent& e : events) wire.push_back(WireEvent::FromMessage(e));
  for (size_t n = 1; n <= events.size(); ++n) {
    v1::RoomEventBatch want;
    for (size_t i = 0; i < n; ++i) *want.add_events() = events[i];
    EXPECT_EQ(Bytes(BatchOf(wire, n)), want.SerializeAsString()) << n << " events";
  }
}

TEST(WireEventTest, AnEventAloneIsItsStoredBytes) {
  for (const v1::RoomEvent& e : Events()) {
    EventPtr w = WireEvent::FromMessage(e);
    EXPECT_EQ(Bytes(w->bytes()), e.SerializeAsString());
    EXPECT_EQ(w->seq(), e.seq());
  }
}

}  // namespace
}  // namespace tablero::matchmaking
