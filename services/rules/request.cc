#include "services/rules/request.h"

#include <cstdint>

namespace tablero::rules {
namespace {

// Field numbers and wire types of tablero.v1.ApplyMoveRequest (proto/tablero/v1/rules.proto).
constexpr uint32_t kKindTag = 1 << 3 | 0, kStateTag = 2 << 3 | 2, kMoveTextTag = 3 << 3 | 2,
                   kExpectedPlyTag = 5 << 3 | 2;
constexpr uint32_t kValueTag = 1 << 3 | 0;  // google.protobuf.Int32Value.value

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
    if (field > 5 || (seen >> field & 1)) return false;
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

}  // namespace tablero::rules
