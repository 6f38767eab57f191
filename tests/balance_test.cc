// Client-side load balancing between services (issue 24, item 1), with real processes:
// matchmaking's channel to the bot service (libs/service/channel.h) spreads CPU moves over
// every replica its target resolves to, and a replica started later gets its share once
// the servers' maximum connection age makes the client resolve the name again.
//
// The second test resolves the bot's name through a DNS server of its own (the target's
// authority, dns://127.0.0.1:PORT/name:port, which gRPC's c-ares resolver queries): its
// answer changes while the test runs, as a headless Service's does when a pod is added.
// Two replicas share one port on two loopback addresses (127.0.0.1 and 127.0.0.2), as
// pods share a port on their own addresses.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <sstream>

#include "tests/matchmaking_test_util.h"

namespace tablero::testing {
namespace {

// A DNS server on 127.0.0.1 that answers every A query with the addresses it is given
// (TTL 0) and every other query with no records.
class FakeDns {
 public:
  FakeDns() {
    fd_ = socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return;
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~FakeDns() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    close(fd_);
  }
  int port() const { return port_; }
  void Answer(std::vector<std::string> ipv4) {
    std::lock_guard<std::mutex> lock(mu_);
    addrs_ = std::move(ipv4);
  }
  int a_queries() const { return a_queries_; }

 private:
  void Serve() {
    unsigned char buf[512];
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      sockaddr_in from{};
      socklen_t flen = sizeof from;
      ssize_t n = recvfrom(fd_, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &flen);
      if (n < 12) continue;
      // The question: labels up to the 0 byte, then type and class.
      size_t q = 12;
      while (q < static_cast<size_t>(n) && buf[q] != 0) q += buf[q] + 1;
      if (q + 5 > static_cast<size_t>(n)) continue;
      const int qtype = buf[q + 1] << 8 | buf[q + 2];
      const size_t question_end = q + 5;
      std::vector<unsigned char> out(buf, buf + question_end);
      out[2] = 0x84 | (buf[2] & 0x01);  // response, authoritative, recursion as asked
      out[3] = 0x80;                    // recursion available, no error
      out[4] = 0, out[5] = 1;           // one question
      out[8] = out[9] = out[10] = out[11] = 0;
      std::vector<std::string> addrs;
      if (qtype == 1) {
        ++a_queries_;
        std::lock_guard<std::mutex> lock(mu_);
        addrs = addrs_;
      }
      out[6] = 0, out[7] = static_cast<unsigned char>(addrs.size());
      for (const std::string& ip : addrs) {
        in_addr a{};
        inet_pton(AF_INET, ip.c_str(), &a);
        const unsigned char rr[] = {0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4};
        out.insert(out.end(), rr, rr + sizeof rr);
        const auto* b = reinterpret_cast<const unsigned char*>(&a.s_addr);
        out.insert(out.end(), b, b + 4);
      }
      sendto(fd_, out.data(), out.size(), 0, reinterpret_cast<sockaddr*>(&from), flen);
    }
  }

  int fd_ = -1, port_ = 0;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> a_queries_{0};
  std::mutex mu_;
  std::vector<std::string> addrs_;
};

// A bot replica listening on `host:port`.
struct Bot {
  std::unique_ptr<Process> proc;
  std::string addr;
  int metrics_port = 0;
  Bot(const std::string& host, int port, std::vector<std::string> flags = {}) {
    addr = host + ":" + std::to_string(port);
    metrics_port = FreePort();
    flags.push_back("--listen=" + addr);
    flags.push_back("--metrics_listen=127.0.0.1:" + std::to_string(metrics_port));
    proc = std::make_unique<Process>(BinPath("bot"), flags);
    EXPECT_EQ(WaitHealth(addr, "SERVING", 30), "SERVING") << proc->log();
  }
  // ChooseMove calls this replica received, from its own /metrics.
  int Moves() const {
    auto page = HttpGet("127.0.0.1", metrics_port, "/metrics");
    if (!page) return -1;
    std::istringstream in(*page);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("grpc_server_started_total{", 0) == 0 &&
          line.find("grpc_method=\"ChooseMove\"") != std::string::npos) {
        return static_cast<int>(std::stod(line.substr(line.rfind(' ') + 1)));
      }
    }
    return 0;  // no call yet: the series does not exist
  }
};

