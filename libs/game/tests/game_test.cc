#include "libs/game/game.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

#include "libs/game/codec.h"

namespace tablero::game {
namespace {

GameInfo Sample() {
  GameInfo info;
  info.kind = Kind::kChess;
  info.options.push_back(
      {"draw_mode", "", OptionSpec::Type::kChoice, {"site", "fide"}, 0, 0, "site", false});
  info.options.push_back({"swap", "", OptionSpec::Type::kBool, {"on", "off"}, 0, 0, "on", true});
  info.options.push_back({"limit", "", OptionSpec::Type::kInt, {}, 0, 500, "200", false});
  return info;
}

TEST(ResolveOptions, FillsDefaultsAndCanonicalizes) {
  auto r = ResolveOptions(Sample(), {{"limit", "050"}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)["draw_mode"], "site");
  EXPECT_EQ((*r)["swap"], "on");
  EXPECT_EQ((*r)["limit"], "50");
}

TEST(ResolveOptions, RefusesNamingTheOption) {
  auto r = ResolveOptions(Sample(), {{"draw_mode", "casual"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("draw_mode"), absl::string_view::npos);
  EXPECT_FALSE(ResolveOptions(Sample(), {{"limit", "501"}}).ok());
  EXPECT_FALSE(ResolveOptions(Sample(), {{"limit", "x"}}).ok());
  EXPECT_FALSE(ResolveOptions(Sample(), {{"swap", "yes"}}).ok());
  auto unknown = ResolveOptions(Sample(), {{"bogus", "1"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("bogus"), absl::string_view::npos);
}

TEST(ParseKind, RoundTrips) {
  for (Kind k : {Kind::kChess, Kind::kShogi4, Kind::kCheckers}) {
    EXPECT_EQ(*ParseKind(KindName(k)), k);
  }
  EXPECT_FALSE(ParseKind("go").ok());
}

TEST(Codec, Crc32IsTheStandardOne) {
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);  // the published check value of CRC-32
  EXPECT_EQ(Crc32(""), 0u);
}

TEST(Codec, Crc32IsZlibsAtEveryLengthAndAlignment) {
  // The folded path (64 bytes and more) against zlib itself.
  std::mt19937 rng(7);
  std::string bytes(4200, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  for (size_t start : {0, 1, 3, 8, 15}) {
    for (size_t n = 0; n + start <= bytes.size(); n += n < 300 ? 1 : 97) {
      const absl::string_view s(bytes.data() + start, n);
      const uint32_t want = static_cast<uint32_t>(
          crc32(0L, reinterpret_cast<const Bytef*>(s.data()), static_cast<uInt>(s.size())));
      ASSERT_EQ(Crc32(s), want) << "start " << start << " length " << n;
    }
  }
}

TEST(Codec, EnvelopeRoundTripAndCorruption) {
  ByteWriter w;
  w.Varint(300);
  w.Str("hello");
  w.U64(0x0123456789abcdefULL);
  std::string bytes = WrapState(Kind::kShogi4, 3, w.bytes());
  auto env = UnwrapState(bytes);
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->kind, Kind::kShogi4);
  EXPECT_EQ(env->version, 3);
  ByteReader r(env->payload);
  EXPECT_EQ(r.Varint(), 300u);
  EXPECT_EQ(r.Str(), "hello");
  EXPECT_EQ(r.U64(), 0x0123456789abcdefULL);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.U8(), 0);  // reading past the end fails softly
  EXPECT_FALSE(r.ok());

  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] ^= 0x10;
    EXPECT_FALSE(UnwrapState(bad).ok()) << "flip at " << i;
  }
  EXPECT_FALSE(UnwrapState("").ok());
  EXPECT_FALSE(UnwrapState(std::string(kMaxStateBytes + 1, 'T')).ok());
}

}  // namespace
}  // namespace tablero::game
