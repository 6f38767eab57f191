#include "libs/service/status.h"

#include <gtest/gtest.h>

#include "libs/service/request_id.h"

namespace tablero::service {
namespace {

TEST(Status, ConvertsEveryCodeBothWays) {
  for (int c = 0; c <= 16; ++c) {
    absl::Status a(static_cast<absl::StatusCode>(c), c == 0 ? "" : "why");
    grpc::Status g = ToGrpc(a);
    EXPECT_EQ(static_cast<int>(g.error_code()), c);
    EXPECT_EQ(g.error_message(), c == 0 ? "" : "why");
    EXPECT_EQ(FromGrpc(g), a);
  }
}

TEST(Status, OnlyServerErrorsAreHidden) {
  for (auto code :
       {grpc::StatusCode::INTERNAL, grpc::StatusCode::UNKNOWN, grpc::StatusCode::DATA_LOSS,
        grpc::StatusCode::UNAVAILABLE, grpc::StatusCode::DEADLINE_EXCEEDED}) {
    EXPECT_TRUE(IsServerError(code)) << StatusCodeName(code);
    std::string m = PublicMessage(code, "r-1");
    EXPECT_NE(m.find("(request id r-1)"), std::string::npos) << m;
  }
  for (auto code : {grpc::StatusCode::INVALID_ARGUMENT, grpc::StatusCode::NOT_FOUND,
                    grpc::StatusCode::FAILED_PRECONDITION, grpc::StatusCode::RESOURCE_EXHAUSTED,
                    grpc::StatusCode::UNAUTHENTICATED, grpc::StatusCode::ABORTED}) {
    EXPECT_FALSE(IsServerError(code)) << StatusCodeName(code);
  }
  EXPECT_NE(PublicMessage(grpc::StatusCode::UNAVAILABLE, "x").find("retry"), std::string::npos);
}

TEST(RequestId, NewOnesAreValidAndDistinct) {
  std::string a = NewRequestId(), b = NewRequestId();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_NE(a, b);
  EXPECT_TRUE(ValidRequestId(a));
  EXPECT_TRUE(ValidRequestId("3f2a-b1.c_d:9"));
  EXPECT_FALSE(ValidRequestId(""));
  EXPECT_FALSE(ValidRequestId("has space"));
  EXPECT_FALSE(ValidRequestId("quote\""));
  EXPECT_FALSE(ValidRequestId(std::string(129, 'a')));
}

}  // namespace
}  // namespace tablero::service
