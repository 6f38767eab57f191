// The traffic file rules_load --save_traffic writes and rules_replay and rules_load
// --load_traffic read: per game kind, its name, its pair count (as text) and its pairs,
// each string a 4-byte native-endian length and its bytes. Same machine only.
#ifndef TABLERO_BENCHMARKS_TRAFFIC_FILE_H_
#define TABLERO_BENCHMARKS_TRAFFIC_FILE_H_

#include <cstdint>
#include <cstdio>
#include <string>

namespace tablero::bench {

inline void PutString(std::FILE* f, const std::string& s) {
  const uint32_t n = static_cast<uint32_t>(s.size());
  std::fwrite(&n, sizeof n, 1, f);
  std::fwrite(s.data(), 1, n, f);
}

inline bool GetString(std::FILE* f, std::string* s) {
  uint32_t n;
  if (std::fread(&n, sizeof n, 1, f) != 1 || n > (64u << 20)) return false;
  s->resize(n);
  return std::fread(s->data(), 1, n, f) == n;
}

}  // namespace tablero::bench

#endif  // TABLERO_BENCHMARKS_TRAFFIC_FILE_H_
