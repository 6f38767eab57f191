// CheckersGame (game.h): text, events, view. The rules live in state.cc/movegen.cc.
#include "libs/checkers/game.h"

#include "absl/strings/str_cat.h"
#include "libs/checkers/checkers.h"
#include "libs/checkers/notation.h"

namespace tablero::checkers {

using game::AddEvent;
using game::Event;
using game::EventType;

namespace {

void AddNotes(const State& st, const Notes& notes, std::vector<Event>* out) {
  for (const Note& n : notes) {
    switch (n.type) {
      case Note::kFinished:
        AddEvent(out, EventType::kFinished, n.seat, -1, absl::StrCat(n.value));
        break;
      case Note::kSkipped:
        AddEvent(out, EventType::kSkipped, n.seat);
        break;
      case Note::kResigned: {
        AddEvent(out, EventType::kResigned, n.seat);
        int other = st.layout.seats == 2 ? 1 - n.seat : -1;
        AddEvent(out, EventType::kElimination, n.seat, other, "resigned");
        break;
      }
      case Note::kGameOver:
        AddEvent(out, EventType::kGameOver, -1, -1, ReasonName(st.reason));
        break;
    }
  }
}

}  // namespace

void MakeMoveInto(int seat, const uint8_t* path, int n, game::Move* mv) {
  mv->seat = seat;
  mv->path.reserve(n);
  const HoleNameTable& names = HoleNames();
  for (int i = 0; i < n; ++i) mv->path.emplace_back(names[path[i]]);
  mv->notation = PathText(path, n);
  mv->display = mv->notation;
}

game::Move MakeMove(int seat, const uint8_t* path, int n) {
  game::Move mv;
  MakeMoveInto(seat, path, n, &mv);
  return mv;
}

namespace {

// MakeMove into a new answer (one return: built in place, not moved).
absl::StatusOr<game::Move> Answer(int seat, const std::vector<uint8_t>& path) {
  absl::StatusOr<game::Move> out(absl::in_place);
  MakeMoveInto(seat, path.data(), static_cast<int>(path.size()), &*out);
  return out;
}

}  // namespace

void CheckersGame::MovesOf(int from, std::vector<game::Move>* out) const {
  uint8_t dest[kHoles], path[kHoles];
  int8_t parent[kHoles];
  int n = GenerateFrom(st_.layout, st_.cell, from, dest, parent);
  for (int i = 0; i < n; ++i) {
    int len = PathFromParents(from, dest[i], parent, path);
    out->push_back(MakeMove(st_.to_move, path, len));
  }
}

std::vector<game::Move> CheckersGame::LegalMoves() const {
  std::vector<game::Move> out;
  if (st_.over()) return out;
  for (int h = 0; h < kHoles; ++h) {
    if (st_.cell[h] != kEmpty && OwnerOf(st_.cell[h]) == st_.to_move) MovesOf(h, &out);
  }
  return out;
}

absl::StatusOr<std::vector<game::Move>> CheckersGame::LegalMovesFrom(
    absl::string_view square) const {
  int h = ParseHole(square);
  if (h < 0) return absl::InvalidArgumentError(absl::StrCat("\"", square, "\" is not a hole"));
  std::vector<game::Move> out;
  if (!st_.over() && st_.cell[h] != kEmpty && OwnerOf(st_.cell[h]) == st_.to_move) {
    MovesOf(h, &out);
  }
  return out;
}

absl::StatusOr<std::vector<uint8_t>> CheckersGame::Resolve(std::vector<uint8_t> path) const {
  if (st_.over()) return absl::FailedPreconditionError("the game is over");
  std::string why;
  if (CheckPath(st_.layout, st_.cell, st_.to_move, path.data(), static_cast<int>(path.size()), &why,
                &HoleName)) {
    return path;
  }
  if (path.size() == 2) {  // a bare from-to pair names the move by its ends
    uint8_t full[kHoles];
    const uint8_t c = st_.cell[path[0]];
    int n = c != kEmpty && OwnerOf(c) == st_.to_move
                ? PathTo(st_.layout, st_.cell, path[0], path[1], full)
                : 0;
    if (n > 0) return std::vector<uint8_t>(full, full + n);
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "illegal move ", PathText(path.data(), static_cast<int>(path.size())), ": ", why));
}

absl::StatusOr<game::Move> CheckersGame::ParseMove(absl::string_view text) const {
  auto path = ParsePath(text);
  if (!path.ok()) return path.status();
  auto legal = Resolve(*std::move(path));
  if (!legal.ok()) return legal.status();
  // (Parsed{}, not emplace(): clang, which clang-tidy parses with, instantiates the
  // member's std::optional<Parsed> before Parsed's member initializers are parsed, finds
  // Parsed not default-constructible then, and keeps that answer.)
  Parsed& p = parsed_.emplace(Parsed{});
  p.seat = st_.to_move;
  p.path = *std::move(legal);
  return Answer(p.seat, p.path);
}

bool CheckersGame::Matches(const Parsed& p, const game::Move& move) const {
  // MakeMove's fields for p, as game::Move::operator== compares them.
  if (move.seat != p.seat || move.path.size() != p.path.size() || !move.drop.empty() ||
      !move.promotion.empty())
    return false;
  const HoleNameTable& names = HoleNames();
  for (size_t i = 0; i < p.path.size(); ++i)
    if (move.path[i] != names[p.path[i]]) return false;
  return true;
}

