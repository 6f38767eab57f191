// Cost of the encoded state on the rules service's hot path: Decode+Encode, and a full
// apply-move (Decode, ParseMove, Play, Encode), at plies 10, 40 and 100 of one fixed game.
// Not a test: run chess_state_bench by hand (Release build) and compare versions.
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "libs/chess/chess.h"
#include "libs/game/codec.h"

namespace {

using namespace tablero;  // NOLINT: a tiny tool

std::unique_ptr<game::Game> DecodeOrDie(const std::string& bytes) {
  auto env = game::UnwrapState(bytes);
  if (!env.ok()) std::abort();
  auto g = chess::Decode(env->version, env->payload);
  if (!g.ok()) {
    std::fprintf(stderr, "decode: %s\n", std::string(g.status().message()).c_str());
    std::abort();
  }
  return std::move(*g);
}

// A deterministic playout that lasts at least `plies` + 1 moves; returns the UCI moves.
std::vector<std::string> Playout(int plies) {
  for (uint64_t seed = 1;; ++seed) {
    std::mt19937_64 rng(seed);
    auto g = chess::NewGame({game::Kind::kChess, {}, 0, 0});
    std::vector<std::string> out;
    while (int(out.size()) <= plies && !(*g)->result().over) {
      auto moves = (*g)->LegalMoves();
      const game::Move m = moves[rng() % moves.size()];
      out.push_back(m.notation);
      if (!(*g)->Play(m).ok()) std::abort();
    }
    if (int(out.size()) > plies) return out;
  }
}

template <typename F>
double NsPerOp(F&& f) {
  using Clock = std::chrono::steady_clock;
  int n = 1;
  for (;;) {
    const auto t0 = Clock::now();
    for (int i = 0; i < n; ++i) f();
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    if (ns > 3e8) return ns / n;
    n *= 2;
  }
}

}  // namespace

int main() {
  const std::vector<std::string> line = Playout(100);
  std::printf("%6s %8s %18s %18s\n", "ply", "bytes", "decode+encode us", "apply us");
  for (int ply : {10, 40, 100}) {
    auto g = chess::NewGame({game::Kind::kChess, {}, 0, 0});
    for (int i = 0; i < ply; ++i) {
      auto m = (*g)->ParseMove(line[i]);
      if (!m.ok() || !(*g)->Play(*m).ok()) std::abort();
    }
    const std::string bytes = (*g)->Encode();
    const std::string next = line[ply];
    size_t sink = 0;
    const double codec = NsPerOp([&] { sink += DecodeOrDie(bytes)->Encode().size(); });
    const double apply = NsPerOp([&] {
      auto d = DecodeOrDie(bytes);
      auto m = d->ParseMove(next);
      if (!m.ok() || !d->Play(*m).ok()) std::abort();
      sink += d->Encode().size();
    });
    std::printf("%6d %8zu %18.2f %18.2f\n", ply, bytes.size(), codec / 1e3, apply / 1e3);
    if (sink == 0) return 1;
  }
  return 0;
}
