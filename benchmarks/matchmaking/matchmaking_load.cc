// Load generator for the matchmaking service (see matchmaking_load.sh and
// README.md). Drives --games concurrent two-player chess games between guests
// through the replicas in --targets (round robin), each game watched by a Watch stream on
// another replica. Every move is a real MakeMove: authenticated, validated by the rules
// service, committed with the version check, fanned out with LISTEN/NOTIFY. Games that
// end (the knights' shuffle runs into fivefold repetition) are rematched.
// With --cpu_games, that many more games pit a guest against a CPU seat (the bot service at
// --cpu_level): the guest plays a random legal move (ListLegalMoves) whenever its own Watch
// stream says it is its turn, and the CPU's moves are counted as they arrive on that stream.
// Prints committed moves per second (guests' and CPU's), MakeMove latency (p50/p99/max) and
// the latency from sending a move to a watcher on another replica receiving it.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "tablero/v1/matchmaking.grpc.pb.h"

ABSL_FLAG(std::string, targets, "127.0.0.1:50052", "matchmaking replicas, comma-separated");
ABSL_FLAG(int, games, 16, "concurrent games");
ABSL_FLAG(double, seconds, 10, "measured seconds");
ABSL_FLAG(double, warmup, 1, "seconds before measuring");
ABSL_FLAG(int, cpu_games, 0, "further games of a guest against a CPU seat");
ABSL_FLAG(int, cpu_level, 1, "level of the CPU seats");

namespace v1 = tablero::v1;
using Clock = std::chrono::steady_clock;

