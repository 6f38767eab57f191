// Shared by the chess Game adapter's tests (game_test.cc, state_test.cc): games made
// from a FEN in either draw mode, moves played from text, events looked up, states decoded.
#ifndef TABLERO_LIBS_CHESS_TESTS_GAME_TEST_UTIL_H_
#define TABLERO_LIBS_CHESS_TESTS_GAME_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "libs/chess/chess.h"
#include "libs/chess/game.h"
#include "libs/game/codec.h"

namespace tablero::chess {

inline std::unique_ptr<game::Game> New(const char* fen = nullptr, game::Options options = {}) {
  game::NewGameParams p;
  p.kind = game::Kind::kChess;
  p.options = options;
  auto g = fen ? FromPosition(p, fen) : NewGame(p);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? std::move(*g) : nullptr;
}

inline std::unique_ptr<game::Game> Fide(const char* fen = nullptr) {
  return New(fen, {{"draw_mode", "fide"}});
}

inline absl::StatusOr<std::vector<game::Event>> PlayText(game::Game& g, absl::string_view text) {
  auto m = g.ParseMove(text);
  if (!m.ok()) return m.status();
  return g.Play(*m);
}

// Plays space-separated moves, failing the test on the first refusal.
inline std::vector<game::Event> PlayAll(game::Game& g, const std::string& moves) {
  std::vector<game::Event> last;
  for (absl::string_view t : absl::StrSplit(moves, ' ', absl::SkipEmpty())) {
    auto ev = PlayText(g, t);
    EXPECT_TRUE(ev.ok()) << t << ": " << ev.status();
    if (!ev.ok()) break;
    last = *ev;
  }
  return last;
}

inline bool Has(const std::vector<game::Event>& ev, game::EventType type, int seat = -2,
                const std::string& detail = "\x01") {
  for (const auto& e : ev) {
    if (e.type == type && (seat == -2 || e.seat == seat) &&
        (detail == "\x01" || e.detail == detail))
      return true;
  }
  return false;
}

inline absl::StatusOr<std::unique_ptr<game::Game>> DecodeBytes(const std::string& bytes) {
  auto env = game::UnwrapState(bytes);
  if (!env.ok()) return env.status();
  if (env->kind != game::Kind::kChess) return absl::InvalidArgumentError("kind");
  return Decode(env->version, env->payload);
}

inline int ParsedHalfmove(const game::Game& g) {
  std::vector<std::string> f = absl::StrSplit(g.PositionText(), ' ');
  return std::stoi(f[4]);
}

inline constexpr const char* kShuffle = "Nf3 Nf6 Ng1 Ng8";

}  // namespace tablero::chess

#endif  // TABLERO_LIBS_CHESS_TESTS_GAME_TEST_UTIL_H_
