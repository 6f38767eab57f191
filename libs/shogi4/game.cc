#include "libs/shogi4/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/game/codec.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"
#include "libs/shogi4/shogi4.h"
#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {

using game::Event;
using game::EventType;

absl::StatusOr<Rules> RulesFromOptions(const game::Options& options) {
  auto resolved = game::ResolveOptions(Info(), options);
  if (!resolved.ok()) return resolved.status();
  const game::Options& o = *resolved;
  Rules r;
  r.format = o.at("format") == "pairs" ? Format::kPairs : Format::kSingles;
  r.ending = o.at("ending") == "last_one_standing" ? Ending::kLastOneStanding : Ending::kTwoMates;
  r.ownerless = o.at("mated_pieces") == "ownerless";
  r.move_limit = static_cast<uint32_t>(std::stoul(o.at("move_limit")));
  r.pawn_before_flipped = o.at("pawn_before_flipped_king_forbidden") == "on";
  return r;
}

std::string EndReasonName(EndReason r) {
  switch (r) {
    case EndReason::kTwoMates:
      return "two_mates";
    case EndReason::kLastOneStanding:
      return "last_one_standing";
    case EndReason::kPairsMate:
      return "pairs_mate";
    case EndReason::kFourthOccurrence:
      return "fourth_occurrence";
    case EndReason::kMoveLimit:
      return "move_limit";
    case EndReason::kNone:
      break;
  }
  return "";
}

Shogi4Game::Shogi4Game(game::Options options, const Position& pos)
    : Shogi4Game(std::make_shared<const game::Options>(std::move(options)), pos) {}

Shogi4Game::Shogi4Game(std::shared_ptr<const game::Options> options, const Position& pos)
    : options_(std::move(options)), room_flags_(RoomFlags(*options_)), pos_(pos) {
  Record(pos_, Key(pos_), InCheck(pos_, pos_.to_move));
}

Shogi4Game::Shogi4Game(std::shared_ptr<const game::Options> options, Empty, uint8_t room_flags)
    : options_(std::move(options)), room_flags_(room_flags) {}

int Shogi4Game::Count(uint64_t key) const {
  int n = 0;
  for (size_t i = 0, e = Entries(); i < e; ++i) n += KeyAt(i) == key;
  return n;
}

void Shogi4Game::Record(const Position& pos, uint64_t key, bool in_check) {
  char e[kEntry];
  game::PutU64(e, key);
  e[8] = static_cast<char>((pos.last_mover + 1) | (in_check ? 8 : 0));
  history_.append(e, kEntry);
  if (triples_ > 0 || Entries() >= 3) {
    // Seen a third time: twice before. Decode's list of the keys seen twice says so
    // without a scan (while no key was seen three times).
    bool third = false;
    if (n_doubles_ >= 0 && triples_ == 0) {
      for (int i = 0; i < n_doubles_; ++i) third |= doubles_[i] == key;
    } else {
      third = Count(key) == 3;
    }
    if (third) ++triples_;
  }
  n_doubles_ = -1;
}

bool Shogi4Game::PerpetualCheck(const Position& pos, Move m) const {
  Position c = pos;
  DoMove(c, m);
  c.to_move = static_cast<int8_t>(PickNext(c, c.last_mover));
  const uint64_t key = Key(c);
  if (Count(key) < 3) return false;
  // The stretch since the first occurrence: every move of X gave check, every other move
  // answered one. Move j leads from entry j - 1 to entry j.
  const int x = pos.to_move;
  size_t first = 0;
  while (KeyAt(first) != key) ++first;
  for (size_t j = first + 1; j < Entries(); ++j) {
    bool ok = MoverAt(j) == x ? InCheckAt(j) : InCheckAt(j - 1);
    if (!ok) return false;
  }
  return InCheck(c, c.to_move);  // X's candidate move must give check as well
}

void Shogi4Game::Legal(const Position& pos, std::vector<Move>* out) const {
  MoveList list;
  GenerateLegal(pos, pos.to_move, &list);
  out->clear();
  for (Move m : list) {
    if (triples_ > 0 && PerpetualCheck(pos, m)) continue;
    out->push_back(m);
  }
}

game::Move Shogi4Game::ToMove(Move m, int seat) const {
  game::Move g;
  ToMoveInto(m, seat, &g);
  return g;
}

