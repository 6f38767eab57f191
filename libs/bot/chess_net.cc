#include "libs/bot/chess_net.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>

#include "absl/strings/str_cat.h"

namespace tablero::bot {

using namespace chess;  // NOLINT: the engine's own vocabulary

namespace {

// The loops below are plain C++ for the compiler to vectorise; with GCC on x86-64 each gets
// an AVX2 copy beside the baseline one, picked when the program starts.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TABLERO_NET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TABLERO_NET_CLONES
#endif

TABLERO_NET_CLONES void AddRows(const ChessNet& net, const int* inputs, int n, int16_t* acc) {
  for (int k = 0; k < n; ++k) {
    const int16_t* row = net.w1[inputs[k]];
    for (int i = 0; i < kChessNetHidden; ++i) acc[i] = int16_t(acc[i] + row[i]);
  }
}

// to = from + the rows of `add` - the rows of `sub`.
TABLERO_NET_CLONES void Apply(const ChessNet& net, const int16_t* from, int16_t* to, const int* add,
                              int na, const int* sub, int ns) {
  std::memcpy(to, from, sizeof(int16_t) * kChessNetHidden);
  for (int k = 0; k < na; ++k) {
    const int16_t* row = net.w1[add[k]];
    for (int i = 0; i < kChessNetHidden; ++i) to[i] = int16_t(to[i] + row[i]);
  }
  for (int k = 0; k < ns; ++k) {
    const int16_t* row = net.w1[sub[k]];
    for (int i = 0; i < kChessNetHidden; ++i) to[i] = int16_t(to[i] - row[i]);
  }
}

TABLERO_NET_CLONES int32_t Dot(const int16_t* acc, const int16_t* w) {
  int32_t sum = 0;
  for (int i = 0; i < kChessNetHidden; ++i) {
    // v * w fits in 16 bits (255 * 127): the compiler can multiply 16-bit lanes.
    const int16_t v = std::clamp<int16_t>(acc[i], 0, kChessNetQA);
    sum += int32_t(int16_t(v * w[i])) * v;
  }
  return sum;
}

constexpr char kMagic[] = "TBNN1";
constexpr size_t kNumbers =
    kChessNetInputs * kChessNetHidden + kChessNetHidden + 2 * kChessNetHidden;

}  // namespace

void RefreshChessNetAccumulator(const ChessNet& net, const Position& pos, Color view,
                                ChessNetAccumulator* acc) {
  int inputs[32];
  int n = 0;
  for (Bitboard b = pos.pieces(); b && n < 32;) {
    const Square s = PopLsb(b);
    inputs[n++] = ChessNetInput(view, pos.piece_on(s), s);
  }
  std::memcpy(acc->v, net.b1, sizeof(acc->v));
  AddRows(net, inputs, n, acc->v);
}

int ChessNetOutput(const ChessNet& net, const ChessNetAccumulator& to_move,
                   const ChessNetAccumulator& other) {
  // Each term is (sum * QA)^2 * w * QB: one division by QA brings the total to QA * QB.
  // No overflow: |w| <= 127 (the trainer's clip) and 256 * 255^2 * 127 < 2^31.
  const int32_t sum = Dot(to_move.v, net.w2[0]) + Dot(other.v, net.w2[1]);
  const int64_t out = sum / kChessNetQA + int64_t(net.b2);
  return int(out * kChessNetScale / (kChessNetQA * kChessNetQB));
}

int EvaluateChessNet(const ChessNet& net, const Position& pos) {
  ChessNetAccumulator us, them;
  RefreshChessNetAccumulator(net, pos, pos.side_to_move(), &us);
  RefreshChessNetAccumulator(net, pos, ~pos.side_to_move(), &them);
  return ChessNetOutput(net, us, them);
}

ChessNetStack::ChessNetStack(const ChessNet& net, int plies)
    : net_(net), pos_(plies, nullptr), ready_(plies, 0), acc_(plies) {}

void ChessNetStack::Update(int ply) {
  const Position& before = *pos_[ply - 1];
  const Position& after = *pos_[ply];
  int add[2][8], sub[2][8], na = 0, ns = 0;
  for (int c = 0; c < 2; ++c) {
    for (int t = 0; t < 6; ++t) {
      const Bitboard was = before.pieces(Color(c), PieceType(t));
      const Bitboard is = after.pieces(Color(c), PieceType(t));
      const Piece p = MakePiece(Color(c), PieceType(t));
      for (Bitboard b = is & ~was; b && na < 8; ++na) {
        const Square s = PopLsb(b);
        add[0][na] = ChessNetInput(kWhite, p, s);
        add[1][na] = ChessNetInput(kBlack, p, s);
      }
      for (Bitboard b = was & ~is; b && ns < 8; ++ns) {
        const Square s = PopLsb(b);
        sub[0][ns] = ChessNetInput(kWhite, p, s);
        sub[1][ns] = ChessNetInput(kBlack, p, s);
      }
    }
  }
  for (int v = 0; v < 2; ++v)
    Apply(net_, acc_[ply - 1][v].v, acc_[ply][v].v, add[v], na, sub[v], ns);
  ready_[ply] = true;
}

int ChessNetStack::Evaluate(int ply) {
  int from = ply;
  while (from > 0 && !ready_[from]) --from;
  if (!ready_[from]) {
    RefreshChessNetAccumulator(net_, *pos_[from], kWhite, &acc_[from][kWhite]);
    RefreshChessNetAccumulator(net_, *pos_[from], kBlack, &acc_[from][kBlack]);
    ready_[from] = true;
  }
  for (int p = from + 1; p <= ply; ++p) Update(p);
  const Color us = pos_[ply]->side_to_move();
  return ChessNetOutput(net_, acc_[ply][us], acc_[ply][~us]);
}

std::string SerializeChessNet(const ChessNet& net) {
  std::string out(kMagic);
  auto put = [&out](int64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xFF));
  };
  put(kChessNetInputs, 4);
  put(kChessNetHidden, 4);
  for (const auto& row : net.w1)
    for (int16_t v : row) put(v, 2);
  for (int16_t v : net.b1) put(v, 2);
  for (const auto& row : net.w2)
    for (int16_t v : row) put(v, 2);
  put(net.b2, 4);
  return out;
}

