// Short texts built a character at a time (the engines' position strings, written on
// every rules request) go to a buffer on the stack and become one std::string at the end:
// std::string's push_back and append, a call and a capacity check each, cost more than
// the rest of writing a position. Longer texts spill into the string as they grow.
#ifndef TABLERO_LIBS_GAME_TEXT_BUFFER_H_
#define TABLERO_LIBS_GAME_TEXT_BUFFER_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace tablero::game {

// Writes `v` in decimal at `p` (room for 20 characters, 21 signed) and returns the end.
inline char* PutDecimal(char* p, uint64_t v) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) *p++ = digits[--n];
  return p;
}
inline char* PutDecimal(char* p, int v) {
  if (v < 0) *p++ = '-';
  return PutDecimal(p, static_cast<uint64_t>(v < 0 ? -static_cast<int64_t>(v) : v));
}

class TextBuffer {
 public:
  TextBuffer() = default;
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

  void Put(char c) {
    if (p_ == buf_ + sizeof buf_) Spill();
    *p_++ = c;
  }
  // Short pieces (names, separators): a loop costs less than a call to memcpy.
  void Append(absl::string_view s) {
    for (char c : s) Put(c);
  }
  void Number(uint64_t v) { Commit(PutDecimal(Room(20), v)); }
  void Number(int v) { Commit(PutDecimal(Room(21), v)); }
  // Room for up to `n` (at most 256) characters written straight through the pointer,
  // then Commit(end): one check for a run of text instead of one a character.
  char* Room(size_t n) {
    if (static_cast<size_t>(buf_ + sizeof buf_ - p_) < n) Spill();
    return p_;
  }
  void Commit(char* end) { p_ = end; }
  size_t size() const { return spilled_.size() + static_cast<size_t>(p_ - buf_); }
  std::string Take() {
    Spill();
    return std::move(spilled_);
  }

 private:
  void Spill() {
    spilled_.append(buf_, static_cast<size_t>(p_ - buf_));
    p_ = buf_;
  }

  char buf_[512];
  char* p_ = buf_;
  std::string spilled_;
};

}  // namespace tablero::game

#endif  // TABLERO_LIBS_GAME_TEXT_BUFFER_H_
