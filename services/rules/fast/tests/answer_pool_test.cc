#include "services/rules/fast/answer_pool.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tablero::rules::fast {
namespace {

std::string Bytes(const grpc::ByteBuffer& bb) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(bb.Dump(&slices).ok());
  std::string out;
  for (const grpc::Slice& s : slices)
    out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

TEST(AnswerPool, SendsTheBytesWithoutCopyAndTakesTheBufferBackWhenGrpcIsDone) {
  grpc::GrpcLibraryCodegen init;  // gRPC's slice functions
  AnswerPool pool;
  AnswerPool::Buffer* b = pool.Take();
  b->bytes.assign(1500, 'x');
  const char* data = b->bytes.data();
  {
    grpc::ByteBuffer out;
    AnswerPool::Send(b, &out);
    grpc::Slice one;
    ASSERT_TRUE(out.TrySingleSlice(&one).ok());
    EXPECT_EQ(reinterpret_cast<const char*>(one.begin()), data);  // no copy
    EXPECT_EQ(Bytes(out), std::string(1500, 'x'));
    grpc::ByteBuffer copy(out);  // another reference: still out on loan
    out.Clear();
    EXPECT_EQ(pool.idle(), 0u);
    EXPECT_EQ(Bytes(copy), std::string(1500, 'x'));
  }
  EXPECT_EQ(pool.idle(), 1u);
  AnswerPool::Buffer* again = pool.Take();
  EXPECT_EQ(again, b);
  EXPECT_TRUE(again->bytes.empty());          // cleared
  EXPECT_GE(again->bytes.capacity(), 1500u);  // with its room
  pool.Return(again);
}

TEST(AnswerPool, KeepsAtMostItsLimitAndFreesHugeBuffers) {
  grpc::GrpcLibraryCodegen init;
  AnswerPool pool(/*keep=*/2, /*max_room=*/4096);
  std::vector<AnswerPool::Buffer*> taken;
  for (int i = 0; i < 3; ++i) taken.push_back(pool.Take());
  for (AnswerPool::Buffer* b : taken) pool.Return(b);
  EXPECT_EQ(pool.idle(), 2u);
  AnswerPool::Buffer* big = pool.Take();
  big->bytes.assign(1 << 20, 'y');
  {
    grpc::ByteBuffer out;
    AnswerPool::Send(big, &out);
  }
  EXPECT_EQ(pool.idle(), 1u);  // the huge one was freed, not kept
}

}  // namespace
}  // namespace tablero::rules::fast
