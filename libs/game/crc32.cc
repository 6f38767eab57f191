// CRC-32 (the standard reflected polynomial, zlib's crc32) of the state envelope, checked
// on every rules request and written on every answer: a four-player shogi state is ~700
// bytes, and zlib's table-driven loop spends ~4 instructions a byte, more than any other
// single step of decoding it. On CPUs with carry-less multiply the bytes are folded 16 at
// a time instead, and zlib finishes the last 16-31 bytes.
//
// The folding, with polynomials over GF(2) and P the CRC polynomial: a message A·x^L + B
// (A the first 128 bits) has the same remainder mod P as F·x^(L-128) + B, where
// F = A_hi·(x^192 mod P) + A_lo·(x^128 mod P) has degree < 128 (A_hi, A_lo its halves).
// A 128-bit register loaded from the bytes holds A bit-reflected (bit 0 = the first bit,
// the highest power), and a carry-less multiply of a reflected half by c reflected over
// 33 bits gives the reflected product shifted by 32 powers: hence the constants
// x^160 mod P and x^96 mod P below, computed at start-up from P itself. zlib's initial
// value is the first 32 bits inverted. The last 16-31 bytes (the folded register and the
// bytes after the last whole block) go through a table of 16 entries, a nibble at a time:
// one cache line, where zlib's byte loop reads 1 KiB of table (in a server, where the
// caches are cold at every call, ~30 misses per state).
#include <zlib.h>

#include <cstdint>
#include <cstring>

#include "libs/game/codec.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tablero::game {
namespace {

uint32_t Zlib(uint32_t crc, const char* data, size_t n) {
  return static_cast<uint32_t>(
      crc32(crc, reinterpret_cast<const Bytef*>(data), static_cast<uInt>(n)));
}

#if defined(__x86_64__)

// The CRC of the nibbles 0-15 (reflected polynomial), for Nibbles below.
struct NibbleTable {
  uint32_t t[16];
  constexpr NibbleTable() : t() {
    for (uint32_t i = 0; i < 16; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 4; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
      t[i] = c;
    }
  }
};
alignas(64) constexpr NibbleTable kNibbles;

// Continues the raw (uninverted) CRC register `c` over `n` bytes, a nibble at a time.
uint32_t Nibbles(uint32_t c, const char* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    c ^= static_cast<uint8_t>(data[i]);
    c = (c >> 4) ^ kNibbles.t[c & 15];
    c = (c >> 4) ^ kNibbles.t[c & 15];
  }
  return c;
}

// x^n mod P, P = x^32 + 0x04C11DB7 (normal bit order), then reflected over 33 bits.
uint64_t FoldConstant(int n) {
  uint64_t r = 1;
  for (int i = 0; i < n; ++i) {
    r <<= 1;
    if (r >> 32) r ^= 0x104C11DB7ull;
  }
  uint64_t v = 0;
  for (int j = 0; j <= 32; ++j) v |= ((r >> (32 - j)) & 1) << j;
  return v;
}

__attribute__((target("pclmul,sse2"))) uint32_t Folded(const char* data, size_t n) {
  static const __m128i k = _mm_set_epi64x(static_cast<long long>(FoldConstant(96)),
                                          static_cast<long long>(FoldConstant(160)));
  __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
  x = _mm_xor_si128(x, _mm_cvtsi32_si128(-1));  // zlib's initial value
  size_t at = 16;
  for (; at + 16 <= n; at += 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + at));
    x = _mm_xor_si128(
        _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), block);
  }
  char folded[16];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(folded), x);
  return ~Nibbles(Nibbles(0, folded, 16), data + at, n - at);
}

bool HasClmul() {
  static const bool has = __builtin_cpu_supports("pclmul");
  return has;
}

#endif

}  // namespace

uint32_t Crc32(absl::string_view bytes) {
#if defined(__x86_64__)
  // Below a few blocks the set-up costs about what it saves.
  if (bytes.size() >= 64 && HasClmul()) return Folded(bytes.data(), bytes.size());
#endif
  return Zlib(0, bytes.data(), bytes.size());
}

}  // namespace tablero::game
