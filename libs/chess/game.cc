#include "libs/chess/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/chess/movegen.h"
#include "libs/chess/notation.h"

namespace tablero::chess {

using game::AddEvent;
using game::Event;
using game::EventType;

namespace {

constexpr char kPieceLetter[] = "PNBRQK";

absl::string_view PieceLetter(PieceType t) { return absl::string_view(&kPieceLetter[t], 1); }

[[gnu::cold]] absl::Status GameOver() { return absl::FailedPreconditionError("the game is over"); }

}  // namespace

uint64_t RepetitionKey(const Position& pos) {
  uint64_t k = pos.key();
  if (pos.ep_square() != kNoSquare && !HasLegalEnPassant(pos))
    k ^= zobrist::ep_file[FileOf(pos.ep_square())];
  return k;
}

uint64_t RepetitionKey(const Position& pos, const MoveList& legal) {
  uint64_t k = pos.key();
  if (pos.ep_square() != kNoSquare && !legal.has_en_passant())
    k ^= zobrist::ep_file[FileOf(pos.ep_square())];
  return k;
}

ChessGame::ChessGame(const game::Options& options, const Position& start)
    : ChessGame(options, start, true) {}

ChessGame::ChessGame(const game::Options& options, const Position& start, bool evaluate)
    : ChessGame(std::make_shared<const game::Options>(options), start, evaluate,
                StateFlags(options)) {}

ChessGame::ChessGame(std::shared_ptr<const game::Options> options, const Position& start,
                     bool evaluate, uint8_t flags)
    : options_(std::move(options)), flags_(flags), start_(start), pos_(start) {
  fide_ = flags & 1;
  resignation_exception_ = flags & 2;
  // result_.places stays empty while the game runs (result() answers {0, 0}): no
  // allocation per decoded game.
  if (!evaluate) return;
  const MoveList legal(pos_);
  keys_.push_back(RepetitionKey(pos_, legal));
  Evaluate(legal.size == 0, nullptr);  // a position given as text may already be over
}

game::Result ChessGame::result() const {
  game::Result r;
  ResultInto(&r);
  return r;
}

void ChessGame::ResultInto(game::Result* r) const {
  *r = result_;
  if (r->places.empty()) r->places.assign(2, 0);  // running: nobody placed yet
}

int ChessGame::RepetitionCount() const {
  // Only positions since the last capture or pawn move can repeat the current one.
  const size_t span = std::min<size_t>(keys_.size() - 1, pos_.halfmove_clock());
  const uint64_t now = keys_.back();
  int n = 0;
  for (size_t i = keys_.size() - 1 - span; i < keys_.size(); ++i) n += keys_[i] == now;
  return n;
}

void ChessGame::ToGameMove(const Position& pos, Move m, absl::string_view san,
                           game::Move* g) const {
  g->seat = pos.side_to_move();
  g->path.reserve(2);
  g->path.emplace_back(SquareNameView(m.from()));
  g->path.emplace_back(SquareNameView(m.to()));
  if (m.kind() == Move::kPromotion) g->promotion.assign(1, "nbrq"[m.promotion() - kKnight]);
  g->notation = ToUci(m);
  g->display.assign(san.data(), san.size());
}

std::vector<game::Move> ChessGame::LegalMoves() const {
  std::vector<game::Move> out;
  if (result_.over) return out;
  const MoveList legal(pos_);
  for (Move m : legal)
    ToGameMove(pos_, m, ToSan(pos_, m, legal, CheckSuffix(pos_, m)), &out.emplace_back());
  return out;
}

absl::StatusOr<std::vector<game::Move>> ChessGame::LegalMovesFrom(absl::string_view square) const {
  auto sq = ParseSquare(square);
  if (!sq.ok()) return sq.status();
  std::vector<game::Move> out;
  if (result_.over) return out;
  const MoveList legal(pos_);
  for (Move m : legal) {
    if (m.from() == *sq)
      ToGameMove(pos_, m, ToSan(pos_, m, legal, CheckSuffix(pos_, m)), &out.emplace_back());
  }
  return out;
}

absl::StatusOr<game::Move> ChessGame::ParseMove(absl::string_view text) const {
  if (result_.over) return GameOver();
  // Only the legal moves to the text's square: the parse and the SAN look at no others.
  MoveList to;
  auto m = ParseMoveText(pos_, text, &to);
  if (!m.ok()) return m.status();
  // What the position after m needs: the SAN's check suffix and, in Play, the endings.
  Position next = pos_;
  next.PlayMove(*m);
  // (Parsed{}, not emplace(): clang, which clang-tidy parses with, instantiates the
  // member's std::optional<Parsed> before Parsed's member initializers are parsed, finds
  // Parsed not default-constructible then, and keeps that answer.)
  Parsed& p = parsed_.emplace(Parsed{});
  p.m = *m;
  p.key = RepetitionKey(next);
  p.check = next.InCheck();
  p.stuck = !HasLegalMove(next);
  p.san = ToSan(pos_, *m, to, !p.check ? 0 : p.stuck ? '#' : '+');
  return Answer(pos_, *m, p.san);
}

absl::StatusOr<game::Move> ChessGame::Answer(const Position& pos, Move m,
                                             absl::string_view san) const {
  // Built in place (one return: no copy or move of the answer).
  absl::StatusOr<game::Move> out(absl::in_place);
  ToGameMove(pos, m, san, &*out);
  return out;
}

bool ChessGame::Matches(const Parsed& p, const game::Move& move) const {
  // ToGameMove's fields of p.m, as game::Move::operator== compares them.
  const bool promotes = p.m.kind() == Move::kPromotion;
  return move.seat == int(pos_.side_to_move()) && move.path.size() == 2 &&
         move.path[0] == SquareNameView(p.m.from()) && move.path[1] == SquareNameView(p.m.to()) &&
         move.drop.empty() && move.promotion.size() == size_t(promotes) &&
         (!promotes || move.promotion[0] == "nbrq"[p.m.promotion() - kKnight]);
}

absl::StatusOr<std::vector<Event>> ChessGame::Play(const game::Move& move) {
  if (result_.over || move.seat != to_move()) return Refuse(move);
  if (parsed_ && Matches(*parsed_, move)) {  // just parsed: legal, SAN written
    std::vector<Event> events;
    ApplyMove(parsed_->m, &events, &*parsed_);
    return events;
  }
  return PlayStructured(move);
}

absl::Status ChessGame::Refuse(const game::Move& move) const {
  if (result_.over) return GameOver();
  return absl::FailedPreconditionError(
      absl::StrCat("it is seat ", to_move(), "'s turn, not seat ", move.seat, "'s"));
}

absl::StatusOr<std::vector<Event>> ChessGame::PlayStructured(const game::Move& move) {
  if (move.path.size() != 2 || !move.drop.empty()) {
    return absl::InvalidArgumentError("a chess move has a path of two squares and no drop");
  }
  for (const std::string& sq : move.path) {
    if (auto s = ParseSquare(sq); !s.ok()) return s.status();
  }
  if (move.promotion.size() > 1 ||
      (move.promotion.size() == 1 &&
       std::string_view("qrbn").find(move.promotion[0]) == std::string_view::npos)) {
    return absl::InvalidArgumentError("promotion must be q, r, b or n");
  }
  // UCI text of the structured move, checked by the same parser clients use.
  auto m = ParseUci(pos_, absl::StrCat(move.path[0], move.path[1], move.promotion));
  if (!m.ok()) return m.status();
  std::vector<Event> events;
  ApplyMove(*m, &events);
  return events;
}

void ChessGame::ApplyMove(Move m, std::vector<Event>* events, Parsed* parsed) {
  const int seat = pos_.side_to_move(), other = 1 - seat;
  if (events) {
    if (parsed) {
      AddEvent(events, EventType::kMove, seat, -1, parsed->san);
    } else {
      AddEvent(events, EventType::kMove, seat, -1, ToSan(pos_, m));
    }
    if (pos_.IsCapture(m)) {
      AddEvent(events, EventType::kCapture, seat, other,
               PieceLetter(m.kind() == Move::kEnPassant ? kPawn : TypeOf(pos_.piece_on(m.to()))));
    }
    if (m.kind() == Move::kPromotion)
      AddEvent(events, EventType::kPromotion, seat, -1, PieceLetter(m.promotion()));
  }
  prev_ = pos_;  // View() describes the last move from it (replays skip the SAN work)
  pos_.PlayMove(m);
  moves_.push_back(m);
  bool check, stuck;
  if (parsed) {
    keys_.push_back(parsed->key);
    check = parsed->check;
    stuck = parsed->stuck;
    last_san_ = std::move(parsed->san);  // View answers the move as ParseMove did
  } else {
    keys_.push_back(RepetitionKey(pos_));
    check = pos_.InCheck();
    stuck = !HasLegalMove(pos_);
    last_san_.clear();
  }
  parsed_.reset();
  in_check_ = check;
  if (draw_offer_ != seat) draw_offer_ = -1;  // the offer lapses: its receiver moved instead
  if (events && check) AddEvent(events, EventType::kCheck, other, seat);
  Evaluate(stuck, events);
}

void ChessGame::Finish(int winner, const std::string& reason, std::vector<Event>* events) {
  result_.over = true;
  result_.reason = reason;
  result_.places = winner < 0 ? std::vector<int>{1, 1}
                              : (winner == 0 ? std::vector<int>{1, 2} : std::vector<int>{2, 1});
  draw_offer_ = -1;
  if (events) AddEvent(events, EventType::kGameOver, -1, -1, reason);
}

void ChessGame::Evaluate(bool stuck, std::vector<Event>* events) {
  const int stm = pos_.side_to_move();
  // Mate first: it takes precedence over the move-count and repetition rules.
  if (stuck) {
    if (pos_.InCheck()) {
      if (events) AddEvent(events, EventType::kMate, stm, 1 - stm);
      Finish(1 - stm, "checkmate", events);
    } else {
      Finish(-1, "stalemate", events);
    }
    return;
  }
  if (pos_.InsufficientMaterial()) return Finish(-1, "insufficient_material", events);
  const int reps = RepetitionCount();
  if (!fide_ && reps >= 3) return Finish(-1, "threefold_repetition", events);
  if (fide_ && reps >= 5) return Finish(-1, "fivefold_repetition", events);
  if (!fide_ && pos_.halfmove_clock() >= 100) return Finish(-1, "fifty_moves", events);
  if (fide_ && pos_.halfmove_clock() >= 150) return Finish(-1, "seventy_five_moves", events);
}

std::string ChessGame::ClaimableReason() const {
  if (RepetitionCount() >= 3) return "threefold_repetition";
  if (pos_.halfmove_clock() >= 100) return "fifty_moves";
  return "";
}

absl::Status ChessGame::Resign(int seat, std::vector<Event>* events) {
  if (events) events->push_back({EventType::kResigned, seat, -1, ""});
  ending_ = Ending::kResigned;
  ending_seat_ = seat;
  const int winner = 1 - seat;
  // FIDE exception: the opponent's material alone could never mate, so no win.
  const bool drawn = resignation_exception_ && pos_.CannotMateAlone(Color(winner));
  Finish(drawn ? -1 : winner, "resignation", events);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Event>> ChessGame::Act(int seat, game::Action action,
                                                  absl::string_view move_text) {
  if (seat != 0 && seat != 1) return absl::InvalidArgumentError(absl::StrCat("no seat ", seat));
  if (result_.over) return GameOver();
  const int other = 1 - seat;
  std::vector<Event> events;
  switch (action) {
    case game::Action::kResign:
      (void)Resign(seat, &events);
      return events;
    case game::Action::kOfferDraw:
      if (ply() < 2) {
        return absl::FailedPreconditionError(
            "a draw may be offered only after both sides have made a move");
      }
      if (draw_offer_ == seat) return absl::FailedPreconditionError("draw already offered");
      if (draw_offer_ == other) return Act(seat, game::Action::kAcceptDraw, "");  // crossed offers
      draw_offer_ = seat;
      events.push_back({EventType::kDrawOffered, seat, other, ""});
      return events;
    case game::Action::kAcceptDraw:
      if (draw_offer_ != other) return absl::FailedPreconditionError("no draw offer to accept");
      ending_ = Ending::kAgreed;
      Finish(-1, "draw_agreed", &events);
      return events;
    case game::Action::kDeclineDraw:
      if (draw_offer_ != other) return absl::FailedPreconditionError("no draw offer to decline");
      draw_offer_ = -1;
      events.push_back({EventType::kDrawDeclined, seat, other, ""});
      return events;
    case game::Action::kClaimDraw:
      break;
  }
  // Claims (FIDE mode): by the player to move, now or together with their move.
  if (!fide_) {
    return absl::FailedPreconditionError(
        "draws by repetition and the 50-move rule are automatic in site draw mode");
  }
  if (seat != to_move()) {
    return absl::FailedPreconditionError("only the player to move may claim a draw");
  }
  if (!move_text.empty()) {
    auto m = ParseMoveText(pos_, move_text);
    if (!m.ok()) return m.status();
    ChessGame after = *this;
    after.ApplyMove(*m, nullptr);
    if (!after.result_.over && after.ClaimableReason().empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("no draw to claim with ", move_text,
                       ": it neither repeats a position a third time nor completes 50 moves"));
    }
    ApplyMove(*m, &events);
    if (result_.over) return events;  // mate or an automatic ending came first
  }
  const std::string reason = ClaimableReason();
  if (reason.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no draw to claim: the position occurred ", RepetitionCount(), " time(s) and ",
                     pos_.halfmove_clock(), " half-moves passed without a capture or pawn move"));
  }
  events.push_back({EventType::kDrawClaimed, seat, -1, reason});
  ending_ = Ending::kClaimed;
  Finish(-1, "draw_claimed", &events);
  return events;
}

