#include "services/rules/fast/wire.h"

#include <google/protobuf/wrappers.pb.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "tablero/v1/rules.pb.h"

namespace tablero::rules::fast {
namespace {

// Field numbers, from the generated messages.
namespace f {
constexpr int kMoveSeat = v1::Move::kSeatFieldNumber, kMovePath = v1::Move::kPathFieldNumber,
              kMoveDrop = v1::Move::kDropFieldNumber,
              kMovePromotion = v1::Move::kPromotionFieldNumber,
              kMoveNotation = v1::Move::kNotationFieldNumber,
              kMoveDisplay = v1::Move::kDisplayFieldNumber;
constexpr int kEventType = v1::PlayEvent::kTypeFieldNumber,
              kEventSeat = v1::PlayEvent::kSeatFieldNumber,
              kEventOther = v1::PlayEvent::kOtherFieldNumber,
              kEventDetail = v1::PlayEvent::kDetailFieldNumber;
constexpr int kResultOver = v1::Result::kOverFieldNumber,
              kResultPlaces = v1::Result::kPlacesFieldNumber,
              kResultReason = v1::Result::kReasonFieldNumber;
constexpr int kPieceSquare = v1::PieceView::kSquareFieldNumber,
              kPieceType = v1::PieceView::kTypeFieldNumber,
              kPieceOwner = v1::PieceView::kOwnerFieldNumber,
              kPieceFacing = v1::PieceView::kFacingFieldNumber,
              kPieceFlipped = v1::PieceView::kFlippedFieldNumber;
constexpr int kHandPiecePiece = v1::HandPiece::kPieceFieldNumber,
              kHandPieceCount = v1::HandPiece::kCountFieldNumber;
constexpr int kHandSeat = v1::Hand::kSeatFieldNumber, kHandPieces = v1::Hand::kPiecesFieldNumber;
constexpr int kViewPieces = v1::PublicView::kPiecesFieldNumber,
              kViewHands = v1::PublicView::kHandsFieldNumber,
              kViewToMove = v1::PublicView::kToMoveFieldNumber,
              kViewInCheck = v1::PublicView::kInCheckFieldNumber,
              kViewActive = v1::PublicView::kActiveFieldNumber,
              kViewLastMove = v1::PublicView::kLastMoveFieldNumber,
              kViewPosition = v1::PublicView::kPositionFieldNumber,
              kViewPly = v1::PublicView::kPlyFieldNumber,
              kViewDrawOfferBy = v1::PublicView::kDrawOfferByFieldNumber;
constexpr int kInt32Value = google::protobuf::Int32Value::kValueFieldNumber;
constexpr int kAnswerState = v1::ApplyMoveResponse::kStateFieldNumber,
              kAnswerView = v1::ApplyMoveResponse::kViewFieldNumber,
              kAnswerEvents = v1::ApplyMoveResponse::kEventsFieldNumber,
              kAnswerResult = v1::ApplyMoveResponse::kResultFieldNumber,
              kAnswerMove = v1::ApplyMoveResponse::kMoveFieldNumber;
// Writer::Piece writes these tags as single bytes.
static_assert(kViewPieces < 16 && kPieceSquare < 16 && kPieceType < 16 && kPieceOwner < 16 &&
              kPieceFacing < 16 && kPieceFlipped < 16);
}  // namespace f

constexpr int kVarint = 0, kLengthDelimited = 2;

// The wire bytes of a piece's square field, or of its other fields, as made once per
// thread for each code an engine gives (game::PieceRef): a piece is then two fixed-size
// copies, where writing its fields one by one cost ~50-80 instructions (and a view has
// 30-90 pieces). A square's field is short (tag, length, a 2-3 letter name), so its
// snippets are 8 bytes: a board's worth spans 8-25 cache lines rather than 32-98, and in a
// server's cold caches each line read is a miss.
template <size_t N>
struct SnippetOf {
  char bytes[N - 2];
  uint8_t len;
  uint8_t state;  // kUnmade, kReady, or kTooLong (too long: written field by field)
};
using SquareSnippet = SnippetOf<8>;
using Snippet = SnippetOf<32>;
// Bits, so that one AND of two states tells whether both are ready.
constexpr uint8_t kUnmade = 0, kReady = 1, kTooLong = 2;
static_assert(sizeof(SquareSnippet) == 8 && sizeof(Snippet) == 32);
constexpr int kSquareCodes = 256, kPieceCodes = 1024;
struct PieceSnippets {
  SquareSnippet square[kSquareCodes];
  Snippet piece[kPieceCodes];
};

// Writes through a raw cursor into `out`, which is grown ahead of each field (a few
// appends per piece made std::string's own bookkeeping the larger cost).
class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {
    const size_t base = out->size();
    out_->resize(base + 2048);
    p_ = out_->data() + base;
    end_ = out_->data() + out_->size();
  }
  ~Writer() { out_->resize(p_ - out_->data()); }

