// Encoded state (payload of the game::WrapState envelope, version 2):
//   flags (u8: bit0 fide draw mode, bit1 resignation exception, bit2 show_legal_moves,
//          bit3 rotate_first_player)
//   start position (Position::Pack) | move count (varint) | each move's 16 bits (u16 LE)
//   [| the position before the last move (Position::Pack), when there are moves]
//   | key count n (varint) | n RepetitionKey()s (u64) of the positions before the current
//   one since the last capture or pawn move (n = min(moves, halfmove clock))
//   | pending draw offer (u8: 0 none, 1 White, 2 Black) | ending (u8: ChessGame::Ending)
//   [| resigning seat (u8) when resigned]
//
// Decode is cheap (the rules service decodes on every request): it never replays the
// game. The stored position is validated like strict FEN input, the last move must be
// legal in it, and the current position is that move played, so the board a client can
// continue from is always a legal one (and View() shows the last move exactly). The move
// list is checked only for its length (against the move counters); the replay that proves
// it leads to the current position runs lazily in CheckHistory(), which Export("pgn")
// calls and which returns INVALID_ARGUMENT for a forged history.
// The repetition keys are trusted as given: they only decide draws by repetition, which
// a client could also reach by playing the moves, so a forged key gains nothing a player
// cannot claim anyway. Their count is checked, the current key is recomputed.
// Version 1 (start FEN plus moves, replayed on decode) was never deployed and is refused.
#include "libs/game/codec.h"

#include <algorithm>
#include <array>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/chess/chess.h"
#include "libs/chess/game.h"
#include "libs/chess/movegen.h"

namespace tablero::chess {
namespace {

constexpr uint8_t kVersion = 2;
constexpr uint64_t kMaxPlies = 20000;  // far beyond any game the 75-move rule allows

[[gnu::cold]] absl::Status Bad(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("chess state: ", why));
}

// `part`: the problem `s` of one part of the state.
[[gnu::noinline, gnu::cold]] absl::Status BadPart(absl::string_view part, const absl::Status& s) {
  return Bad(absl::StrCat(part, s.message()));
}

[[gnu::noinline, gnu::cold]] absl::Status BadVersion(uint8_t version);

bool On(const game::Options& o, const char* name) {
  auto it = o.find(name);
  return it != o.end() && it->second == "on";
}

// The resolved options of each flag combination, built once (resolving costs more than
// the rest of a decode). The table is built out of line: its code would otherwise sit
// between Decode's hot lines.
using OptionTable = std::array<game::Options, 16>;

[[gnu::noinline, gnu::cold]] const OptionTable* MakeOptionTable() {
  auto* t = new OptionTable;
  for (int f = 0; f < 16; ++f) {
    game::Options given = {
        {"draw_mode", f & 1 ? "fide" : "site"},
        {"fide_resignation_exception", f & 2 ? "on" : "off"},
        {"show_legal_moves", f & 4 ? "on" : "off"},
        {"rotate_first_player", f & 8 ? "on" : "off"},
    };
    auto o = game::ResolveOptions(Info(), given);
    if (o.ok()) (*t)[f] = *std::move(o);
  }
  return t;
}

const game::Options* OptionsOf(uint8_t flags) {
  static const OptionTable* table = MakeOptionTable();
  return flags < 16 && !(*table)[flags].empty() ? &(*table)[flags] : nullptr;
}

// Only the legal moves to m's square are generated: m is legal if it is among them.
bool IsLegal(const Position& pos, Move m) { return MoveList(pos, m.to()).contains(m); }

// The standard start position, packed and as Unpack makes it: nearly every game starts
// there, and comparing its bytes costs far less than packing or unpacking them.
struct Standard {
  char bytes[Position::kMaxPacked];
  size_t size;
  Position pos;
  absl::string_view packed() const { return absl::string_view(bytes, size); }
};

[[gnu::noinline, gnu::cold]] const Standard* MakeStandard() {
  auto* s = new Standard;
  s->size = size_t(Position::StartPosition().Pack(s->bytes) - s->bytes);
  game::ByteReader r(s->packed());
  s->pos = *Position::Unpack(&r);
  return s;
}

const Standard& StandardStart() {
  static const Standard* standard = MakeStandard();
  return *standard;
}

// The start position at `r`, whose bytes are `in`.
absl::StatusOr<Position> ReadStart(game::ByteReader* r, absl::string_view in) {
  const Standard& standard = StandardStart();
  if (!absl::StartsWith(in, standard.packed())) return Position::Unpack(r);
  r->Bytes(standard.size);
  return standard.pos;
}

// Plies since the standard numbering's start, to compare positions of one game.
int PlyIndex(const Position& pos) { return 2 * (pos.fullmove_number() - 1) + pos.side_to_move(); }

}  // namespace

