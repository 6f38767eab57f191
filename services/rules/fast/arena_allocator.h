// The request and answer of one typed call on a protobuf arena whose first 16 KiB live in
// the call's holder: a call's messages and their strings cost no heap allocation each
// (the sync server's one allocation per piece and string of an answer cost about as much
// CPU as the handler itself, fast_path.h). Set per method on the callback service.
#ifndef TABLERO_SERVICES_RULES_FAST_ARENA_ALLOCATOR_H_
#define TABLERO_SERVICES_RULES_FAST_ARENA_ALLOCATOR_H_

#include <google/protobuf/arena.h>
#include <grpcpp/support/message_allocator.h>

#include <cstddef>

namespace tablero::rules::fast {

template <typename Req, typename Resp>
class ArenaAllocator final : public grpc::MessageAllocator<Req, Resp> {
 public:
  grpc::MessageHolder<Req, Resp>* AllocateMessages() override { return new Holder; }

 private:
  class Holder final : public grpc::MessageHolder<Req, Resp> {
   public:
    Holder() : arena_(Options(block_, sizeof block_)) {
      this->set_request(google::protobuf::Arena::CreateMessage<Req>(&arena_));
      this->set_response(google::protobuf::Arena::CreateMessage<Resp>(&arena_));
    }
    void Release() override { delete this; }

   private:
    static google::protobuf::ArenaOptions Options(char* block, size_t size) {
      google::protobuf::ArenaOptions o;
      o.initial_block = block;
      o.initial_block_size = size;
      return o;
    }
    alignas(16) char block_[16 << 10];
    google::protobuf::Arena arena_;
  };
};

}  // namespace tablero::rules::fast

#endif  // TABLERO_SERVICES_RULES_FAST_ARENA_ALLOCATOR_H_