absl::StatusOr<std::unique_ptr<ChessNet>> ParseChessNet(absl::string_view bytes) {
  const size_t header = sizeof(kMagic) - 1 + 8;
  if (bytes.size() < header || bytes.substr(0, sizeof(kMagic) - 1) != kMagic) {
    return absl::InvalidArgumentError("not a chess network (no TBNN1 header)");
  }
  size_t at = sizeof(kMagic) - 1;
  auto get = [&bytes, &at](int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
    at += n;
    return n == 2 ? int64_t(int16_t(v)) : int64_t(int32_t(v));
  };
  const int64_t inputs = get(4), hidden = get(4);
  if (inputs != kChessNetInputs || hidden != kChessNetHidden) {
    return absl::InvalidArgumentError(absl::StrCat("network of ", inputs, " x ", hidden,
                                                   ", this build reads ", kChessNetInputs, " x ",
                                                   kChessNetHidden));
  }
  if (bytes.size() != header + 2 * kNumbers + 4) {
    return absl::InvalidArgumentError(absl::StrCat("network file of ", bytes.size(),
                                                   " bytes, expected ", header + 2 * kNumbers + 4));
  }
  auto net = std::make_unique<ChessNet>();
  for (auto& row : net->w1)
    for (int16_t& v : row) v = int16_t(get(2));
  for (int16_t& v : net->b1) v = int16_t(get(2));
  for (auto& row : net->w2)
    for (int16_t& v : row) v = int16_t(get(2));
  net->b2 = int32_t(get(4));
  return net;
}

const ChessNet* ShippedChessNet() {
  // Every number in the struct's order, the output bias last, each followed by a comma
  // (an empty file: no network shipped), then an end mark.
  static constexpr int32_t kShipped[] = {
#include "libs/bot/chess_net.inc"
      0};
  static const ChessNet* const net = []() -> const ChessNet* {
    if (std::size(kShipped) != kNumbers + 2) return nullptr;
    auto* n = new ChessNet;  // lives as long as the program
    const int32_t* p = kShipped;
    for (auto& row : n->w1)
      for (int16_t& v : row) v = int16_t(*p++);
    for (int16_t& v : n->b1) v = int16_t(*p++);
    for (auto& row : n->w2)
      for (int16_t& v : row) v = int16_t(*p++);
    n->b2 = *p;
    return n;
  }();
  return net;
}

}  // namespace tablero::bot