uint8_t ChessGame::StateFlags(const game::Options& o) {
  auto mode = o.find("draw_mode");
  return uint8_t((mode != o.end() && mode->second == "fide") |
                 On(o, "fide_resignation_exception") << 1 | On(o, "show_legal_moves") << 2 |
                 On(o, "rotate_first_player") << 3);
}

std::string ChessGame::Encode() const {
  std::string s;
  EncodeInto(&s);
  return s;
}

void ChessGame::EncodeInto(std::string* state) const {
  const size_t n = std::min<size_t>(keys_.size() - 1, pos_.halfmove_clock());
  // The packed positions first, so that the payload is written in one block of known size.
  char start[Position::kMaxPacked], prev[Position::kMaxPacked];
  const Standard& standard = StandardStart();
  const size_t start_size = start_ == standard.pos
                                ? size_t(std::copy_n(standard.bytes, standard.size, start) - start)
                                : size_t(start_.Pack(start) - start);
  const size_t prev_size = moves_.empty() ? 0 : size_t(prev_.Pack(prev) - prev);
  char varints[20];
  char* const moves_end = detail::PutVarint(varints, moves_.size());
  const size_t moves_size = size_t(moves_end - varints);
  const size_t keys_size = size_t(detail::PutVarint(moves_end, n) - moves_end);
  const size_t size = 1 + start_size + moves_size + 2 * moves_.size() + prev_size + keys_size +
                      8 * n + 2 + (ending_ == Ending::kResigned);
  game::ByteWriter w(std::move(*state));
  w.BeginState(game::Kind::kChess, kVersion, size);
  char* out = w.Extend(size);
  *out++ = char(flags_);
  out = std::copy_n(start, start_size, out);
  out = std::copy_n(varints, moves_size, out);
  for (Move m : moves_) {
    *out++ = char(m.raw());
    *out++ = char(m.raw() >> 8);
  }
  out = std::copy_n(prev, prev_size, out);
  out = std::copy_n(moves_end, keys_size, out);
  for (size_t i = keys_.size() - 1 - n; i + 1 < keys_.size(); ++i, out += 8)
    game::PutU64(out, keys_[i]);
  *out++ = char(draw_offer_ + 1);
  *out++ = char(ending_);
  if (ending_ == Ending::kResigned) *out = char(ending_seat_);
  *state = w.FinishState();
}

absl::Status ChessGame::CheckHistory() const {
  ChessGame replay(options_, start_, true, flags_);
  for (size_t i = 0; i < moves_.size(); ++i) {
    if (replay.result_.over) return Bad(absl::StrCat("move ", i + 1, " after the end"));
    if (!IsLegal(replay.pos_, moves_[i])) return Bad(absl::StrCat("move ", i + 1, " is illegal"));
    replay.ApplyMove(moves_[i], nullptr);
  }
  if (!(replay.pos_ == pos_)) return Bad("the moves do not lead to the position");
  const size_t n = keys_.size();
  if (replay.keys_.size() < n || !std::equal(keys_.begin(), keys_.end(), replay.keys_.end() - n))
    return Bad("the repetition keys do not match the moves");
  return absl::OkStatus();
}

