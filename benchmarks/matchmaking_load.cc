// Load generator for the matchmaking service (see matchmaking_load.sh and
// README-matchmaking.md). Drives --games concurrent two-player chess games between guests
// through the replicas in --targets (round robin), each game watched by a Watch stream on
// another replica. Every move is a real MakeMove: authenticated, validated by the rules
// service, committed with the version check, fanned out with LISTEN/NOTIFY. Games that
// end (the knights' shuffle runs into fivefold repetition) are rematched.
// Prints moves per second, MakeMove latency (p50/p99/max) and the latency from sending a
// move to a watcher on another replica receiving it.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_split.h"
#include "tablero/v1/matchmaking.grpc.pb.h"

ABSL_FLAG(std::string, targets, "127.0.0.1:50052", "matchmaking replicas, comma-separated");
ABSL_FLAG(int, games, 16, "concurrent games");
ABSL_FLAG(double, seconds, 10, "measured seconds");
ABSL_FLAG(double, warmup, 1, "seconds before measuring");

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
  uint64_t moves = 0, errors = 0, games_ended = 0;
};

std::atomic<bool> measuring{false}, stop{false};

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
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    {
      std::lock_guard<std::mutex> lock(stats->mu);
      if (!s.ok()) {
        ++stats->errors;
      } else if (measuring) {
        ++stats->moves;
        stats->move_ms.push_back(ms);
      }
    }
    if (!s.ok()) break;
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
  std::this_thread::sleep_for(std::chrono::duration<double>(absl::GetFlag(FLAGS_warmup)));
  measuring = true;
  auto t0 = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(absl::GetFlag(FLAGS_seconds)));
  measuring = false;
  double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  stop = true;
  for (auto& t : players) t.join();
  std::lock_guard<std::mutex> lock(stats.mu);
  std::printf("replicas=%zu games=%d seconds=%.1f\n", targets.size(), n, secs);
  std::printf("moves=%llu moves_per_s=%.1f games_ended=%llu errors=%llu\n",
              static_cast<unsigned long long>(stats.moves), stats.moves / secs,
              static_cast<unsigned long long>(stats.games_ended),
              static_cast<unsigned long long>(stats.errors));
  std::printf("MakeMove ms: p50=%.2f p99=%.2f max=%.2f\n", Pct(stats.move_ms, 0.5),
              Pct(stats.move_ms, 0.99), Pct(stats.move_ms, 1.0));
  std::printf("move -> watcher on another replica ms: p50=%.2f p99=%.2f max=%.2f (n=%zu)\n",
              Pct(stats.watch_ms, 0.5), Pct(stats.watch_ms, 0.99), Pct(stats.watch_ms, 1.0),
              stats.watch_ms.size());
  return stats.errors > 0 && stats.moves == 0 ? 1 : 0;
}
