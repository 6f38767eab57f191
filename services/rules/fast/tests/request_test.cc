// ParseApplyMoveRequest against protobuf's parser: whatever it reads, protobuf parses to
// the same fields; and RequestReader (in place, else protobuf) accepts exactly what
// protobuf accepts, with the same fields; on requests of every shape, and on corrupted
// ones.
#include "services/rules/fast/request.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "libs/game/testing/mutate.h"

namespace tablero::rules::fast {
namespace {

void ExpectSameAsProtobuf(const std::string& bytes, int* fast_count) {
  ApplyMoveArgs ours;
  const bool fast = ParseApplyMoveRequest(bytes, &ours);
  v1::ApplyMoveRequest theirs;
  const bool ok = theirs.ParseFromString(bytes);
  *fast_count += fast;
  // The reader the server runs: in place, else protobuf; either way protobuf's fields.
  RequestReader reader;
  ApplyMoveArgs read;
  ASSERT_EQ(reader.Read(bytes, &read), ok);
  const ApplyMoveArgs want = ArgsOf(theirs);
  if (ok) {
    EXPECT_EQ(read.kind, want.kind);
    EXPECT_EQ(read.state, want.state);
    EXPECT_EQ(read.move_case, want.move_case);
    EXPECT_EQ(read.move_text, want.move_text);
    EXPECT_EQ(read.structured != nullptr, want.structured != nullptr);
    if (read.structured != nullptr) {
      EXPECT_EQ(read.structured->SerializeAsString(), want.structured->SerializeAsString());
    }
    EXPECT_EQ(read.expected_ply, want.expected_ply);
  }
  if (!fast) return;  // the server parses these with protobuf itself
  ASSERT_TRUE(ok);
  EXPECT_EQ(ours.kind, want.kind);
  EXPECT_EQ(ours.state, want.state);
  EXPECT_EQ(ours.move_case, want.move_case);
  EXPECT_EQ(ours.move_text, want.move_text);
  EXPECT_EQ(ours.structured, nullptr);
  EXPECT_EQ(want.structured, nullptr);
  EXPECT_EQ(ours.expected_ply, want.expected_ply);
}

v1::ApplyMoveRequest Random(std::mt19937& rng) {
  v1::ApplyMoveRequest r;
  if (rng() % 4) r.set_kind(static_cast<v1::GameKind>(rng() % 5));
  if (rng() % 8 == 0) r.set_kind(static_cast<v1::GameKind>(-static_cast<int>(rng() % 3) - 1));
  if (rng() % 4) {
    std::string state(rng() % 900, '\0');
    for (char& c : state) c = static_cast<char>(rng());
    r.set_state(state);
  }
  switch (rng() % 4) {
    case 0:
      break;
    case 1:
      r.set_move_text(rng() % 2 ? "e2e4" : "");
      break;
    case 2:
      r.set_move_text("é4");  // not ASCII: protobuf's parser
      break;
    default:
      r.mutable_structured()->add_path("e2");
  }
  if (rng() % 2) {
    r.mutable_expected_ply()->set_value(rng() % 3 ? static_cast<int>(rng() % 200) : -5);
  }
  return r;
}

TEST(Request, SameAsProtobufOnEveryShape) {
  std::mt19937 rng(3);
  int fast = 0;
  for (int i = 0; i < 3000; ++i) ExpectSameAsProtobuf(Random(rng).SerializeAsString(), &fast);
  EXPECT_GT(fast, 1000);
  // Fields twice, in another order, an empty expected_ply, unknown fields.
  v1::ApplyMoveRequest r = Random(rng);
  r.set_move_text("Nf3");
  const std::string once = r.SerializeAsString();
  ExpectSameAsProtobuf(once + once, &fast);
  ExpectSameAsProtobuf(std::string("\x2a\x00", 2) + once, &fast);  // expected_ply {}
  ExpectSameAsProtobuf(once + std::string("\x30\x07", 2), &fast);  // field 6
  ExpectSameAsProtobuf(once + std::string("\x2a\x02\x10\x01", 4), &fast);
}

TEST(Request, SameAsProtobufOnCorruptedBytes) {
  std::mt19937 rng(5);
  int fast = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = Random(rng).SerializeAsString();
    if (bytes.empty()) continue;
    game::testing::Mutate(&bytes, rng, 3);
    ExpectSameAsProtobuf(bytes, &fast);
  }
  EXPECT_GT(fast, 100);
}

}  // namespace
}  // namespace tablero::rules::fast