absl::Status ChessGame::RestoreEnding(Ending ending, int seat, int draw_offer) {
  if ((ending != Ending::kNone || draw_offer >= 0) && result_.over) {
    return Bad("an ending or offer after the game was already over");
  }
  switch (ending) {
    case Ending::kNone:
      if (draw_offer >= 0) {
        if (ply() < 2) return Bad("a draw offer before both sides moved");
        draw_offer_ = draw_offer;
      }
      return absl::OkStatus();
    case Ending::kResigned:
      if (seat != 0 && seat != 1) return Bad("bad resigning seat");
      return Resign(seat, nullptr);
    case Ending::kAgreed:
      if (ply() < 2) return Bad("a draw agreed before both sides moved");
      ending_ = ending;
      Finish(-1, "draw_agreed", nullptr);
      return absl::OkStatus();
    case Ending::kClaimed:
      if (!fide_ || ClaimableReason().empty()) return Bad("a draw claim that does not hold");
      ending_ = ending;
      Finish(-1, "draw_claimed", nullptr);
      return absl::OkStatus();
  }
  return Bad("unknown ending");
}

namespace {

absl::Status BadVersion(uint8_t version) {
  return Bad(
      absl::StrCat("unsupported version ", version, " (this build reads version ", kVersion, ")"));
}

}  // namespace

absl::Status ChessGame::DecodeRest(game::ByteReader* r) {
  const uint64_t n = r->Varint();
  if (!r->ok() || n > kMaxPlies || 2 * n > r->remaining()) return Bad("bad move count");
  moves_.reserve(n + 1);  // room for the move the request plays: no reallocation then
  moves_.resize(n);
  const char* in = r->Bytes(2 * n).data();
  for (Move& m : moves_) {
    m = Move(uint16_t(uint8_t(in[0]) | uint8_t(in[1]) << 8));
    in += 2;
  }
  if (n > 0) {
    auto prev = Position::Unpack(r);
    if (!prev.ok()) return BadPart("previous position: ", prev.status());
    if (!IsLegal(*prev, moves_.back())) return Bad("the last move is illegal");
    prev_ = *prev;
    pos_ = *prev;
    pos_.PlayMove(moves_.back());
  }
  if (PlyIndex(pos_) - PlyIndex(start_) != int(n))
    return Bad("the move count does not match the move numbers");
  const uint64_t keys = r->Varint();
  if (!r->ok() || keys != std::min<uint64_t>(n, pos_.halfmove_clock()) || 8 * keys > r->remaining())
    return Bad("bad repetition key count");
  keys_.reserve(keys + 2);
  keys_.resize(keys + 1);
  in = r->Bytes(8 * keys).data();
  for (uint64_t i = 0; i < keys; ++i) keys_[i] = game::GetU64(in + 8 * i);
  const uint8_t offer = r->U8();
  const uint8_t ending = r->U8();
  const int seat = ending == uint8_t(Ending::kResigned) ? r->U8() : -1;
  if (!r->ok()) return Bad("truncated");
  if (!r->done()) return Bad("trailing bytes");
  if (offer > 2) return Bad("bad draw offer");
  if (ending > uint8_t(Ending::kClaimed)) return Bad("bad ending");
  if (offer && ending) return Bad("a pending draw offer in a finished game");
  history_checked_ = n == 0;
  keys_.back() = RepetitionKey(pos_);
  // Automatic endings follow from the position and keys.
  Evaluate(!HasLegalMove(pos_), nullptr);
  return RestoreEnding(Ending(ending), seat, int(offer) - 1);
}

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version, absl::string_view payload) {
  if (version != kVersion) return BadVersion(version);
  game::ByteReader r(payload);
  const uint8_t flags = r.U8();
  if (!r.ok()) return Bad("truncated header");
  const game::Options* options = OptionsOf(flags);
  if (!options) return Bad("unknown option flags");
  auto start = ReadStart(&r, payload.substr(1));
  if (!start.ok()) return BadPart("start: ", start.status());
  // The table lives for the whole process: shared without a count.
  std::unique_ptr<ChessGame> g(
      new ChessGame(std::shared_ptr<const game::Options>(std::shared_ptr<void>(), options), *start,
                    false, flags));
  // The rest read by a member: every refusal returns through one place that frees g.
  if (absl::Status s = g->DecodeRest(&r); !s.ok()) return s;
  return g;
}

}  // namespace tablero::chess