namespace {

struct Guest {
  std::string id, token;
};

void Auth(grpc::ClientContext* ctx, const Guest& g) {
  ctx->AddMetadata("authorization", "Bearer " + g.token);
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
}

Guest NewGuest(v1::Matchmaking::Stub* mm) {
  grpc::ClientContext ctx;
  v1::CreateGuestRequest req;
  v1::CreateGuestResponse resp;
  if (!mm->CreateGuest(&ctx, req, &resp).ok()) return {};
  return {resp.player_id(), resp.token()};
}

struct Stats {
  std::mutex mu;
  std::vector<double> move_ms, watch_ms;
  uint64_t moves = 0, cpu_moves = 0, errors = 0, games_ended = 0;
};

std::atomic<bool> measuring{false}, stop{false};

// Resigns a game left running when the load stops, so that no abandoned game is played on
// by the CPU (after the grace period) while the next measurement runs.
void Resign(v1::Matchmaking::Stub* a, const Guest& g, const std::string& game_id) {
  grpc::ClientContext ctx;
  Auth(&ctx, g);
  v1::ResignRequest req;
  req.set_game_id(game_id);
  v1::GameActionResponse resp;
  (void)a->Resign(&ctx, req, &resp);  // FAILED_PRECONDITION if it had just ended: fine
}

// Records one MakeMove's outcome; false if it failed.
bool Record(Stats* stats, const grpc::Status& s, double ms) {
  std::lock_guard<std::mutex> lock(stats->mu);
  if (!s.ok()) {
    ++stats->errors;
    std::fprintf(stderr, "MakeMove: %s\n", s.error_message().c_str());
  } else if (measuring) {
    ++stats->moves;
    stats->move_ms.push_back(ms);
  }
  return s.ok();
}

// One game: two guests on replica a, a watcher on replica b.
void Play(v1::Matchmaking::Stub* a, v1::Matchmaking::Stub* b, Stats* stats) {
  Guest w = NewGuest(a), k = NewGuest(a);
  v1::Room room;
  {
    grpc::ClientContext ctx;
    Auth(&ctx, w);
    v1::CreateRoomRequest req;
    req.set_kind(v1::GAME_KIND_CHESS);
    (*req.mutable_settings()->mutable_options())["draw_mode"] = "fide";
    if (!a->CreateRoom(&ctx, req, &room).ok()) return;
  }
  {
    grpc::ClientContext ctx;
    Auth(&ctx, k);
    v1::JoinRoomRequest req;
    req.set_invite_code(room.invite_code());
    v1::JoinRoomResponse resp;
    if (!a->JoinRoom(&ctx, req, &resp).ok()) return;
  }
  // The watcher notes when each (game, ply) arrives.
  std::mutex mu;
  std::vector<std::pair<std::string, Clock::time_point>> sent;  // "game:ply" -> send time
  grpc::ClientContext wctx;
  v1::WatchRequest wreq;
  wreq.set_room_id(room.id());
  wreq.set_after_seq(room.seq());
  auto reader = b->Watch(&wctx, wreq);
  std::thread watcher([&] {
    v1::RoomEvent e;
    while (reader->Read(&e)) {
      if (!e.has_move_played()) continue;
      std::string key = e.game_id() + ":" + std::to_string(e.move_played().ply());
      Clock::time_point at = Clock::now();
      std::lock_guard<std::mutex> lock(mu);
      for (auto it = sent.begin(); it != sent.end(); ++it) {
        if (it->first != key) continue;
        if (measuring) {
          std::lock_guard<std::mutex> l2(stats->mu);
          stats->watch_ms.push_back(
              std::chrono::duration<double, std::milli>(at - it->second).count());
        }
        sent.erase(it);
        break;
      }
    }
  });
  v1::Game game;
  {
    grpc::ClientContext ctx;
    Auth(&ctx, w);
    v1::StartGameRequest req;
    req.set_room_id(room.id());
    if (!a->StartGame(&ctx, req, &game).ok()) stop = true;
  }
  // Knights out and back: always legal; fivefold repetition ends the game after ~16 plies.
  const char* white[] = {"g1f3", "f3g1"};
  const char* black[] = {"g8f6", "f6g8"};
  int ply = 0;
  while (!stop) {
    const Guest& mover = game.seats(ply % 2).player_id() == w.id ? w : k;
    bool is_white = ply % 2 == 0;
    v1::MakeMoveRequest req;
    req.set_game_id(game.id());
    req.set_expected_ply(ply);
    req.set_move_text(is_white ? white[(ply / 2) % 2] : black[(ply / 2) % 2]);
    {
      std::lock_guard<std::mutex> lock(mu);
      sent.emplace_back(game.id() + ":" + std::to_string(ply + 1), Clock::now());
    }
    grpc::ClientContext ctx;
    Auth(&ctx, mover);
    v1::MakeMoveResponse resp;
    auto t0 = Clock::now();
    grpc::Status s = a->MakeMove(&ctx, req, &resp);
    if (!Record(stats, s, std::chrono::duration<double, std::milli>(Clock::now() - t0).count())) {
      break;
    }
    ++ply;
    if (resp.game().result().over()) {
      {
        std::lock_guard<std::mutex> lock(stats->mu);
        if (measuring) ++stats->games_ended;
      }
      grpc::ClientContext rctx;
      Auth(&rctx, w);
      v1::RematchRequest rq;
      rq.set_room_id(room.id());
      if (!a->Rematch(&rctx, rq, &game).ok()) break;
      ply = 0;
    }
  }
  Resign(a, w, game.id());
  wctx.TryCancel();
  watcher.join();
}

// One game of a guest against a CPU seat on replica a; the guest's own Watch stream tells
// it when its turn comes (and keeps its seat connected, so the CPU never takes it over).
void PlayVsCpu(v1::Matchmaking::Stub* a, Stats* stats, int level, uint32_t seed) {
  Guest g = NewGuest(a);
  v1::Room room;
  {
    grpc::ClientContext ctx;
    Auth(&ctx, g);
    v1::CreateRoomRequest req;
    req.set_kind(v1::GAME_KIND_CHESS);
    req.mutable_settings()->set_cpu_level(level);
    req.mutable_settings()->set_seat_count(2);
    if (!a->CreateRoom(&ctx, req, &room).ok()) return;
  }
  std::mutex mu;
  std::condition_variable cv;
  int ply = -1, to_move = -1;
  bool over = false, closed = false;
  std::string game_id;
  grpc::ClientContext wctx;
  wctx.AddMetadata("authorization", "Bearer " + g.token);
  v1::WatchRequest wreq;
  wreq.set_room_id(room.id());
  wreq.set_after_seq(room.seq());
  auto reader = a->Watch(&wctx, wreq);
  std::thread watcher([&] {
    v1::RoomEvent e;
    while (reader->Read(&e)) {
      std::lock_guard<std::mutex> lock(mu);
      if (e.game_id() != game_id) continue;
      if (e.has_move_played() && e.move_played().by_cpu() && measuring) {
        std::lock_guard<std::mutex> l2(stats->mu);
        ++stats->cpu_moves;
      }
      // The MakeMove answer may have told us of a later turn already: never go back.
      if (e.has_turn_changed() && e.turn_changed().ply() >= ply) {
        ply = e.turn_changed().ply();
        to_move = e.turn_changed().to_move();
      }
      if (e.has_game_over()) over = true;
      cv.notify_all();
    }
    std::lock_guard<std::mutex> lock(mu);
    closed = true;
    cv.notify_all();
  });
  std::mt19937 rng(seed);
  v1::Game game;
  auto start = [&](bool rematch) {
    grpc::ClientContext ctx;
    Auth(&ctx, g);
    std::lock_guard<std::mutex> lock(mu);  // no event of the new game is taken before its id
    grpc::Status s;
    if (rematch) {
      v1::RematchRequest req;
      req.set_room_id(room.id());
      s = a->Rematch(&ctx, req, &game);
    } else {
      v1::StartGameRequest req;
      req.set_room_id(room.id());
      s = a->StartGame(&ctx, req, &game);
    }
    game_id = game.id();
    ply = game.ply();
    to_move = game.to_move();
    over = false;
    return s.ok();
  };
  if (!start(false)) stop = true;
  while (!stop) {
    int seat = game.seats(0).player_id() == g.id ? 0 : 1;
    int at = 0;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait_for(lock, std::chrono::milliseconds(200),
                  [&] { return over || closed || to_move == seat; });
      if (closed) break;
      if (!over && to_move != seat) continue;
      at = ply;
    }
    if (over) {
      {
        std::lock_guard<std::mutex> lock(stats->mu);
        if (measuring) ++stats->games_ended;
      }
      if (!start(true)) break;
      continue;
    }
    v1::ListLegalMovesResponse legal;
    {
      grpc::ClientContext ctx;
      Auth(&ctx, g);
      v1::ListLegalMovesRequest req;
      req.set_game_id(game.id());
      if (!a->ListLegalMoves(&ctx, req, &legal).ok() || legal.moves_size() == 0) break;
    }
    v1::MakeMoveRequest req;
    req.set_game_id(game.id());
    req.set_expected_ply(at);
    req.set_move_text(legal.moves(rng() % legal.moves_size()).notation());
    grpc::ClientContext ctx;
    Auth(&ctx, g);
    v1::MakeMoveResponse resp;
    auto t0 = Clock::now();
    grpc::Status s = a->MakeMove(&ctx, req, &resp);
    if (!Record(stats, s, std::chrono::duration<double, std::milli>(Clock::now() - t0).count())) {
      break;
    }
    std::lock_guard<std::mutex> lock(mu);
    if (resp.game().ply() > ply) {  // the stream may not have told us yet
      ply = resp.game().ply();
      to_move = resp.game().to_move();
    }
    over = over || resp.game().result().over();
  }
  Resign(a, g, game.id());
  wctx.TryCancel();
  watcher.join();
}

