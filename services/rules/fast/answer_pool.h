// Buffers for ApplyMove's answer bytes that gRPC sends as they are, without a copy.
//
// Why: an answer is 0.6-1.4 KB. Copying it into a fresh gRPC slice cost a large-bin
// malloc per call (glibc serves 1 KiB and up outside its per-thread cache, and first
// consolidates its fast bins) plus the copy itself, with the destination's cache lines
// missing. Here the handler writes into a pooled string, gRPC gets a slice that points at
// it, and when gRPC is done with the bytes (on whichever thread) the string goes back to
// the pool with its room.
#ifndef TABLERO_SERVICES_RULES_FAST_ANSWER_POOL_H_
#define TABLERO_SERVICES_RULES_FAST_ANSWER_POOL_H_

#include <grpcpp/support/byte_buffer.h>

#include <cstddef>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace tablero::rules::fast {

class AnswerPool {
 public:
  // At most `keep` idle strings are kept; strings that grew past `max_room` (a rare huge
  // state) are freed rather than kept.
  explicit AnswerPool(size_t keep = 256, size_t max_room = 256 << 10)
      : keep_(keep), max_room_(max_room) {}
  ~AnswerPool();
  AnswerPool(const AnswerPool&) = delete;
  AnswerPool& operator=(const AnswerPool&) = delete;

  struct Buffer {
    AnswerPool* pool;
    std::string bytes;
  };
  // An empty buffer to write an answer into; give it to Send or back to Return.
  Buffer* Take();
  void Return(Buffer* b);
  // `*out` holds b's bytes without copying them; b returns to the pool once gRPC is done
  // with them. The pool must outlive every ByteBuffer made here: the server keeps one for
  // the life of the process.
  static void Send(Buffer* b, grpc::ByteBuffer* out);

  size_t idle() const;

 private:
  const size_t keep_;
  const size_t max_room_;
  mutable absl::Mutex mu_;
  std::vector<Buffer*> idle_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tablero::rules::fast

#endif  // TABLERO_SERVICES_RULES_FAST_ANSWER_POOL_H_