void Shogi4Game::ToMoveInto(Move m, int seat, game::Move* g) const {
  g->seat = seat;
  if (IsDrop(m)) {
    g->path.emplace_back(SquareNameView(MoveTo(m)));
    g->drop = PieceName(DropType(m));
  } else {
    g->path.reserve(2);
    g->path.emplace_back(SquareNameView(MoveFrom(m)));
    g->path.emplace_back(SquareNameView(MoveTo(m)));
    if (IsPromotion(m)) g->promotion.push_back('+');
  }
  g->notation = MoveText(m);
  g->display = g->notation;
}

std::vector<game::Move> Shogi4Game::LegalMoves() const {
  std::vector<game::Move> out;
  if (Over()) return out;
  std::vector<Move> moves;
  Legal(pos_, &moves);
  for (Move m : moves) out.push_back(ToMove(m, pos_.to_move));
  return out;
}

absl::StatusOr<std::vector<game::Move>> Shogi4Game::LegalMovesFrom(absl::string_view square) const {
  int from = -1, drop = kNone;
  if (square.size() == 2 && square[1] == '*') {
    auto m = ParseMoveText(absl::StrCat(square, "5e"));
    if (!m.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("\"", square, "\" is not a drop (P*, S*, G*, R*)"));
    drop = DropType(*m);
  } else {
    auto sq = ParseSquare(square);
    if (!sq.ok()) return sq.status();
    from = *sq;
  }
  std::vector<game::Move> out;
  if (Over()) return out;
  std::vector<Move> moves;
  Legal(pos_, &moves);
  for (Move m : moves) {
    bool match =
        drop != kNone ? IsDrop(m) && DropType(m) == drop : !IsDrop(m) && MoveFrom(m) == from;
    if (match) out.push_back(ToMove(m, pos_.to_move));
  }
  return out;
}

namespace {

// Can the piece on `from` reach `to` by its movement (ignoring what is on `to`)?
bool Reaches(const Position& pos, int from, int to) {
  const Tables& t = Tab();
  Cell c = pos.board[from];
  int type = TypeOf(c), f = FacingOf(c);
  for (int d = 0; d < 8; ++d) {
    if (((t.steps[type][f] >> d) & 1) && t.next[from][d] == to) return true;
  }
  if (!Slides(type)) return false;
  for (int d = 0; d < 8; d += 2) {
    for (int n = t.next[from][d]; n != kNoSquare; n = t.next[n][d]) {
      if (n == to) return true;
      if (pos.board[n] != 0) break;
    }
  }
  return false;
}

// Refusals out of line and cold: the common paths of ParseMove and Play stay dense.
[[gnu::cold, gnu::noinline]] absl::Status Refused(absl::string_view why) {
  return absl::FailedPreconditionError(why);
}

}  // namespace

[[gnu::cold]] std::string Shogi4Game::WhyIllegal(Move m) const {
  const Tables& t = Tab();
  const int s = pos_.to_move, to = MoveTo(m);
  MoveList list;
  GenerateLegal(pos_, s, &list);
  if (std::find(list.begin(), list.end(), m) != list.end()) return "perpetual check";
  Position c = pos_;
  Cell placed;
  if (IsDrop(m)) {
    int type = DropType(m);
    if (pos_.hand[s][HandIndex(type)] == 0) return absl::StrCat("no ", PieceName(type), " in hand");
    if (pos_.board[to] != 0) return "the square is occupied";
    if (type == kPawn) {
      if (t.last[s][to]) return "a pawn dropped there could never move";
      for (int sq = 0; sq < kSquares; ++sq) {
        if (pos_.board[sq] == MakeCell(kPawn, s, s) && t.line[s][sq] == t.line[s][to])
          return "nifu";
      }
    }
    placed = MakeCell(type, s, s);
  } else {
    int from = MoveFrom(m);
    Cell p = pos_.board[from];
    if (p == 0 || OwnerOf(p) != s) return absl::StrCat("no piece of yours on ", SquareName(from));
    if (!Reaches(pos_, from, to)) return "that piece does not move that way";
    Cell target = pos_.board[to];
    if (target != 0 && TypeOf(target) == kKing) return "kings are never captured";
    if (target != 0 && OwnerOf(target) == s) return "the square holds your own piece";
    int type = TypeOf(p), f = FacingOf(p);
    if (IsPromotion(m) && !(CanPromote(type) && (t.zone[f][from] || t.zone[f][to]))) {
      return "cannot promote on this move";
    }
    if (!IsPromotion(m) && type == kPawn && t.last[f][to]) return "the pawn must promote";
    placed = IsPromotion(m) ? MakeCell(kPromoted[type], s, f) : p;
    c.board[from] = 0;
    if (type == kKing) c.king[s] = static_cast<uint8_t>(to);
  }
  c.board[to] = placed;
  if (Attacked(c.board, c.king[s], pos_.Enemies(s))) return "leaves your king in check";
  if (pos_.rules.format == Format::kPairs) {
    int partner = s ^ 2;
    Squares before = Attackers(pos_.board, pos_.king[partner], pos_.Enemies(partner));
    Squares after = Attackers(c.board, c.king[partner], pos_.Enemies(partner));
    if ((after & ~before) != 0 || (after & SquareBit(to)) != 0) {
      return "gives check to your partner's king";
    }
  }
  if (TypeOf(placed) == kPawn) {
    int n = t.next[to][Forward(FacingOf(placed))];
    if (n != kNoSquare && TypeOf(c.board[n]) == kKing) {
      if (!c.Alive(OwnerOf(c.board[n]))) return "pawn in front of a flipped king";
      if (IsDrop(m)) return "pawn-drop mate";
    }
  }
  return "illegal move";
}

