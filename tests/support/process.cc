#include "tests/support/process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <pqxx/pqxx>
#include <random>
#include <sstream>
#include <thread>

extern char** environ;

namespace tablero::testing {

std::string BinPath(const std::string& name) { return std::string(TABLERO_BIN_DIR) + "/" + name; }

namespace {

std::string g_db_base, g_db_name;

void DropTestDatabase() {
  try {
    pqxx::connection c(g_db_base);
    pqxx::nontransaction n(c);
    n.exec("DROP DATABASE IF EXISTS " + g_db_name + " WITH (FORCE)");
  } catch (const std::exception&) {
    // Best effort: the throwaway cluster goes away with the test run anyway.
  }
}

// The URL with its database name (the last path segment) replaced.
std::string WithDatabase(const std::string& url, const std::string& db) {
  size_t q = url.find('?');
  size_t slash = url.rfind('/', q == std::string::npos ? std::string::npos : q);
  std::string rest = q == std::string::npos ? "" : url.substr(q);
  return url.substr(0, slash + 1) + db + rest;
}

}  // namespace

std::string TestDatabaseUrl() {
  // Each test process gets a database of its own, created on first use from the cluster
  // that scripts/test.sh started: services of tests running in parallel (which sweep every
  // game and outbox row they can see) never act on each other's data.
  static const std::string url = []() -> std::string {
    const char* u = std::getenv("TABLERO_TEST_DATABASE_URL");
    if (u == nullptr || *u == 0) return "";
    g_db_base = u;
    std::random_device rd;
    g_db_name = "t_" + std::to_string(getpid()) + "_" + std::to_string(rd() % 1000000);
    try {
      pqxx::connection c(g_db_base);
      pqxx::nontransaction n(c);
      n.exec("CREATE DATABASE " + g_db_name);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cannot create a test database: %s\n", e.what());
      return "";
    }
    std::atexit(DropTestDatabase);
    return WithDatabase(g_db_base, g_db_name);
  }();
  return url;
}

Process::Process(const std::string& binary, const std::vector<std::string>& args,
                 const std::map<std::string, std::string>& env) {
  char tmpl[] = "/tmp/tablero-proc-XXXXXX";
  int fd = mkstemp(tmpl);
  log_path_ = tmpl;
  std::vector<std::string> envs;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv = *e;
    std::string key = kv.substr(0, kv.find('='));
    if (env.count(key) == 0) envs.push_back(kv);
  }
  for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
  // Every service of a test shares the tests' service key (internal methods need it).
  if (env.count("TABLERO_SERVICE_KEY") == 0 && std::getenv("TABLERO_SERVICE_KEY") == nullptr) {
    envs.push_back(std::string("TABLERO_SERVICE_KEY=") + kTestServiceKey);
  }
  pid_ = fork();
  if (pid_ == 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (std::string& e : envs) envp.push_back(e.data());
    envp.push_back(nullptr);
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  close(fd);
}

Process::~Process() {
  if (running()) {
    kill(pid_, SIGKILL);
    Wait(10);
  }
  unlink(log_path_.c_str());
}

bool Process::running() {
  if (status_.has_value() || pid_ <= 0) return false;
  int st = 0;
  pid_t r = waitpid(pid_, &st, WNOHANG);
  if (r == pid_) {
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return false;
  }
  return true;
}

void Process::Signal(int sig) {
  if (running()) kill(pid_, sig);
}

std::optional<int> Process::Wait(double seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (running()) {
    if (std::chrono::steady_clock::now() > until) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return status_;
}

std::string Process::log() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int FreePort() {
  // Not the kernel's pick (port 0): that comes from the ephemeral range, where every
  // outgoing connection of the machine (to Postgres, between services, other agents'
  // tests) also takes its local port, so the port could be taken again before the service
  // binds it. A random port below that range, checked free, collides only with another
  // test's pick in the moment between the check and the bind.
  int low = 32768;
  if (std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range"); range) range >> low;
  const int hi = std::max(low, 10001);
  static std::mt19937 rng(std::random_device{}() ^ static_cast<unsigned>(getpid()));
  std::uniform_int_distribution<int> pick(10000, hi - 1);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int port = pick(rng);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    const bool free = bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    close(s);
    if (free) return port;
  }
  return 0;  // the service then fails to listen, and the test says so
}

std::optional<std::string> HttpGet(const std::string& host, int port, const std::string& path) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return std::nullopt;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  inet_pton(AF_INET, host.c_str(), &a.sin_addr);
  timeval tv{5, 0};
  setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(s);
    return std::nullopt;
  }
  std::string req = "GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n";
  if (send(s, req.data(), req.size(), 0) != static_cast<ssize_t>(req.size())) {
    close(s);
    return std::nullopt;
  }
  std::string resp;
  char buf[8192];
  for (ssize_t n; (n = recv(s, buf, sizeof buf, 0)) > 0;) resp.append(buf, n);
  close(s);
  size_t body = resp.find("\r\n\r\n");
  if (resp.rfind("HTTP/1.", 0) != 0 || body == std::string::npos) return std::nullopt;
  if (resp.find(" 200 ") == std::string::npos) return std::nullopt;
  return resp.substr(body + 4);
}

}  // namespace tablero::testing
