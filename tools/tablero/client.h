// The tablero command-line client's connection: servers, the guest identity kept in the
// user's config folder, and small helpers around the generated stubs.
#ifndef TABLERO_TOOLS_TABLERO_CLIENT_H_
#define TABLERO_TOOLS_TABLERO_CLIENT_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "tablero/v1/matchmaking.grpc.pb.h"
#include "tablero/v1/rating.grpc.pb.h"

namespace tablero::cli {

namespace v1 = ::tablero::v1;

struct Identity {
  std::string player_id, token, name, server;
};

// $XDG_CONFIG_HOME/tablero/identity, else ~/.config/tablero/identity.
std::string IdentityPath();
bool LoadIdentity(Identity* id);
// Writes the file with mode 0600 (the token is a secret). False on failure.
bool SaveIdentity(const Identity& id);

class Client {
 public:
  Client(const std::string& server, const std::string& rating_server);
  v1::Matchmaking::Stub* mm() { return mm_.get(); }
  v1::Rating::Stub* rating() { return rating_.get(); }
  const std::string& server() const { return server_; }

  // The saved identity when the server still knows it, else a new guest (saved). Prints
  // an error and returns false when the server cannot be reached.
  bool EnsureGuest(const std::string& name = "");
  const Identity& me() const { return me_; }

  // A context with a deadline, and the token when `auth`.
  std::unique_ptr<grpc::ClientContext> Ctx(bool auth = true, int seconds = 20) const;

  // A room by invite code (any case, dashes allowed) or by room id.
  grpc::Status FindRoom(const std::string& key, v1::Room* room);

 private:
  std::string server_;
  std::unique_ptr<v1::Matchmaking::Stub> mm_;
  std::unique_ptr<v1::Rating::Stub> rating_;
  Identity me_;
};

// games::KindName's names ("chess", "shogi4", "checkers"), and "shogi" and
// "chinese-checkers" -> kind; UNSPECIFIED if unknown.
v1::GameKind ParseKind(const std::string& s);
// games::KindName, or "?" for a kind no row has.
std::string KindName(v1::GameKind k);
// The names ParseKind takes first, as "chess, shogi4, checkers".
std::string KindNames();
// Rating pools by the names the client takes and prints: "chess", "shogi4",
// "shogi4-pairs", "checkers". ParsePool: UNSPECIFIED if unknown; PoolName: "?" for a pool
// no row has.
v1::RatingPool ParsePool(const std::string& s);
std::string PoolName(v1::RatingPool p);
// The names ParsePool takes, as "chess, shogi4, shogi4-pairs, checkers".
std::string PoolNames();
// Prints "error: <code>: <message>" to stderr; returns 1 (the exit code).
int Fail(const grpc::Status& s);

}  // namespace tablero::cli

#endif  // TABLERO_TOOLS_TABLERO_CLIENT_H_