// A matchmaking replica with rules of its own and `bot_target` as its bot address.
struct Site {
  std::unique_ptr<Svc> rules, mm;
  std::unique_ptr<v1::Matchmaking::Stub> stub;
  explicit Site(const std::string& bot_target) {
    rules = std::make_unique<Svc>("rules", std::vector<std::string>{}, false);
    mm = std::make_unique<Svc>(
        "matchmaking",
        std::vector<std::string>{"--rules_addr=" + rules->addr, "--bot_addr=" + bot_target,
                                 "--rating_addr=", "--bot_budget_ms=20", "--cpu_workers=2"},
        true);
    stub =
        v1::Matchmaking::NewStub(grpc::CreateChannel(mm->addr, grpc::InsecureChannelCredentials()));
  }
  // A chess game the CPU plays on both sides: its host starts it alone (seat 1 is a CPU
  // seat) and leaves (the CPU plays the host's seat too).
  void CpuGame() {
    Guest host = NewGuest(stub.get(), "Host");
    v1::RoomSettings level1;
    level1.set_cpu_level(1);
    const v1::Room room = NewRoom(stub.get(), host, v1::GAME_KIND_CHESS, level1);
    v1::Game game;
    ASSERT_TRUE(Start(stub.get(), host, room.id(), &game).ok());
    v1::LeaveRoomRequest lr;
    lr.set_room_id(room.id());
    v1::LeaveRoomResponse left;
    ASSERT_TRUE(MM_CALL(stub, LeaveRoom, &host, lr, &left).ok());
  }
  // Called while waiting, with the CPU moves counted so far: a game between weak CPU
  // players ends after a few hundred moves; when no move came for a second, start another.
  void KeepBusy(int moves) {
    const auto now = std::chrono::steady_clock::now();
    if (moves != last_moves_) {
      last_moves_ = moves;
      last_change_ = now;
    } else if (now - last_change_ > std::chrono::seconds(1)) {
      CpuGame();
      last_change_ = now;
    }
  }

 private:
  int last_moves_ = -1;
  std::chrono::steady_clock::time_point last_change_ = std::chrono::steady_clock::now();
};

// Polls until pred() or `seconds` pass.
bool Eventually(const std::function<bool()>& pred, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

class BalanceTest : public DatabaseTest {};

TEST_F(BalanceTest, TwoBotReplicasBehindOneTargetEachPlayAShareOfTheCpuMoves) {
  Bot a("127.0.0.1", FreePort()), b("127.0.0.1", FreePort());
  // One target naming both (what DNS gives for a headless Service with two pods).
  Site site("ipv4:" + a.addr + "," + b.addr);
  site.CpuGame();
  site.CpuGame();
  ASSERT_TRUE(Eventually(
      [&] {
        site.KeepBusy(a.Moves() + b.Moves());
        return a.Moves() + b.Moves() >= 30;
      },
      60))
      << a.Moves() << " + " << b.Moves() << "\n"
      << site.mm->proc->log();
  const int ma = a.Moves(), mb = b.Moves(), total = ma + mb;
  std::printf("CPU moves per bot replica: %d and %d\n", ma, mb);
  // round_robin takes the replicas in turn: each gets about half (pick_first: all or none).
  EXPECT_GE(ma, total / 4) << ma << " of " << total;
  EXPECT_GE(mb, total / 4) << mb << " of " << total;
}

TEST_F(BalanceTest, AReplicaStartedLaterGetsTrafficWithinTheMaximumConnectionAge) {
  FakeDns dns;
  ASSERT_GT(dns.port(), 0);
  dns.Answer({"127.0.0.1"});
  const int port = FreePort();
  // Servers end each connection after ~2 s (and let calls on it finish within 5 s).
  const std::vector<std::string> age = {"--grpc_max_connection_age_seconds=2",
                                        "--grpc_max_connection_age_grace_seconds=5"};
  Bot a("127.0.0.1", port, age);
  Site site("dns://127.0.0.1:" + std::to_string(dns.port()) +
            "/bot.tablero.test:" + std::to_string(port));
  site.CpuGame();
  site.CpuGame();
  ASSERT_TRUE(Eventually(
      [&] {
        site.KeepBusy(a.Moves());
        return a.Moves() >= 10;
      },
      60))
      << site.mm->proc->log();

  // A second pod appears: listening, then in the name's answer. Nothing else tells the
  // client: only the first replica's connection ending (its maximum age) makes it resolve
  // again and connect to the new one.
  Bot b("127.0.0.2", port, age);
  dns.Answer({"127.0.0.1", "127.0.0.2"});
  const auto added = std::chrono::steady_clock::now();
  const int a_before = a.Moves();
  // Within the age (2 s, +-10%) plus the channel's least spacing of resolutions (1 s) and
  // a margin for a loaded machine.
  EXPECT_TRUE(Eventually(
      [&] {
        site.KeepBusy(a.Moves() + b.Moves());
        return b.Moves() > 0;
      },
      20))
      << "the new replica got no CPU move; DNS A queries: " << dns.a_queries() << "\n"
      << site.mm->proc->log();
  std::printf("the replica started later had its first CPU move %.1f s after it was added\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - added).count());
  // And from then on both share the work.
  ASSERT_TRUE(Eventually(
      [&] {
        site.KeepBusy(a.Moves() + b.Moves());
        return b.Moves() >= 10 && a.Moves() >= a_before + 10;
      },
      60))
      << a.Moves() << " / " << b.Moves();
}

}  // namespace
}  // namespace tablero::testing
