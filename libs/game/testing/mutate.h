// Random edits of bytes for the tests that feed corrupted input to a decoder or parser:
// 1-3 edits, each overwriting, erasing (up to `max_erase` bytes) or inserting one byte.
// Header-only; for tests.
#ifndef TABLERO_LIBS_GAME_TESTING_MUTATE_H_
#define TABLERO_LIBS_GAME_TESTING_MUTATE_H_

#include <random>
#include <string>

namespace tablero::game::testing {

inline void Mutate(std::string* bytes, std::mt19937& rng, int max_erase) {
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0 && !bytes->empty(); --k) {
    switch (rng() % 3) {
      case 0:
        (*bytes)[rng() % bytes->size()] = static_cast<char>(rng());
        break;
      case 1:
        bytes->erase(rng() % bytes->size(), 1 + rng() % max_erase);
        break;
      default:
        bytes->insert(rng() % (bytes->size() + 1), 1, static_cast<char>(rng()));
    }
  }
}

}  // namespace tablero::game::testing

#endif  // TABLERO_LIBS_GAME_TESTING_MUTATE_H_