  void Varint(uint64_t v) {
    Ensure(10);
    Put(v);
  }
  void Tag(int field, int type) { Varint(static_cast<uint64_t>(field) << 3 | type); }
  // int32: negative values are sign-extended to ten bytes, as protobuf does.
  static uint64_t Int32Bits(int v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }
  void Int32(int field, int v) {
    if (v == 0) return;
    Ensure(15);
    Put(static_cast<uint64_t>(field) << 3 | kVarint);
    PutInt32(v);
  }
  void Bool(int field, bool v) {
    if (!v) return;
    Ensure(6);
    Put(static_cast<uint64_t>(field) << 3 | kVarint);
    *p_++ = 1;
  }
  // A singular string: omitted when empty.
  void String(int field, absl::string_view s) {
    if (!s.empty()) RepeatedString(field, s);
  }
  // An element of a repeated string: always written.
  void RepeatedString(int field, absl::string_view s) {
    Ensure(15 + s.size());
    Put(static_cast<uint64_t>(field) << 3 | kLengthDelimited);
    Put(s.size());
    if (!s.empty()) std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  // A nested message: Begin writes the tag and a one-byte length placeholder and returns
  // the body's offset; End fixes the length (moving the body when it needs more bytes).
  size_t Begin(int field) {
    Ensure(6);
    Put(static_cast<uint64_t>(field) << 3 | kLengthDelimited);
    *p_++ = 0;
    return p_ - out_->data();
  }
  void End(size_t start) {
    char* body = out_->data() + start;
    const size_t len = p_ - body;
    if (ABSL_PREDICT_TRUE(len < 0x80)) {
      body[-1] = static_cast<char>(len);
      return;
    }
    LongEnd(start, len);
  }
  // A body of 128 bytes or more (the view, a long state): its length takes more bytes.
  ABSL_ATTRIBUTE_NOINLINE void LongEnd(size_t start, size_t len) {
    char buf[10];
    int n = 0;
    uint64_t v = len;
    while (v >= 0x80) {
      buf[n++] = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    buf[n++] = static_cast<char>(v);
    Ensure(n);
    char* body = out_->data() + start;
    std::memmove(body + n - 1, body, len);
    std::memcpy(body - 1, buf, n);
    p_ += n - 1;
  }
  // A PieceView in pieces (field 1 of PublicView), in one go when its length fits a byte
  // (always, for the engines' short names): one bounds check, no length fix-up.
  void Piece(const game::PieceRef& p) {
    const size_t sq = p.square.size(), ty = p.type.size();
    // The body is at most (2 + sq) + (2 + ty) + 2 * 11 + 2 bytes: under 128 below 96.
    if (sq + ty >= 96) return SlowPiece(p);
    Ensure(2 + (2 + sq) + (2 + ty) + 2 * 11 + 2);
    p_[0] = static_cast<char>(f::kViewPieces << 3 | kLengthDelimited);
    char* len = p_ + 1;
    p_ += 2;
    char* body = p_;
    if (sq) {
      *p_++ = static_cast<char>(f::kPieceSquare << 3 | kLengthDelimited);
      *p_++ = static_cast<char>(sq);
      Short(p.square);
    }
    if (ty) {
      *p_++ = static_cast<char>(f::kPieceType << 3 | kLengthDelimited);
      *p_++ = static_cast<char>(ty);
      Short(p.type);
    }
    if (p.owner) {
      *p_++ = static_cast<char>(f::kPieceOwner << 3 | kVarint);
      PutInt32(p.owner);
    }
    if (p.facing > 0) {  // -1 (no facing) is left unset, as convert.cc does
      *p_++ = static_cast<char>(f::kPieceFacing << 3 | kVarint);
      PutInt32(p.facing);
    }
    if (p.flipped) {
      *p_++ = static_cast<char>(f::kPieceFlipped << 3 | kVarint);
      *p_++ = 1;
    }
    *len = static_cast<char>(p_ - body);
  }
  // A piece from its two snippets (each whole snippet is copied, the length advances): the
  // body is at most 36 bytes, so its length is one byte.
  void Piece(const SquareSnippet& square, const Snippet& rest) {
    Ensure(2 + sizeof(SquareSnippet) + sizeof(Snippet));
    p_[0] = static_cast<char>(f::kViewPieces << 3 | kLengthDelimited);
    p_[1] = static_cast<char>(square.len + rest.len);
    std::memcpy(p_ + 2, &square, sizeof(SquareSnippet));
    std::memcpy(p_ + 2 + square.len, &rest, sizeof(Snippet));
    p_ += 2 + square.len + rest.len;
  }
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD void SlowPiece(const game::PieceRef& p) {
    const size_t at = Begin(f::kViewPieces);
    String(f::kPieceSquare, p.square);
    String(f::kPieceType, p.type);
    Int32(f::kPieceOwner, p.owner);
    Int32(f::kPieceFacing, p.facing);
    Bool(f::kPieceFlipped, p.flipped);
    End(at);
  }

  void PackedInt32(int field, const std::vector<int>& values) {
    if (values.empty()) return;
    const size_t at = Begin(field);
    for (int v : values) Varint(Int32Bits(v));
    End(at);
  }
  void PackedBool(int field, const std::vector<bool>& values) {
    if (values.empty()) return;
    Ensure(15 + values.size());
    Put(static_cast<uint64_t>(field) << 3 | kLengthDelimited);
    Put(values.size());
    for (bool v : values) *p_++ = v ? 1 : 0;
  }

 private:
  // Out of line: the hot code of every field is the one comparison (answers fit the
  // first 2 KiB but for long states).
  void Ensure(size_t n) {
    if (ABSL_PREDICT_FALSE(static_cast<size_t>(end_ - p_) < n)) Grow(n);
  }
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD void Grow(size_t n) {
    const size_t at = p_ - out_->data();
    out_->resize(std::max(2 * out_->size(), at + n));
    p_ = out_->data() + at;
    end_ = out_->data() + out_->size();
  }
  // A few bytes (a square or piece name), room ensured: a call to memcpy costs more.
  void Short(absl::string_view s) {
    if (s.size() > 8) {
      std::memcpy(p_, s.data(), s.size());
      p_ += s.size();
      return;
    }
    for (char c : s) *p_++ = c;
  }
  // An int32 varint, room ensured. Small seats and -1 (an ownerless shogi piece, ten
  // bytes; a seat elsewhere) come straight, without the loop.
  void PutInt32(int v) {
    if (static_cast<unsigned>(v) < 0x80) {
      *p_++ = static_cast<char>(v);
    } else if (v == -1) {
      static constexpr char kMinusOne[10] = {'\xff', '\xff', '\xff', '\xff', '\xff',
                                             '\xff', '\xff', '\xff', '\xff', '\x01'};
      std::memcpy(p_, kMinusOne, sizeof kMinusOne);
      p_ += sizeof kMinusOne;
    } else {
      Put(Int32Bits(v));
    }
  }
  // A varint; room for it was ensured.
  void Put(uint64_t v) {
    while (v >= 0x80) {
      *p_++ = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    *p_++ = static_cast<char>(v);
  }

  std::string* out_;
  char* p_;
  char* end_;
};

// The fields `write` writes, as a snippet.
template <typename S, typename F>
S Make(F write) {
  std::string bytes;
  {
    Writer w(&bytes);
    write(w);
  }
  S s{};
  s.state = kReady;
  if (bytes.size() > sizeof s.bytes) {
    s.state = kTooLong;
  } else {
    std::memcpy(s.bytes, bytes.data(), bytes.size());
    s.len = static_cast<uint8_t>(bytes.size());
  }
  return s;
}

// The snippets of a piece not seen before on this thread (the first calls only).
ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD void MakeSnippets(const game::PieceRef& p,
                                                              SquareSnippet* square,
                                                              Snippet* piece) {
  if (square->state == kUnmade)
    *square = Make<SquareSnippet>([&](Writer& s) { s.String(f::kPieceSquare, p.square); });
  if (piece->state == kUnmade) {
    *piece = Make<Snippet>([&](Writer& s) {
      s.String(f::kPieceType, p.type);
      s.Int32(f::kPieceOwner, p.owner);
      if (p.facing > 0) s.Int32(f::kPieceFacing, p.facing);
      s.Bool(f::kPieceFlipped, p.flipped);
    });
  }
}

// The snippets of a kind's pieces on this thread (34 KiB, made on first use).
PieceSnippets* SnippetsOf(game::Kind kind) {
  if (kind == game::Kind::kUnknown) return nullptr;
  thread_local std::unique_ptr<PieceSnippets> per_kind[4];
  std::unique_ptr<PieceSnippets>& s = per_kind[static_cast<size_t>(kind) & 3];
  if (!s) s = std::make_unique<PieceSnippets>();
  return s.get();
}

void WriteMove(const game::Move& m, Writer& w) {
  w.Int32(f::kMoveSeat, m.seat);
  for (const std::string& p : m.path) w.RepeatedString(f::kMovePath, p);
  w.String(f::kMoveDrop, m.drop);
  w.String(f::kMovePromotion, m.promotion);
  w.String(f::kMoveNotation, m.notation);
  w.String(f::kMoveDisplay, m.display);
}

void WriteView(const game::PublicView& v, const std::vector<game::PieceRef>& pieces,
               PieceSnippets* snippets, Writer& w) {
  for (const game::PieceRef& p : pieces) {
    // Negative codes wrap to large unsigned values: one comparison each.
    if (snippets != nullptr && static_cast<unsigned>(p.square_code) < kSquareCodes &&
        static_cast<unsigned>(p.piece_code) < kPieceCodes) {
      SquareSnippet& square = snippets->square[p.square_code];
      Snippet& piece = snippets->piece[p.piece_code];
      if (ABSL_PREDICT_FALSE((square.state & piece.state) != kReady)) {
        MakeSnippets(p, &square, &piece);
      }
      if (ABSL_PREDICT_TRUE((square.state & piece.state) == kReady)) {
        w.Piece(square, piece);
        continue;
      }
    }
    w.Piece(p);
  }
  for (size_t seat = 0; seat < v.hands.size(); ++seat) {
    const size_t at = w.Begin(f::kViewHands);
    w.Int32(f::kHandSeat, static_cast<int>(seat));
    for (const auto& [letter, count] : v.hands[seat]) {
      if (count < 1) continue;  // the contract lists only pieces actually held
      const size_t piece = w.Begin(f::kHandPieces);
      w.String(f::kHandPiecePiece, letter);
      w.Int32(f::kHandPieceCount, count);
      w.End(piece);
    }
    w.End(at);
  }
  w.Int32(f::kViewToMove, v.to_move);
  w.PackedInt32(f::kViewInCheck, v.in_check);
  w.PackedBool(f::kViewActive, v.active);
  if (v.last_move) {
    const size_t at = w.Begin(f::kViewLastMove);
    WriteMove(*v.last_move, w);
    w.End(at);
  }
  w.String(f::kViewPosition, v.position);
  w.Int32(f::kViewPly, v.ply);
  if (v.draw_offer_by) {
    const size_t at = w.Begin(f::kViewDrawOfferBy);
    w.Int32(f::kInt32Value, *v.draw_offer_by);
    w.End(at);
  }
}

}  // namespace

void ApplyAnswer::Clear() {
  // Only the view: the engines fill it in place, while the handler assigns state, kind,
  // events, result and move on every path that writes an answer. last_move stays: the
  // engines refill it through game::ReusedLastMove (keeping its room) or reset it.
  view.pieces.clear();
  for (auto& hand : view.hands) hand.clear();
  view.to_move = -1;
  view.in_check.clear();
  view.active.clear();
  view.position.clear();
  view.ply = 0;
  view.draw_offer_by.reset();
  pieces.clear();
}

void AppendApplyMoveResponse(const ApplyAnswer& a, std::string* out) {
  Writer w(out);
  w.String(f::kAnswerState, a.state);
  size_t at = w.Begin(f::kAnswerView);
  WriteView(a.view, a.pieces, SnippetsOf(a.kind), w);
  w.End(at);
  for (const game::Event& e : a.events) {
    at = w.Begin(f::kAnswerEvents);
    w.Int32(f::kEventType, static_cast<int>(e.type) + 1);
    w.Int32(f::kEventSeat, e.seat);
    w.Int32(f::kEventOther, e.other);
    w.String(f::kEventDetail, e.detail);
    w.End(at);
  }
  at = w.Begin(f::kAnswerResult);
  w.Bool(f::kResultOver, a.result.over);
  w.PackedInt32(f::kResultPlaces, a.result.places);
  w.String(f::kResultReason, a.result.reason);
  w.End(at);
  at = w.Begin(f::kAnswerMove);
  WriteMove(a.move, w);
  w.End(at);
}

}  // namespace tablero::rules::fast