absl::StatusOr<game::Move> Shogi4Game::ParseMove(absl::string_view text) const {
  auto m = ParseMoveText(text);
  if (!m.ok()) return m.status();
  if (Over()) return Refused("the game is over");
  bool legal;
  if (triples_ == 0) {  // the repetition rule refuses nothing: the position decides
    legal = IsLegal(pos_, *m, InCheckAt(Entries() - 1));  // (the flag of pos_)
  } else {
    std::vector<Move> moves;
    Legal(pos_, &moves);
    legal = std::find(moves.begin(), moves.end(), *m) != moves.end();
  }
  if (!legal) {
    return Refused(absl::StrCat("illegal move ", text, ": ", WhyIllegal(*m)));
  }
  parsed_ = *m;
  return ToMove(*m, pos_.to_move);
}

namespace {

// Is `g` the structured form of `m` (ToMove's path, drop and promotion)?
bool Same(const game::Move& g, Move m) {
  if (IsDrop(m)) {
    return g.path.size() == 1 && g.path[0] == SquareNameView(MoveTo(m)) &&
           g.drop == PieceNameView(DropType(m)) && g.promotion.empty();
  }
  return g.path.size() == 2 && g.path[0] == SquareNameView(MoveFrom(m)) &&
         g.path[1] == SquareNameView(MoveTo(m)) && g.drop.empty() &&
         g.promotion == (IsPromotion(m) ? "+" : "");
}

}  // namespace

absl::StatusOr<std::vector<Event>> Shogi4Game::Play(const game::Move& move) {
  if (Over()) return Refused("the game is over");
  if (move.seat != pos_.to_move) {
    return Refused(absl::StrCat("it is seat ", static_cast<int>(pos_.to_move), "'s turn, not seat ",
                                move.seat, "'s"));
  }
  if (const Move m = parsed_; m != 0 && Same(move, m)) {  // just validated by ParseMove
    parsed_ = 0;
    return Apply(m);
  }
  parsed_ = 0;
  auto m = ParseStructured(move);
  if (!m.ok()) return m.status();
  return Apply(*m);
}

absl::StatusOr<Move> Shogi4Game::ParseStructured(const game::Move& move) const {
  std::string text;
  if (!move.drop.empty()) {
    if (move.path.size() != 1 || !move.promotion.empty()) {
      return absl::InvalidArgumentError("a drop has one square and no promotion");
    }
    text = absl::StrCat(move.drop, "*", move.path[0]);
  } else {
    if (move.path.size() != 2) return absl::InvalidArgumentError("a board move has two squares");
    if (!move.promotion.empty() && move.promotion != "+") {
      return absl::InvalidArgumentError("shogi promotion is \"+\"");
    }
    text = absl::StrCat(move.path[0], move.path[1], move.promotion);
  }
  auto parsed = ParseMove(text);
  if (!parsed.ok()) return parsed.status();
  parsed_ = 0;
  return *ParseMoveText(text);
}