void ChessGame::ViewRefs(game::PublicView* view, std::vector<game::PieceRef>* pieces) const {
  pieces->reserve(32);
  for (Bitboard b = pos_.pieces(); b;) {  // in square order
    const Square s = PopLsb(b);
    const Piece p = pos_.piece_on(s);
    pieces->push_back(
        {SquareNameView(s), PieceLetter(TypeOf(p)), int(ColorOf(p)), -1, false, int(s), int(p)});
  }
  game::PublicView& v = *view;
  v.hands.clear();  // no pieces in hand in chess: the view has no hands
  v.to_move = to_move();
  if (in_check_ >= 0 ? in_check_ != 0 : pos_.InCheck()) v.in_check.push_back(pos_.side_to_move());
  v.active = {true, true};
  if (result_.over) {
    for (int s = 0; s < 2; ++s) v.active[s] = result_.places[s] == 1;
  }
  if (!moves_.empty()) {
    const Move m = moves_.back();
    game::Move& last = game::ReusedLastMove(&v);
    if (!last_san_.empty()) {
      ToGameMove(prev_, m, last_san_, &last);
    } else {
      ToGameMove(prev_, m, ToSan(prev_, m), &last);
    }
  } else {
    v.last_move.reset();
  }
  pos_.Fen(&v.position);
  v.ply = ply();
  if (draw_offer_ >= 0) v.draw_offer_by = draw_offer_;
}

