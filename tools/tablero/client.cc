#include "tools/tablero/client.h"

#include <sys/stat.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/games/kinds.h"

namespace tablero::cli {

std::string IdentityPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  std::string dir;
  if (xdg != nullptr && *xdg != '\0') {
    dir = xdg;
  } else {
    const char* home = std::getenv("HOME");
    dir = std::string(home != nullptr ? home : ".") + "/.config";
  }
  return dir + "/tablero/identity";
}

bool LoadIdentity(Identity* id) {
  std::ifstream in(IdentityPath());
  std::string line;
  while (std::getline(in, line)) {
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string k = line.substr(0, eq), v = line.substr(eq + 1);
    if (k == "player_id") id->player_id = v;
    if (k == "token") id->token = v;
    if (k == "name") id->name = v;
    if (k == "server") id->server = v;
  }
  return !id->token.empty();
}

bool SaveIdentity(const Identity& id) {
  std::string path = IdentityPath();
  // mkdir -p of the two last levels (config folder and tablero/).
  std::string dir = path.substr(0, path.rfind('/'));
  mkdir(dir.substr(0, dir.rfind('/')).c_str(), 0700);
  mkdir(dir.c_str(), 0700);
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) return false;
  chmod(tmp.c_str(), 0600);
  std::fprintf(f, "player_id=%s\ntoken=%s\nname=%s\nserver=%s\n", id.player_id.c_str(),
               id.token.c_str(), id.name.c_str(), id.server.c_str());
  bool ok = std::fclose(f) == 0;
  return ok && std::rename(tmp.c_str(), path.c_str()) == 0;
}

Client::Client(const std::string& server, const std::string& rating_server) : server_(server) {
  mm_ = v1::Matchmaking::NewStub(grpc::CreateChannel(server, grpc::InsecureChannelCredentials()));
  rating_ =
      v1::Rating::NewStub(grpc::CreateChannel(rating_server, grpc::InsecureChannelCredentials()));
}

std::unique_ptr<grpc::ClientContext> Client::Ctx(bool auth, int seconds) const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  if (auth && !me_.token.empty()) ctx->AddMetadata("authorization", "Bearer " + me_.token);
  return ctx;
}

bool Client::EnsureGuest(const std::string& name) {
  if (LoadIdentity(&me_)) {
    v1::GetMeResponse r;
    grpc::Status s = mm_->GetMe(Ctx().get(), v1::GetMeRequest(), &r);
    if (s.ok()) {
      me_.name = r.player().display_name();
      return true;
    }
    if (s.error_code() != grpc::StatusCode::UNAUTHENTICATED) {
      Fail(s);
      return false;
    }
    std::cerr << "the saved identity is unknown to " << server_ << ": creating a new guest\n";
  }
  v1::CreateGuestRequest req;
  req.set_display_name(name);
  v1::CreateGuestResponse r;
  grpc::Status s = mm_->CreateGuest(Ctx(false).get(), req, &r);
  if (!s.ok()) {
    Fail(s);
    return false;
  }
  me_ = Identity{r.player_id(), r.token(), r.display_name(), server_};
  if (!SaveIdentity(me_)) std::cerr << "warning: cannot write " << IdentityPath() << "\n";
  return true;
}

static bool LooksLikeCode(const std::string& key, std::string* code) {
  static const std::string kAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  code->clear();
  for (char c : key) {
    if (c == '-' || c == ' ') continue;
    char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (kAlphabet.find(u) == std::string::npos) return false;
    code->push_back(u);
  }
  return code->size() == 8;
}

grpc::Status Client::FindRoom(const std::string& key, v1::Room* room) {
  std::string code;
  std::string k = key;
  if (k.rfind("/join/", 0) == 0) k = k.substr(6);
  if (LooksLikeCode(k, &code)) {
    v1::GetRoomRequest req;
    req.set_invite_code(code);
    grpc::Status s = mm_->GetRoom(Ctx(false).get(), req, room);
    if (s.error_code() != grpc::StatusCode::NOT_FOUND) return s;
  }
  v1::GetRoomRequest req;
  req.set_room_id(k);
  return mm_->GetRoom(Ctx(true).get(), req, room);  // members see the invite code
}

v1::GameKind ParseKind(const std::string& s) {
  if (s == "shogi") return v1::GAME_KIND_SHOGI4;
  if (s == "chinese-checkers") return v1::GAME_KIND_CHECKERS;
  return games::ProtoKindNamed(s).value_or(v1::GAME_KIND_UNSPECIFIED);
}

std::string KindName(v1::GameKind k) {
  return games::ProtoKind(k) ? std::string(games::KindName(k)) : "?";
}

std::string KindNames() {
  return absl::StrJoin(games::kKinds, ", ", [](std::string* out, const games::KindRow& row) {
    absl::StrAppend(out, games::KindName(row.proto));
  });
}

namespace {
constexpr std::pair<v1::RatingPool, const char*> kPools[] = {
    {v1::RATING_POOL_CHESS, "chess"},
    {v1::RATING_POOL_SHOGI4_SINGLES, "shogi4"},
    {v1::RATING_POOL_SHOGI4_PAIRS, "shogi4-pairs"},
    {v1::RATING_POOL_CHECKERS, "checkers"},
};
}  // namespace

v1::RatingPool ParsePool(const std::string& s) {
  for (const auto& [pool, name] : kPools)
    if (s == name) return pool;
  return v1::RATING_POOL_UNSPECIFIED;
}

std::string PoolName(v1::RatingPool p) {
  for (const auto& [pool, name] : kPools)
    if (p == pool) return name;
  return "?";
}

std::string PoolNames() {
  return absl::StrJoin(kPools, ", ",
                       [](std::string* out, const auto& row) { out->append(row.second); });
}

int Fail(const grpc::Status& s) {
  static const char* kNames[] = {"OK",
                                 "CANCELLED",
                                 "UNKNOWN",
                                 "INVALID_ARGUMENT",
                                 "DEADLINE_EXCEEDED",
                                 "NOT_FOUND",
                                 "ALREADY_EXISTS",
                                 "PERMISSION_DENIED",
                                 "RESOURCE_EXHAUSTED",
                                 "FAILED_PRECONDITION",
                                 "ABORTED",
                                 "OUT_OF_RANGE",
                                 "UNIMPLEMENTED",
                                 "INTERNAL",
                                 "UNAVAILABLE",
                                 "DATA_LOSS",
                                 "UNAUTHENTICATED"};
  int c = static_cast<int>(s.error_code());
  std::cerr << "error: " << (c >= 0 && c <= 16 ? kNames[c] : "?") << ": " << s.error_message()
            << "\n";
  return 1;
}

}  // namespace tablero::cli
