// Games: StartGame, Rematch, GetGame, MakeMove, ListLegalMoves.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/service/request_id.h"
#include "services/matchmaking/ids.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/room_store.h"

namespace tablero::matchmaking {

namespace {

std::vector<std::string> PlayerMembers(const v1::Room& room) {
  std::vector<std::string> out;
  for (const auto& m : room.members()) {
    if (m.role() == v1::Member::ROLE_PLAYER) out.push_back(m.player_id());
  }
  return out;
}

int AutoSeats(const v1::Room& room, int humans, SeatRange range) {
  if (room.settings().seat_count() != 0) return room.settings().seat_count();
  return std::clamp(humans, range.min, range.max);
}

absl::Status CheckRanked(const v1::Room& room, const std::vector<std::string>& seats) {
  if (!room.settings().ranked()) return absl::OkStatus();
  for (const auto& p : seats) {
    if (p.empty()) {
      return absl::FailedPreconditionError(
          "a ranked game needs every seat to start human: invite more players or turn ranked off");
    }
  }
  return absl::OkStatus();
}

// StartGame and Rematch: the room, locked, if the caller is its host and it is in the
// state `want`; its human players and the seat count for them.
struct Startable {
  v1::Room room;
  std::vector<std::string> humans;
  int seats = 0;
};
absl::StatusOr<Startable> LockStartable(pqxx::work& w, const std::string& room_id,
                                        const std::string& caller, absl::string_view action,
                                        v1::Room::State want, absl::string_view if_playing,
                                        absl::string_view otherwise) {
  Startable st;
  if (auto s = LoadRoom(w, room_id, &st.room, true); !s.ok()) return s;
  if (st.room.host_player_id() != caller) {
    return absl::PermissionDeniedError(absl::StrCat("only the host may ", action));
  }
  if (st.room.state() != want) {
    return absl::FailedPreconditionError(st.room.state() == v1::Room::STATE_PLAYING ? if_playing
                                                                                    : otherwise);
  }
  auto range = Seats(st.room.kind());
  if (!range.ok()) return range.status();
  st.humans = PlayerMembers(st.room);
  st.seats = AutoSeats(st.room, static_cast<int>(st.humans.size()), *range);
  return st;
}

}  // namespace

absl::Status MatchmakingService::StartIn(pqxx::transaction_base& w, ToPublish& pub,
                                         const v1::Room& room,
                                         const std::vector<std::string>& seats, int first_seat,
                                         v1::Game* out) {
  if (auto s = CheckRanked(room, seats); !s.ok()) return s;
  v1::NewGameRequest ng;
  ng.set_kind(room.kind());
  *ng.mutable_options() = room.settings().options();
  ng.set_seats(static_cast<int>(seats.size()));
  ng.set_first_seat(room.kind() == v1::GAME_KIND_CHESS ? 0 : first_seat);
  auto created = backends_.NewGame(ng);
  if (!created.ok()) {
    if (created.status().code() == absl::StatusCode::kInvalidArgument) {
      return absl::FailedPreconditionError(
          absl::StrCat("the chosen options do not allow a game for ", seats.size(),
                       " seats: ", created.status().message()));
    }
    return created.status();
  }
  return CreateGame(w, pub, commits_.play(), room, seats, ng.first_seat(), *created, out);
}

grpc::Status MatchmakingService::StartGame(grpc::ServerContextBase* ctx,
                                           const v1::StartGameRequest* req, v1::Game* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("room_id", req->room_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = commits_.Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
    auto st = LockStartable(w, req->room_id(), caller->id, "start the game", v1::Room::STATE_LOBBY,
                            "a game is already running", "the room has played: use Rematch");
    if (!st.ok()) return st.status();
    const v1::Room& room = st->room;
    const std::vector<std::string>& humans = st->humans;
    const int n = st->seats;
    std::vector<std::string> seats(n);
    for (int i = 0; i < n && i < static_cast<int>(humans.size()); ++i) seats[i] = humans[i];
    return StartIn(w, pub, room, seats, room.settings().first_seat() % n, resp);
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::Rematch(grpc::ServerContextBase* ctx,
                                         const v1::RematchRequest* req, v1::Game* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("room_id", req->room_id()); !s.ok()) return ToGrpc(s);
  absl::Status s = commits_.Tx([&](pqxx::work& w, ToPublish& pub) -> absl::Status {
    auto st =
        LockStartable(w, req->room_id(), caller->id, "start a rematch", v1::Room::STATE_FINISHED,
                      "a game is still running", "no game has been played yet: use StartGame");
    if (!st.ok()) return st.status();
    const v1::Room& room = st->room;
    const std::vector<std::string>& humans = st->humans;
    const int n = st->seats;
    v1::Game prev;
    if (auto s = LoadGame(w, room.current_game_id(), &prev); !s.ok()) return s;
    std::vector<std::string> seats(n);
    auto member = [&](const std::string& id) {
      for (const auto& m : room.members()) {
        if (m.player_id() == id) return true;
      }
      return false;
    };
    if (n == prev.seats_size()) {
      // Players keep their seats where they can.
      for (int i = 0; i < n; ++i) {
        if (member(prev.seats(i).player_id())) seats[i] = prev.seats(i).player_id();
      }
    }
    for (const std::string& h : humans) {
      if (std::find(seats.begin(), seats.end(), h) != seats.end()) continue;
      auto empty = std::find(seats.begin(), seats.end(), std::string());
      if (empty == seats.end()) break;
      *empty = h;
    }
    bool rotate = room.settings().options().count("rotate_first_player") == 0 ||
                  room.settings().options().at("rotate_first_player") != "off";
    int first = room.settings().first_seat() % n;
    if (rotate) {
      if (room.kind() == v1::GAME_KIND_CHESS) {
        std::swap(seats[0], seats[1]);  // colours swap: seat 0 is always White
        first = 0;
      } else {
        first = (prev.first_seat() + 1) % n;
      }
    }
    return StartIn(w, pub, room, seats, first, resp);
  });
  return ToGrpc(s);
}

grpc::Status MatchmakingService::GetGame(grpc::ServerContextBase*, const v1::GetGameRequest* req,
                                         v1::Game* resp) {
  if (auto s = CheckId("game_id", req->game_id()); !s.ok()) return ToGrpc(s);
  return ToGrpc(commits_.Tx([&](pqxx::work& w) { return LoadGame(w, req->game_id(), resp); }));
}

grpc::Status MatchmakingService::MakeMove(grpc::ServerContextBase* ctx,
                                          const v1::MakeMoveRequest* req,
                                          v1::MakeMoveResponse* resp) {
  auto caller = auth_.Authenticate(*ctx, true);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (auto s = CheckId("game_id", req->game_id()); !s.ok()) return ToGrpc(s);
  if (req->move_text().empty() || req->move_text().size() > 256) {
    return ToGrpc(absl::InvalidArgumentError("move_text: empty or longer than 256 characters"));
  }
  if (req->expected_ply() < 0) {
    return ToGrpc(absl::InvalidArgumentError("expected_ply: must be >= 0"));
  }
  auto r = ReadGame(pool_, req->game_id());
  if (!r.ok()) return ToGrpc(r.status());
  GameRow g = std::move(*r);
  int seat = g.SeatOf(caller->id);
  if (absl::Status s = CheckSeated(g, seat); !s.ok()) return ToGrpc(s);
  if (req->expected_ply() != g.ply) {
    return ToGrpc(StalePly(
        absl::StrCat("stale move: the game is at ply ", g.ply, ", not ", req->expected_ply())));
  }
  if (g.to_move != seat) {
    return ToGrpc(service::WithReason(absl::FailedPreconditionError(absl::StrCat(
                                          "not your turn: seat ", g.to_move, " is to move")),
                                      service::reason::kNotYourTurn));
  }
  auto applied = backends_.Move(g, req->move_text(), nullptr, service::RequestId(*ctx));
  if (!applied.ok()) return ToGrpc(applied.status());
  absl::Status s = commits_.Play(g, seat, *applied, false, resp->mutable_game());
  if (!s.ok()) return ToGrpc(s);
  background_.WakeCpu(resp->game());
  *resp->mutable_move() = applied->move;
  for (const auto& e : applied->events) *resp->add_events() = e;
  return grpc::Status::OK;
}

grpc::Status MatchmakingService::ListLegalMoves(grpc::ServerContextBase* ctx,
                                                const v1::ListLegalMovesRequest* req,
                                                v1::ListLegalMovesResponse* resp) {
  if (auto s = CheckId("game_id", req->game_id()); !s.ok()) return ToGrpc(s);
  if (req->from_square().size() > 16) {
    return ToGrpc(absl::InvalidArgumentError("from_square: too long"));
  }
  auto r = ReadGame(pool_, req->game_id());
  if (!r.ok()) return ToGrpc(r.status());
  GameRow g = std::move(*r);
  if (!g.show_legal_moves && !g.over) {
    return ToGrpc(absl::PermissionDeniedError("the room's \"show_legal_moves\" option is off"));
  }
  resp->set_ply(g.ply);
  if (g.over) {
    resp->set_to_move(-1);
    return grpc::Status::OK;
  }
  auto legal = backends_.Legal(g, req->from_square(), service::RequestId(*ctx));
  if (!legal.ok()) return ToGrpc(legal.status());
  *resp->mutable_moves() = legal->moves();
  resp->set_to_move(legal->to_move());
  return grpc::Status::OK;
}

}  // namespace tablero::matchmaking