absl::StatusOr<std::vector<Event>> CheckersGame::Play(const game::Move& move) {
  if (st_.over() || move.seat != st_.to_move) return Refuse(move);
  if (parsed_ && Matches(*parsed_, move)) {  // just parsed: legal
    std::vector<Event> events = Commit(&parsed_->path);
    parsed_.reset();
    return events;
  }
  parsed_.reset();
  return PlayPath(move);
}

absl::Status CheckersGame::Refuse(const game::Move& move) const {
  if (st_.over()) return absl::FailedPreconditionError("the game is over");
  return absl::FailedPreconditionError(
      absl::StrCat("it is seat ", st_.to_move, "'s turn, not seat ", move.seat, "'s"));
}

absl::StatusOr<std::vector<Event>> CheckersGame::PlayPath(const game::Move& move) {
  if (!move.drop.empty() || !move.promotion.empty()) {
    return absl::InvalidArgumentError("checkers moves have no drops or promotions");
  }
  if (move.path.size() < 2 || move.path.size() > kHoles) {
    return absl::InvalidArgumentError("a move is a path of 2 or more holes");
  }
  std::vector<uint8_t> path;
  for (const std::string& name : move.path) {
    int h = ParseHole(name);
    if (h < 0) return absl::InvalidArgumentError(absl::StrCat("\"", name, "\" is not a hole"));
    path.push_back(static_cast<uint8_t>(h));
  }
  auto legal = Resolve(std::move(path));
  if (!legal.ok()) return legal.status();
  return Commit(&*legal);
}

std::vector<Event> CheckersGame::Commit(std::vector<uint8_t>* path) {
  const int seat = st_.to_move;
  std::vector<Event> events;
  AddEvent(&events, EventType::kMove, seat, -1,
           PathText(path->data(), static_cast<int>(path->size())));
  Notes notes;
  ApplyMove(&st_, path->front(), path->back(), &notes);
  if (!notes.empty()) AddNotes(st_, notes, &events);
  last_seat_ = seat;
  last_path_ = std::move(*path);
  return events;
}

absl::StatusOr<std::vector<Event>> CheckersGame::Act(int seat, game::Action action,
                                                     absl::string_view) {
  if (seat < 0 || seat >= st_.layout.seats) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", seat, " is not in this game"));
  }
  if (action != game::Action::kResign) {
    return absl::FailedPreconditionError("Chinese Checkers has no draws by agreement or claim");
  }
  if (st_.over()) return absl::FailedPreconditionError("the game is over");
  if (st_.place[seat] != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " has already ", st_.resigned[seat] ? "resigned" : "finished"));
  }
  parsed_.reset();
  Notes notes;
  Resign(&st_, seat, &notes);
  std::vector<Event> events;
  AddNotes(st_, notes, &events);
  return events;
}

game::Result CheckersGame::result() const {
  game::Result r;
  ResultInto(&r);
  return r;
}

void CheckersGame::ResultInto(game::Result* r) const {
  r->over = st_.over();
  r->places.assign(st_.place, st_.place + st_.layout.seats);
  r->reason = ReasonName(st_.reason);
}

void CheckersGame::ViewRefs(game::PublicView* view, std::vector<game::PieceRef>* pieces) const {
  pieces->reserve(st_.layout.seats * st_.layout.pieces());
  const HoleNameTable& names = HoleNames();
  // One walk over the board for the pieces and the position text's holes by seat.
  const int n = st_.layout.seats;
  uint8_t holes[kMaxSeats][kHoles];
  int count[kMaxSeats] = {};
  ForEachPiece(st_.cell, [&](int h) {
    const uint8_t c = st_.cell[h];
    const int s = OwnerOf(c);
    pieces->push_back({names[h], IsKing(c) ? "K" : "o", s, -1, false, h, c});
    if (s < n) holes[s][count[s]++] = static_cast<uint8_t>(h);
  });
  game::PublicView& v = *view;
  v.hands.clear();  // no pieces in hand in Chinese Checkers: the view has no hands
  v.to_move = st_.to_move;
  for (int s = 0; s < st_.layout.seats; ++s) v.active.push_back(st_.place[s] == 0);
  if (last_seat_ >= 0) {
    MakeMoveInto(last_seat_, last_path_.data(), static_cast<int>(last_path_.size()),
                 &game::ReusedLastMove(&v));
  } else {
    v.last_move.reset();
  }
  checkers::PositionText(st_, holes, count, &v.position);
  v.ply = st_.ply;
}

std::string CheckersGame::PositionText() const { return checkers::PositionText(st_); }

absl::StatusOr<std::string> CheckersGame::Export(absl::string_view format) const {
  return absl::UnimplementedError(absl::StrCat("Chinese Checkers has no \"", format, "\" export"));
}

uint64_t CheckersGame::Perft(int depth) const { return checkers::Perft(st_, depth); }

std::vector<std::pair<std::string, uint64_t>> CheckersGame::Divide(int depth) const {
  std::vector<std::pair<std::string, uint64_t>> out;
  if (depth < 1 || st_.over()) return out;
  for (const game::Move& mv : LegalMoves()) {
    State child = st_;
    ApplyMove(&child, ParseHole(mv.path.front()), ParseHole(mv.path.back()), nullptr);
    out.emplace_back(mv.notation, checkers::Perft(child, depth - 1));
  }
  return out;
}

}  // namespace tablero::checkers
