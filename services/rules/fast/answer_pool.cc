#include "services/rules/fast/answer_pool.h"

#include <grpcpp/support/slice.h>

namespace tablero::rules::fast {
namespace {

// The slice's destroy: gRPC calls it once, when its last reference to the bytes goes.
void Release(void* p) {
  auto* b = static_cast<AnswerPool::Buffer*>(p);
  b->pool->Return(b);
}

}  // namespace

AnswerPool::~AnswerPool() {
  absl::MutexLock lock(&mu_);
  for (Buffer* b : idle_) delete b;
}

AnswerPool::Buffer* AnswerPool::Take() {
  {
    absl::MutexLock lock(&mu_);
    if (!idle_.empty()) {
      Buffer* b = idle_.back();
      idle_.pop_back();
      return b;
    }
  }
  return new Buffer{this, {}};
}

void AnswerPool::Return(Buffer* b) {
  if (b->bytes.capacity() <= max_room_) {
    b->bytes.clear();
    absl::MutexLock lock(&mu_);
    if (idle_.size() < keep_) {
      idle_.push_back(b);
      return;
    }
  }
  delete b;
}

void AnswerPool::Send(Buffer* b, grpc::ByteBuffer* out) {
  grpc::Slice slice(b->bytes.data(), b->bytes.size(), &Release, b);
  // Swapped in: ByteBuffer has no move assignment, and its copy assignment makes another
  // grpc_byte_buffer (an allocation and a reference more).
  grpc::ByteBuffer made(&slice, 1);
  out->Swap(&made);
}

size_t AnswerPool::idle() const {
  absl::MutexLock lock(&mu_);
  return idle_.size();
}

}  // namespace tablero::rules::fast