namespace {

// Bit per playing seat in check in `pos`; by[seat]: the owner of its lowest checking piece.
unsigned Checks(const Position& pos, int by[kSeats]) {
  unsigned checked = 0;
  for (int seat = 0; seat < kSeats; ++seat) {
    if (!pos.Alive(seat)) continue;
    // Attacked first: most kings are not, and its code is hot already (the move search
    // and the decode use it), Attackers' only once some king is in check.
    if (!Attacked(pos.board, pos.king[seat], pos.Enemies(seat))) continue;
    Squares a = Attackers(pos.board, pos.king[seat], pos.Enemies(seat));
    checked |= 1u << seat;
    by[seat] = OwnerOf(pos.board[PopSquare(a)]);
  }
  return checked;
}

// A mate's events and the ending's, out of line: most moves have neither.
[[gnu::noinline]] void AddMate(std::vector<Event>& events, int seat, int mater, int receiver,
                               int passed) {
  events.push_back({EventType::kMate, seat, mater, ""});
  events.push_back({EventType::kElimination, seat, mater, ""});
  events.push_back({EventType::kPiecesPassed, seat, receiver, absl::StrCat(passed)});
}

[[gnu::noinline]] void AddGameOver(std::vector<Event>& events, EndReason reason) {
  events.push_back({EventType::kGameOver, -1, -1, EndReasonName(reason)});
}

// PickNext(pos, mover) from the seats in check there.
int PickNext(unsigned alive, unsigned checked, int mover) {
  for (int k = 1; k < kSeats; ++k) {
    if ((alive & checked) >> ((mover + k) & 3) & 1) return (mover + k) & 3;
  }
  for (int k = 1; k <= kSeats; ++k) {
    if (alive >> ((mover + k) & 3) & 1) return (mover + k) & 3;
  }
  return mover;
}

}  // namespace

std::vector<Event> Shogi4Game::Apply(Move m) {
  const int s = pos_.to_move;

  std::vector<Event> events;
  events.reserve(8);  // a move, a capture, a promotion, checks: one allocation
  events.push_back({EventType::kMove, s, -1, MoveText(m)});
  if (!IsDrop(m)) {
    Cell target = pos_.board[MoveTo(m)];
    if (target != 0) {
      int owner = OwnerOf(target);
      events.push_back(
          {EventType::kCapture, s, owner == kOwnerless ? -1 : owner, PieceName(TypeOf(target))});
    }
    if (IsPromotion(m)) {
      events.push_back(
          {EventType::kPromotion, s, -1, PieceName(kPromoted[TypeOf(pos_.board[MoveFrom(m)])])});
    }
  }
  last_ = m;
  last_seat_ = static_cast<int8_t>(s);

  // The key after the move from the last entry's, the position before it.
  const int from = IsDrop(m) ? -1 : static_cast<int>(MoveFrom(m)), to = MoveTo(m);
  // The hand slot it changes: a drop's, or a capture's (kings are never captured).
  const Cell captured = IsDrop(m) ? 0 : pos_.board[to];
  const int slot = IsDrop(m)       ? HandIndex(DropType(m))
                   : captured != 0 ? HandIndex(kUnpromoted[TypeOf(captured)])
                                   : -1;
  uint64_t key = KeyAt(Entries() - 1) ^ MoveTerms(pos_, s, from, to, s, slot);
  DoMove(pos_, m);
  // A fourth occurrence ends the game before anything else (perpetual check by the mover
  // was refused above).
  // The checks after the move pick the next seat, and are the check events unless a mate
  // changes the board.
  int by[kSeats];
  unsigned checked = Checks(pos_, by);
  const int next = PickNext(pos_.alive, checked, s);
  key ^= MoveTerms(pos_, next, from, to, s, slot);
  const bool fourth = triples_ > 0 && Count(key) >= 3;
  bool mated = false;
  if (fourth) {
    pos_.to_move = static_cast<int8_t>(next);
  } else {
    Resolve(
        pos_,
        [&](const Position& p, int seat) {
          if (triples_ != 0) return CanMoveRepeating(p, seat);
          // Before a mate the board is the one `checked` describes.
          return mated ? HasLegalMove(p, seat) : HasLegalMove(p, seat, true, checked >> seat & 1);
        },
        [&](int seat, int mater, int passed) {
          mated = true;
          AddMate(events, seat, mater, pos_.rules.ownerless ? -1 : mater, passed);
        },
        next);    // the same board: the same pick
    if (mated) {  // positions before a mate can never recur
      history_.clear();
      triples_ = 0;
      checked = Checks(pos_, by);
    }
  }
  checked_ = static_cast<int8_t>(checked);
  for (int seat = 0; seat < kSeats; ++seat) {
    if (checked >> seat & 1) events.push_back({EventType::kCheck, seat, by[seat], ""});
  }
  // Without a mate only the seat to move changed, to the probe's: the same key. The check
  // flag is the one just found (the seat to move is playing).
  const int t = pos_.to_move;
  Record(pos_, mated ? Key(pos_) : key, pos_.Alive(t) ? (checked_ >> t & 1) : InCheck(pos_, t));
  if (fourth) pos_.over = EndReason::kFourthOccurrence;
  if (Over()) AddGameOver(events, pos_.over);
  return events;
}

