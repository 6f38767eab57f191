#include "services/rules/fast/request.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/wrappers.pb.h>

#include <algorithm>
#include <cstdint>

namespace tablero::rules::fast {
namespace {

constexpr uint32_t kVarint = 0, kLengthDelimited = 2;  // protobuf wire types
constexpr uint32_t Tag(int field, uint32_t wire_type) {
  return static_cast<uint32_t>(field) << 3 | wire_type;
}
using Req = v1::ApplyMoveRequest;
constexpr uint32_t kKindTag = Tag(Req::kKindFieldNumber, kVarint),
                   kStateTag = Tag(Req::kStateFieldNumber, kLengthDelimited),
                   kMoveTextTag = Tag(Req::kMoveTextFieldNumber, kLengthDelimited),
                   kExpectedPlyTag = Tag(Req::kExpectedPlyFieldNumber, kLengthDelimited);
constexpr uint32_t kValueTag = Tag(google::protobuf::Int32Value::kValueFieldNumber, kVarint);
// The highest field number of the message: anything above is unknown.
constexpr unsigned kLastField =
    std::max({Req::kKindFieldNumber, Req::kStateFieldNumber, Req::kMoveTextFieldNumber,
              Req::kStructuredFieldNumber, Req::kExpectedPlyFieldNumber});
static_assert(kLastField < 32, "one bit per field in ParseApplyMoveRequest's `seen`");

class Reader {
 public:
  explicit Reader(absl::string_view in) : p_(in.data()), end_(in.data() + in.size()) {}
  bool done() const { return p_ == end_; }
  // A varint of at most ten bytes; false if it runs past the end or is longer.
  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 70 && p_ != end_; shift += 7) {
      const uint8_t b = static_cast<uint8_t>(*p_++);
      *v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool Bytes(absl::string_view* s) {
    uint64_t n;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    *s = absl::string_view(p_, n);
    p_ += n;
    return true;
  }

 private:
  const char* p_;
  const char* end_;
};

bool Ascii(absl::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Int32Value{value}: at most one value field, nothing else.
bool ParseInt32Value(absl::string_view bytes, int32_t* value) {
  Reader r(bytes);
  *value = 0;
  if (r.done()) return true;
  uint64_t tag, v;
  if (!r.Varint(&tag) || tag != kValueTag || !r.Varint(&v) || !r.done()) return false;
  *value = static_cast<int32_t>(v);  // int32 takes the low 32 bits, as protobuf does
  return true;
}

}  // namespace

ApplyMoveArgs ArgsOf(const v1::ApplyMoveRequest& req) {
  ApplyMoveArgs a;
  a.kind = req.kind();
  a.state = req.state();
  a.move_case = req.move_case();
  if (a.move_case == v1::ApplyMoveRequest::kMoveText) a.move_text = req.move_text();
  if (a.move_case == v1::ApplyMoveRequest::kStructured) a.structured = &req.structured();
  if (req.has_expected_ply()) a.expected_ply = req.expected_ply().value();
  return a;
}

bool ParseApplyMoveRequest(absl::string_view bytes, ApplyMoveArgs* args) {
  *args = ApplyMoveArgs();
  Reader r(bytes);
  unsigned seen = 0;  // bit per field number
  while (!r.done()) {
    uint64_t tag;
    if (!r.Varint(&tag) || tag > 0xFF) return false;
    const unsigned field = static_cast<unsigned>(tag >> 3);
    if (field > kLastField || (seen >> field & 1)) return false;
    seen |= 1u << field;
    switch (tag) {
      case kKindTag: {
        uint64_t v;
        if (!r.Varint(&v)) return false;
        args->kind = static_cast<v1::GameKind>(static_cast<int32_t>(v));
        break;
      }
      case kStateTag:
        if (!r.Bytes(&args->state)) return false;
        break;
      case kMoveTextTag:
        if (!r.Bytes(&args->move_text) || !Ascii(args->move_text)) return false;
        args->move_case = v1::ApplyMoveRequest::kMoveText;
        break;
      case kExpectedPlyTag: {
        absl::string_view s;
        int32_t value;
        if (!r.Bytes(&s) || !ParseInt32Value(s, &value)) return false;
        args->expected_ply = value;
        break;
      }
      default:  // a structured move, another wire type, an unknown field
        return false;
    }
  }
  return true;
}

bool RequestReader::Read(absl::string_view bytes, ApplyMoveArgs* args) {
  if (ParseApplyMoveRequest(bytes, args)) return true;
  // One reader at a time per thread (the handler is done before it returns), so the arena
  // may start in a per-thread block.
  alignas(16) thread_local char block[16 << 10];
  google::protobuf::ArenaOptions o;
  o.initial_block = block;
  o.initial_block_size = sizeof block;
  auto* req = google::protobuf::Arena::CreateMessage<v1::ApplyMoveRequest>(&arena_.emplace(o));
  if (!req->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  *args = ArgsOf(*req);
  return true;
}

}  // namespace tablero::rules::fast