absl::StatusOr<std::string> ChessGame::Export(absl::string_view format) const {
  if (format == "fen") return pos_.Fen();
  if (format != "pgn") {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown export format \"", format, "\" (fen or pgn)"));
  }
  // A decoded game's moves are checked here, not on Decode (see codec.cc).
  if (!history_checked_) {
    if (absl::Status s = CheckHistory(); !s.ok()) return s;
  }
  PgnTags tags;
  if (result_.over) {
    const auto& p = result_.places;
    tags.result = p[0] == p[1] ? "1/2-1/2" : (p[0] == 1 ? "1-0" : "0-1");
    const std::string winner = p[0] == 1 ? "White" : "Black";
    const std::string loser = p[0] == 1 ? "Black" : "White";
    const std::string& r = result_.reason;
    if (r == "checkmate") {
      tags.comment = winner + " wins by checkmate";
    } else if (r == "resignation") {
      const std::string resigner = ending_seat_ == 0 ? "White" : "Black";
      tags.comment = p[0] == p[1] ? resigner + " resigns; drawn (opponent cannot mate)"
                                  : resigner + " resigns";
    } else {
      tags.comment = "Draw: " + r;
    }
    (void)loser;
  }
  return WritePgn(start_, moves_, tags);
}

std::unique_ptr<game::Game> ChessGame::Clone() const { return std::make_unique<ChessGame>(*this); }

uint64_t ChessGame::Perft(int depth) const { return chess::Perft(pos_, depth); }

std::vector<std::pair<std::string, uint64_t>> ChessGame::Divide(int depth) const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const auto& [m, n] : chess::Divide(pos_, depth)) out.emplace_back(ToUci(m), n);
  return out;
}

}  // namespace tablero::chess