bool Shogi4Game::CanMoveRepeating(const Position& p, int seat) {
  Position q = p;
  q.to_move = static_cast<int8_t>(seat);
  // Tentatively: the perpetual-check rule looks at this position too.
  const uint64_t k = Key(q);
  Record(q, k, InCheck(q, seat));
  std::vector<Move> moves;
  Legal(q, &moves);
  if (Count(k) == 3) --triples_;
  history_.resize(history_.size() - kEntry);
  return !moves.empty();
}

absl::StatusOr<std::vector<Event>> Shogi4Game::Act(int, game::Action action, absl::string_view) {
  if (action == game::Action::kResign) {
    return absl::FailedPreconditionError("shogi has no resignation");
  }
  return absl::FailedPreconditionError("shogi has no draw offers (no resignation or draws)");
}

game::Result Shogi4Game::result() const {
  game::Result r;
  ResultInto(&r);
  return r;
}

void Shogi4Game::ResultInto(game::Result* r) const {
  r->over = Over();
  auto places = Places(pos_);
  r->places.assign(places.begin(), places.end());
  r->reason = EndReasonName(pos_.over);
}

void Shogi4Game::ViewRefs(game::PublicView* view, std::vector<game::PieceRef>* pieces) const {
  pieces->reserve(96);
  Squares all = 0;
  for (Squares b : pos_.pieces) all |= b;
  while (all != 0) {  // (square order)
    const int sq = PopSquare(all);
    const Cell c = pos_.board[sq];
    const int type = TypeOf(c);
    const bool flipped = type == kKing && !pos_.Alive(OwnerOf(c));
    // The cell's nine bits (type, owner, facing) and the flip name a piece fully.
    pieces->push_back({SquareNameView(sq), PieceNameView(type),
                       OwnerOf(c) == kOwnerless ? -1 : OwnerOf(c), FacingOf(c), flipped, sq,
                       (c & 0x1FF) | flipped << 9});
  }
  game::PublicView& v = *view;
  static constexpr int kOrder[kHandTypes] = {kRook, kGold, kSilver, kPawn};
  v.hands.resize(kSeats);
  for (int s = 0; s < kSeats; ++s) {
    for (int type : kOrder) {
      if (pos_.hand[s][HandIndex(type)] != 0) {
        v.hands[s].emplace_back(PieceNameView(type), pos_.hand[s][HandIndex(type)]);
      }
    }
  }
  v.to_move = to_move();
  for (int s = 0; s < kSeats; ++s) {
    v.active.push_back(pos_.Alive(s));
    if (pos_.Alive(s) && (checked_ >= 0 ? (checked_ >> s & 1) : InCheck(pos_, s))) {
      v.in_check.push_back(s);
    }
  }
  if (last_ != 0) {
    ToMoveInto(last_, last_seat_, &game::ReusedLastMove(&v));
  } else {
    v.last_move.reset();
  }
  char text[kMaxPositionText];  // written in place: the answer's string keeps its room
  v.position.assign(text, WritePosition(pos_, text));
  v.ply = ply();
}

std::string Shogi4Game::PositionText() const { return shogi4::PositionText(pos_); }

absl::StatusOr<std::string> Shogi4Game::Export(absl::string_view format) const {
  return absl::UnimplementedError(absl::StrCat("shogi4 has no \"", format, "\" export"));
}

std::unique_ptr<game::Game> Shogi4Game::Clone() const {
  return std::make_unique<Shogi4Game>(*this);
}

uint64_t Shogi4Game::Perft(int depth) const { return shogi4::Perft(pos_, depth); }

std::vector<std::pair<std::string, uint64_t>> Shogi4Game::Divide(int depth) const {
  std::vector<std::pair<std::string, uint64_t>> out;
  if (depth < 1 || Over()) return out;
  MoveList list;
  GenerateLegal(pos_, pos_.to_move, &list);
  for (Move m : list) {
    Position c = pos_;
    MakeMove(c, m);
    out.emplace_back(MoveText(m), shogi4::Perft(c, depth - 1));
  }
  return out;
}

}  // namespace tablero::shogi4
