// A raw unary call (request and answer as bytes, no protobuf message on either side), as
// the server runs ApplyMove: the request in one piece (one slice: no copy), the answer
// written by the handler into a pooled buffer that gRPC sends without a copy
// (answer_pool.h).
#ifndef TABLERO_SERVICES_RULES_FAST_RAW_CALL_H_
#define TABLERO_SERVICES_RULES_FAST_RAW_CALL_H_

#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/slice.h>
#include <grpcpp/support/status.h>

#include <string>

#include "absl/strings/string_view.h"
#include "services/rules/fast/answer_pool.h"

namespace tablero::rules::fast {

// The pool of answer buffers: one for the process, never destroyed (gRPC may still hold an
// answer's bytes while a server shuts down).
inline AnswerPool* Answers() {
  static auto* pool = new AnswerPool;
  return pool;
}

// Runs `handler(absl::string_view request, std::string* answer) -> grpc::Status` on the
// call's bytes; on OK, `*response` holds the answer it appended. (Only ApplyMove is raw,
// hence the one message below.)
template <typename Handler>
grpc::Status ServeRaw(const grpc::ByteBuffer& request, grpc::ByteBuffer* response,
                      Handler&& handler) {
  grpc::Slice in;
  if (!request.TrySingleSlice(&in).ok() && !request.DumpToSingleSlice(&in).ok()) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "failed to read the ApplyMove request");
  }
  const absl::string_view bytes(reinterpret_cast<const char*>(in.begin()), in.size());
  AnswerPool::Buffer* answer = Answers()->Take();
  grpc::Status s = handler(bytes, &answer->bytes);
  if (!s.ok()) {
    Answers()->Return(answer);
    return s;
  }
  AnswerPool::Send(answer, response);
  return grpc::Status();
}

}  // namespace tablero::rules::fast

#endif  // TABLERO_SERVICES_RULES_FAST_RAW_CALL_H_