double Pct(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  // As in the services (libs/service): Debian's Abseil checks every Mutex lock for
  // deadlock cycles by default, a cost a real client would not pay.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  std::vector<std::string> targets = absl::StrSplit(absl::GetFlag(FLAGS_targets), ',');
  std::vector<std::unique_ptr<v1::Matchmaking::Stub>> stubs;
  for (const auto& t : targets) {
    stubs.push_back(
        v1::Matchmaking::NewStub(grpc::CreateChannel(t, grpc::InsecureChannelCredentials())));
  }
  Stats stats;
  std::vector<std::thread> players;
  int n = absl::GetFlag(FLAGS_games);
  for (int i = 0; i < n; ++i) {
    auto* a = stubs[i % stubs.size()].get();
    auto* b = stubs[(i + 1) % stubs.size()].get();
    players.emplace_back([a, b, &stats] { Play(a, b, &stats); });
  }
  int level = absl::GetFlag(FLAGS_cpu_level);
  for (int i = 0; i < absl::GetFlag(FLAGS_cpu_games); ++i) {
    auto* a = stubs[i % stubs.size()].get();
    players.emplace_back([a, &stats, level, i] { PlayVsCpu(a, &stats, level, 1000 + i); });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(absl::GetFlag(FLAGS_warmup)));
  measuring = true;
  auto t0 = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(absl::GetFlag(FLAGS_seconds)));
  measuring = false;
  double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  stop = true;
  for (auto& t : players) t.join();
  std::lock_guard<std::mutex> lock(stats.mu);
  std::printf("replicas=%zu games=%d cpu_games=%d seconds=%.1f\n", targets.size(), n,
              absl::GetFlag(FLAGS_cpu_games), secs);
  uint64_t committed = stats.moves + stats.cpu_moves;
  std::printf("committed_moves_per_s=%.1f\n", committed / secs);
  std::printf("guest_moves=%llu cpu_moves=%llu games_ended=%llu errors=%llu\n",
              static_cast<unsigned long long>(stats.moves),
              static_cast<unsigned long long>(stats.cpu_moves),
              static_cast<unsigned long long>(stats.games_ended),
              static_cast<unsigned long long>(stats.errors));
  std::printf("MakeMove ms: p50=%.2f p99=%.2f max=%.2f\n", Pct(stats.move_ms, 0.5),
              Pct(stats.move_ms, 0.99), Pct(stats.move_ms, 1.0));
  std::printf("move -> watcher on another replica ms: p50=%.2f p99=%.2f max=%.2f (n=%zu)\n",
              Pct(stats.watch_ms, 0.5), Pct(stats.watch_ms, 0.99), Pct(stats.watch_ms, 1.0),
              stats.watch_ms.size());
  return stats.errors > 0 && stats.moves == 0 ? 1 : 0;
}
