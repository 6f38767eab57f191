#include "libs/service/status.h"

#include <gtest/gtest.h>

#include "google/rpc/status.pb.h"
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

TEST(Status, AReasonTravelsInTheDetailsAndBack) {
  absl::Status a = WithReason(absl::AlreadyExistsError("you already have a waiting ticket: t1"),
                              reason::kAlreadyQueued, {{"ticket_id", "t1"}});
  grpc::Status g = ToGrpc(a);
  EXPECT_EQ(g.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(g.error_message(), "you already have a waiting ticket: t1");
  // The details are what a client decodes from grpc-status-details-bin.
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(g.error_details()));
  EXPECT_EQ(details.code(), static_cast<int>(grpc::StatusCode::ALREADY_EXISTS));
  ASSERT_EQ(details.details_size(), 1);
  EXPECT_EQ(details.details(0).type_url(), "type.googleapis.com/google.rpc.ErrorInfo");
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(info.ParseFromString(details.details(0).value()));
  EXPECT_EQ(info.reason(), "ALREADY_QUEUED");
  EXPECT_EQ(info.domain(), "tablero");
  EXPECT_EQ(info.metadata().at("ticket_id"), "t1");
  // Back through FromGrpc (a backend's refusal relayed): the same reason, same code.
  absl::Status back = FromGrpc(g);
  EXPECT_EQ(back.code(), absl::StatusCode::kAlreadyExists);
  auto again = ErrorInfoOf(back);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->reason(), "ALREADY_QUEUED");
  EXPECT_EQ(ErrorInfoOf(g)->metadata().at("ticket_id"), "t1");
  // No reason, no details; OK stays OK.
  EXPECT_TRUE(ToGrpc(absl::NotFoundError("x")).error_details().empty());
  EXPECT_FALSE(ErrorInfoOf(FromGrpc(grpc::Status(grpc::StatusCode::NOT_FOUND, "x"))).has_value());
  EXPECT_TRUE(WithReason(absl::OkStatus(), reason::kGameOver).ok());
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
  // A draining server says so, with the request id; other codes read as before.
  const std::string drain = PublicMessage(grpc::StatusCode::UNAVAILABLE, "r-2", true);
  EXPECT_NE(drain.find("shutting down"), std::string::npos) << drain;
  EXPECT_NE(drain.find("(request id r-2)"), std::string::npos) << drain;
  EXPECT_EQ(PublicMessage(grpc::StatusCode::INTERNAL, "r-3", true),
            PublicMessage(grpc::StatusCode::INTERNAL, "r-3"));
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
