#include "libs/games/kinds.h"

#include <gtest/gtest.h>

#include <set>

#include "google/protobuf/descriptor.h"

namespace tablero::games {
namespace {

// Fails when a GameKind value is added to common.proto without a row in kKinds.
TEST(Kinds, EveryProtoValueHasARowExceptUnspecified) {
  const google::protobuf::EnumDescriptor* d = v1::GameKind_descriptor();
  std::set<int> values;
  for (int i = 0; i < d->value_count(); ++i) values.insert(d->value(i)->number());
  std::set<int> rows;
  for (const KindRow& row : kKinds) rows.insert(row.proto);
  values.erase(v1::GAME_KIND_UNSPECIFIED);
  EXPECT_EQ(rows, values);
  EXPECT_EQ(std::size(kKinds), values.size()) << "a GameKind has two rows";
}

TEST(Kinds, EveryRowRoundTrips) {
  std::set<game::Kind> engines;
  std::set<std::string> names;
  for (const KindRow& row : kKinds) {
    SCOPED_TRACE(v1::GameKind_Name(row.proto));
    ASSERT_NE(row.engine, game::Kind::kUnknown);
    EXPECT_EQ(EngineKind(row.proto), row.engine);
    EXPECT_EQ(ProtoKind(row.proto), row.proto);
    EXPECT_EQ(ToProto(row.engine), row.proto);
    auto checked = KindFromProto(row.proto);
    ASSERT_TRUE(checked.ok()) << checked.status();
    EXPECT_EQ(*checked, row.engine);
    // The name is the engine's (game::KindName) and leads back to the same kind.
    EXPECT_EQ(KindName(row.proto), game::KindName(row.engine));
    EXPECT_EQ(ProtoKindNamed(KindName(row.proto)), row.proto);
    EXPECT_EQ(*game::ParseKind(KindName(row.proto)), row.engine);
    engines.insert(row.engine);
    names.insert(std::string(KindName(row.proto)));
  }
  EXPECT_EQ(engines.size(), std::size(kKinds));
  EXPECT_EQ(names.size(), std::size(kKinds));
  EXPECT_EQ(KindName(v1::GAME_KIND_CHESS), "chess");
  EXPECT_EQ(KindName(v1::GAME_KIND_SHOGI4), "shogi4");
  EXPECT_EQ(KindName(v1::GAME_KIND_CHECKERS), "checkers");
}

TEST(Kinds, UnspecifiedAndUnknownValuesAreRefused) {
  for (int n : {0, -1, 4, 9, 1 << 20, -(1 << 30)}) {
    SCOPED_TRACE(n);
    EXPECT_FALSE(EngineKind(n).has_value());
    EXPECT_FALSE(ProtoKind(n).has_value());
    auto checked = KindFromProto(n);
    ASSERT_FALSE(checked.ok());
    EXPECT_EQ(checked.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(checked.status().message().find("kind: "), absl::string_view::npos);
    EXPECT_NE(checked.status().message().find("GAME_KIND_CHESS, GAME_KIND_SHOGI4 or "
                                              "GAME_KIND_CHECKERS"),
              absl::string_view::npos)
        << checked.status();
    EXPECT_EQ(KindName(static_cast<v1::GameKind>(n)), "unknown");
  }
  EXPECT_EQ(KindFromProto(0).status().message(),
            "kind: unspecified (use GAME_KIND_CHESS, GAME_KIND_SHOGI4 or GAME_KIND_CHECKERS)");
  EXPECT_EQ(KindFromProto(9).status().message(),
            "kind: unknown value 9 (use GAME_KIND_CHESS, GAME_KIND_SHOGI4 or GAME_KIND_CHECKERS)");
  EXPECT_EQ(ToProto(game::Kind::kUnknown), v1::GAME_KIND_UNSPECIFIED);
  EXPECT_FALSE(ProtoKindNamed("go").has_value());
  EXPECT_FALSE(ProtoKindNamed("").has_value());
  EXPECT_FALSE(ProtoKindNamed("unknown").has_value());
  EXPECT_FALSE(ProtoKindNamed("Chess").has_value());
}

}  // namespace
}  // namespace tablero::games
