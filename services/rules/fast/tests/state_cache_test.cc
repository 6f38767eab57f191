#include "services/rules/fast/state_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "libs/games/games.h"

namespace tablero::rules::fast {
namespace {

std::unique_ptr<game::Game> NewGame(game::Kind kind, int seats = 0) {
  game::NewGameParams p;
  p.kind = kind;
  p.seats = seats;
  auto g = games::NewGame(p);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : nullptr;
}

// A chess game `plies` moves in (the first legal move each time): a state of its own.
std::unique_ptr<game::Game> ChessAfter(int plies) {
  auto g = NewGame(game::Kind::kChess);
  for (int i = 0; i < plies; ++i) {
    auto moves = g->LegalMoves();
    EXPECT_FALSE(moves.empty());
    EXPECT_TRUE(g->Play(moves[static_cast<size_t>(i) % moves.size()]).ok());
  }
  return g;
}

TEST(StateCache, AHitTakesTheSameGameOut) {
  StateCache cache(64);
  auto g = ChessAfter(3);
  const std::string state = g->Encode();
  const game::Game* object = g.get();
  cache.Insert(state, std::move(g));
  auto hit = cache.Find(state);
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit.get(), object);  // no copy
  EXPECT_EQ(hit->Encode(), state);
  EXPECT_EQ(cache.Find(state), nullptr);  // taken: a second request decodes
}

TEST(StateCache, KeysAreTheWholeBytes) {
  StateCache cache(64);
  auto g = ChessAfter(2);
  const std::string state = g->Encode();
  cache.Insert(state, std::move(g));
  for (size_t i : {size_t{0}, state.size() / 2, state.size() - 1}) {
    std::string other = state;
    other[i] = static_cast<char>(other[i] ^ 1);
    EXPECT_EQ(cache.Find(other), nullptr) << "byte " << i;
  }
  EXPECT_EQ(cache.Find(state.substr(0, state.size() - 1)), nullptr);
  EXPECT_EQ(cache.Find(state + "x"), nullptr);
  EXPECT_NE(cache.Find(state), nullptr);
}

TEST(StateCache, ANewEntryReplacesTheSlotsOld) {
  StateCache cache(1);
  EXPECT_EQ(cache.slots(), 1u);
  auto a = ChessAfter(1), b = ChessAfter(2);
  const std::string sa = a->Encode(), sb = b->Encode();
  cache.Insert(sa, std::move(a));
  cache.Insert(sb, std::move(b));
  EXPECT_EQ(cache.Find(sa), nullptr);
  auto hit = cache.Find(sb);
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->Encode(), sb);
}

TEST(StateCache, DisabledOrOversizedKeepsNothing) {
  StateCache off(0);
  EXPECT_FALSE(off.enabled());
  auto g = ChessAfter(1);
  const std::string state = g->Encode();
  off.Insert(state, std::move(g));
  EXPECT_EQ(off.Find(state), nullptr);

  StateCache cache(8);
  EXPECT_EQ(cache.slots(), 8u);
  const std::string huge(StateCache::kMaxStateBytes + 1, 'x');
  cache.Insert(huge, ChessAfter(1));
  EXPECT_EQ(cache.Find(huge), nullptr);
  cache.Insert(state, nullptr);
  EXPECT_EQ(cache.Find(state), nullptr);
}

TEST(StateCache, RoundsSlotsUpToAPowerOfTwo) { EXPECT_EQ(StateCache(1000).slots(), 1024u); }

// Threads play their own games through one cache, as a server's threads do: every move
// takes the game of the state it was given and puts back the game of the state it answers.
// A hit must always be the game of exactly that state.
TEST(StateCache, ThreadsPlayingTheirOwnGamesAlwaysGetTheirOwnGame) {
  StateCache cache(64);  // small: slots are shared and replaced between threads
  constexpr int kThreads = 4, kGames = 6, kPlies = 40;
  std::vector<int> hits(kThreads), wrong(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) {
    pool.emplace_back([&, t] {
      for (int n = 0; n < kGames; ++n) {
        auto fresh = t % 2 ? NewGame(game::Kind::kCheckers, 3) : NewGame(game::Kind::kShogi4);
        std::string state = fresh->Encode();
        cache.Insert(state, std::move(fresh));
        for (int ply = 0; ply < kPlies; ++ply) {
          std::unique_ptr<game::Game> g = cache.Find(state);
          if (g == nullptr) {
            auto decoded = games::Decode(state, game::Kind::kUnknown);
            ASSERT_TRUE(decoded.ok()) << decoded.status();
            g = *std::move(decoded);
          } else {
            ++hits[t];
            wrong[t] += g->Encode() != state;
          }
          if (g->to_move() < 0) break;
          auto moves = g->LegalMoves();
          ASSERT_FALSE(moves.empty());
          ASSERT_TRUE(g->Play(moves[static_cast<size_t>(ply * 7 + t) % moves.size()]).ok());
          state = g->Encode();
          cache.Insert(state, std::move(g));
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(wrong[t], 0) << "thread " << t;
    EXPECT_GT(hits[t], 0) << "thread " << t;
  }
}

}  // namespace
}  // namespace tablero::rules::fast
