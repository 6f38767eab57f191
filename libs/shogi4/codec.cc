// The state encoding of a four-player shogi game (Game::Encode, Decode): version 2
// (options as flag bits, the position as binary cells) is written; version 1 (options and
// position as text) is still read.
#include "libs/game/codec.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "libs/shogi4/game.h"
#include "libs/shogi4/history.h"
#include "libs/shogi4/movegen.h"
#include "libs/shogi4/notation.h"
#include "libs/shogi4/shogi4.h"
#include "libs/shogi4/tables.h"

namespace tablero::shogi4 {

namespace {

// Version 1: options as (name, value) strings, the position as text. Version 2 (written
// since 2026-12): the options as flag bits, the position as binary cells. Both decode,
// version 1 for the states of games that were running when version 2 came.
constexpr uint8_t kVersionText = 1;
constexpr uint8_t kVersion = kStateVersion;

// Option bits of version 2 (the other options' values follow from Rules).
constexpr uint8_t kFlagPairs = 1, kFlagLastOneStanding = 2, kFlagOwnerless = 4, kFlagPawnRule = 8,
                  kFlagShowLegalMoves = 16, kFlagRotateFirst = 32;

// Refusals out of line and cold, so that a decode's common path stays dense.
[[gnu::cold, gnu::noinline]] absl::Status PositionError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("shogi4 position: ", why));
}

[[gnu::cold, gnu::noinline]] absl::Status StateError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("shogi4 state: ", why));
}

bool On(const game::Options& o, const char* name) {
  auto it = o.find(name);
  return it != o.end() && it->second == "on";
}

// The resolved options and rules of one (flags, move limit) pair, built once per thread:
// resolving and parsing option text cost more than the rest of a decode.
struct OptionSet {
  std::shared_ptr<const game::Options> options;
  Rules rules;
};

// OptionsOf's map of every pair seen (out of line: a thread's traffic mostly repeats one).
[[gnu::noinline]] const OptionSet* LookUpOptions(uint8_t flags, uint64_t move_limit,
                                                 absl::Status* error, OptionSet* last) {
  thread_local absl::flat_hash_map<uint64_t, OptionSet> cache;
  const uint64_t key = move_limit << 8 | flags;
  auto it = cache.find(key);
  if (it == cache.end()) {
    auto onoff = [&](uint8_t bit) { return std::string(flags & bit ? "on" : "off"); };
    game::Options given = {
        {"format", flags & kFlagPairs ? "pairs" : "singles"},
        {"ending", flags & kFlagLastOneStanding ? "last_one_standing" : "two_mates"},
        {"mated_pieces", flags & kFlagOwnerless ? "ownerless" : "to_mater"},
        {"move_limit", absl::StrCat(move_limit)},
        {"pawn_before_flipped_king_forbidden", onoff(kFlagPawnRule)},
        {"show_legal_moves", onoff(kFlagShowLegalMoves)},
        {"rotate_first_player", onoff(kFlagRotateFirst)},
    };
    auto resolved = game::ResolveOptions(Info(), given);
    if (!resolved.ok()) {
      *error = resolved.status();
      return nullptr;
    }
    auto rules = RulesFromOptions(*resolved);
    if (!rules.ok()) {
      *error = rules.status();
      return nullptr;
    }
    if (cache.size() >= 256) cache.clear();
    it = cache
             .emplace(key, OptionSet{std::make_shared<const game::Options>(*std::move(resolved)),
                                     *rules})
             .first;
  }
  *last = it->second;
  return last;
}

// The set of (flags, move limit), nullptr (with `error`) when refused; it stays valid until
// the next call on this thread.
const OptionSet* OptionsOf(uint8_t flags, uint64_t move_limit, absl::Status* error) {
  if (flags >= 64) {
    *error = StateError("unknown option bits");
    return nullptr;
  }
  if (move_limit > 100000) {
    *error = StateError("bad move limit");
    return nullptr;
  }
  // The pair of the last call first (distinct valid pairs have distinct keys).
  thread_local uint64_t last_key = ~uint64_t{0};
  thread_local OptionSet last;
  const uint64_t key = move_limit << 8 | flags;
  if (key == last_key) return &last;
  const OptionSet* set = LookUpOptions(flags, move_limit, error, &last);
  last_key = set != nullptr ? key : ~uint64_t{0};
  return set;
}

// The binary position of version 2, checked as ParsePosition checks text: every cell a
// real piece, one king per seat (a mated seat's flipped), no piece of a mated seat but
// its king, no pawn that could never move, hands and mates as the rules allow.
// Read into `pos` (as constructed) in place, with Key(pos) found on the way (`key`).
absl::Status ReadPosition(game::ByteReader& r, const Rules& rules, Position& pos, uint64_t* key) {
  pos.rules = rules;
  pos.alive = 0xF;
  uint8_t occupied[11] = {};
  if (const absl::string_view b = r.Bytes(sizeof occupied); r.ok()) {
    std::memcpy(occupied, b.data(), sizeof occupied);
  }
  // The squares of the board marked occupied (bits beyond it are refused below).
  const uint64_t lo = game::GetU64(reinterpret_cast<const char*>(occupied));
  uint64_t hi = 0;
  for (int i = 8; i < 11; ++i) hi |= static_cast<uint64_t>(occupied[i]) << (8 * (i - 8));
  const Squares marked = (static_cast<Squares>(hi) << 64 | lo) & kAllSquares;
  const int count = __builtin_popcountll(lo) + __builtin_popcountll(hi & 0x1FFFF);
  // Two bytes a cell, little-endian, in square order; read where they lie.
  const char* cell = r.Bytes(2 * static_cast<size_t>(count)).data();
  // The seat to move, the hands and the mate count in one read, then the mates (all 0 once
  // a read failed: refused as truncated below).
  uint8_t seats[2 + kSeats * kHandTypes] = {};
  if (const absl::string_view b = r.Bytes(sizeof seats); r.ok()) {
    std::memcpy(seats, b.data(), sizeof seats);
  }
  const uint8_t to_move = seats[0];
  uint8_t hand[kSeats][kHandTypes];
  std::memcpy(hand, seats + 1, sizeof hand);
  const uint8_t n_elim = seats[1 + sizeof hand];
  uint8_t elim[kSeats] = {};
  const size_t n_read = n_elim < kSeats ? n_elim : kSeats;
  if (const absl::string_view b = r.Bytes(n_read); r.ok() && n_read > 0) {
    std::memcpy(elim, b.data(), n_read);
  }
  const uint64_t ply = r.Varint();
  if (!r.ok()) return PositionError("truncated");
  if (occupied[10] >> 1) return PositionError("occupied squares beyond the board");
  if (n_elim > 3) return PositionError("at most three seats can be eliminated");
  for (int i = 0; i < n_elim; ++i) {
    const int seat = elim[i] & 15, mater = elim[i] >> 4;
    if (seat >= kSeats || mater >= kSeats) return PositionError("bad eliminated entry");
    if (!pos.Alive(seat)) return PositionError(absl::StrCat("seat ", seat, " eliminated twice"));
    if (!pos.Alive(mater) || mater == seat) {
      return PositionError(absl::StrCat("seat ", seat, " cannot be mated by seat ", mater));
    }
    pos.alive &= static_cast<uint8_t>(~(1u << seat));
    pos.elim[pos.n_elim++] = static_cast<int8_t>(seat);
    pos.mated_by[seat] = static_cast<int8_t>(mater);
  }
  int kings[kSeats] = {0, 0, 0, 0};
  int total = 0;
  const Tables& t = Tab();
  uint64_t k = 0;                      // (Key's terms in the same passes)
  for (Squares b = marked; b != 0;) {  // (square order)
    const int sq = PopSquare(b);
    const Cell c =
        static_cast<Cell>(static_cast<uint8_t>(cell[0]) | static_cast<uint8_t>(cell[1]) << 8);
    cell += 2;
    const int type = TypeOf(c), owner = OwnerOf(c), facing = FacingOf(c);
    // (Bits above the nine a cell packs make it no cell.)
    if (type == kNone || type >= kPieceTypes || owner > kOwnerless || (c >> 9) != 0) {
      return PositionError(absl::StrCat("bad cell on ", SquareName(sq)));
    }
    if (absl::Status s = PlacePiece(pos, sq, type, owner, facing, kings); !s.ok()) return s;
    k ^= t.cell[sq][CellIndex(c)];
    ++total;
  }
  for (int s = 0; s < kSeats; ++s) {
    if (kings[s] != 1) return PositionError(absl::StrCat("seat ", s, " needs exactly one king"));
  }
  if (to_move >= kSeats) return PositionError("the seat to move must be 0-3");
  pos.to_move = static_cast<int8_t>(to_move);
  if (!pos.Alive(pos.to_move)) return PositionError("the seat to move has been mated");
  k ^= t.alive[pos.alive] ^ t.to_move[to_move];
  for (int s = 0; s < kSeats; ++s) {
    for (int i = 0; i < kHandTypes; ++i) {
      const int n = hand[s][i];
      if (n == 0) continue;
      if (n > 81) return PositionError("bad hand count");
      if (!pos.Alive(s)) return PositionError("a mated seat has an empty hand");
      pos.hand[s][i] = static_cast<uint8_t>(n);
      k ^= t.hand[s][i][n];
      total += n;
    }
  }
  if (total > 120) return PositionError("more than 120 pieces");
  if (ply > 1000000000u) return PositionError("bad ply count");
  pos.ply = static_cast<uint32_t>(ply);
  *key = k;
  return SetEnding(pos);
}

// Version 1's options and position (text), for Decode: out of its common path.
[[gnu::noinline]] absl::Status ReadV1(game::ByteReader& r,
                                      std::shared_ptr<const game::Options>* options,
                                      absl::StatusOr<Position>* pos) {
  uint64_t n_options = r.Varint();
  if (!r.ok() || n_options > 32) return StateError("bad option count");
  game::Options given;
  for (uint64_t i = 0; i < n_options; ++i) {
    std::string name = r.Str(64), value = r.Str(64);
    if (!r.ok()) return StateError("truncated options");
    given[name] = value;
  }
  auto resolved = game::ResolveOptions(Info(), given);
  if (!resolved.ok()) return resolved.status();
  if (*resolved != given) return StateError("options are not complete and canonical");
  auto rules = RulesFromOptions(given);
  if (!rules.ok()) return rules.status();
  std::string text = r.Str(4096);
  if (!r.ok()) return StateError("truncated");
  *pos = ParsePosition(text, *rules);
  if (!pos->ok()) return pos->status();
  *options = std::make_shared<const game::Options>(std::move(given));
  return absl::OkStatus();
}

}  // namespace

uint8_t Shogi4Game::RoomFlags(const game::Options& o) {
  return static_cast<uint8_t>((On(o, "show_legal_moves") ? kFlagShowLegalMoves : 0) |
                              (On(o, "rotate_first_player") ? kFlagRotateFirst : 0));
}

namespace {

// ByteWriter::Varint's bytes at `p`: the end.
char* PutVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

}  // namespace

std::string Shogi4Game::Encode() const {
  std::string s;
  EncodeInto(&s);
  return s;
}

void Shogi4Game::EncodeInto(std::string* state) const {
  game::ByteWriter w(std::move(*state));
  w.BeginState(game::Kind::kShogi4, kVersion, 96 + 2 * kSquares + history_.size());
  // The options and the position (at most 211 bytes) through a pointer, then in one go.
  char bytes[256];
  char* p = bytes;
  const Rules& rules = pos_.rules;
  *p++ = static_cast<char>((rules.format == Format::kPairs ? kFlagPairs : 0) |
                           (rules.ending == Ending::kLastOneStanding ? kFlagLastOneStanding : 0) |
                           (rules.ownerless ? kFlagOwnerless : 0) |
                           (rules.pawn_before_flipped ? kFlagPawnRule : 0) | room_flags_);
  p = PutVarint(p, rules.move_limit);
  // The board: an occupancy bitmap (81 bits in 11 bytes), then each piece's cell.
  Squares all = 0;
  for (Squares b : pos_.pieces) all |= b;
  game::PutU64(p, static_cast<uint64_t>(all));  // (the bitmap is the set's low 81 bits)
  const uint64_t hi = static_cast<uint64_t>(all >> 64);
  p[8] = static_cast<char>(hi & 0xFF);
  p[9] = static_cast<char>(hi >> 8 & 0xFF);
  p[10] = static_cast<char>(hi >> 16 & 0xFF);
  p += 11;
  while (all != 0) {  // (square order)
    const int sq = PopSquare(all);
    const Cell c = pos_.board[sq];
    *p++ = static_cast<char>(c & 0xFF);
    *p++ = static_cast<char>(c >> 8);
  }
  *p++ = static_cast<char>(pos_.to_move);
  std::memcpy(p, &pos_.hand[0][0], kSeats * kHandTypes);
  p += kSeats * kHandTypes;
  *p++ = static_cast<char>(pos_.n_elim);
  for (int i = 0; i < pos_.n_elim; ++i) {
    const int seat = pos_.elim[i];
    *p++ = static_cast<char>(seat | pos_.mated_by[seat] << 4);
  }
  p = PutVarint(p, pos_.ply);
  w.Raw(absl::string_view(bytes, static_cast<size_t>(p - bytes)));
  WriteTail(w);
  *state = w.FinishState();
}

// What both versions write after the position: the ending, the last mover, the history
// and the last move.
void Shogi4Game::WriteTail(game::ByteWriter& w) const {
  // Its exact size first, then one room for it all (no capacity check a byte).
  const size_t n = Entries();
  int varint = 1;
  for (size_t v = n; v >= 0x80; v >>= 7) ++varint;
  char text[kMaxMoveText];
  const int length = last_ != 0 ? WriteMoveText(last_, text) : 0;
  char* p = w.Extend(2 + varint + 9 * n + 1 + (last_ != 0 ? 2 + length : 0));
  *p++ = static_cast<char>(pos_.over);
  *p++ = static_cast<char>(pos_.last_mover + 1);
  p = PutVarint(p, n);
  std::memcpy(p, history_.data(), history_.size());  // (as the state stores it)
  p += history_.size();
  *p++ = static_cast<char>(last_ != 0);
  if (last_ != 0) {
    *p++ = static_cast<char>(last_seat_);
    *p++ = static_cast<char>(length);  // (a one-byte varint)
    std::memcpy(p, text, static_cast<size_t>(length));
  }
}

std::string Shogi4Game::EncodeV1() const {
  game::ByteWriter w;
  w.Varint(options_->size());
  for (const auto& [name, value] : *options_) {
    w.Str(name);
    w.Str(value);
  }
  w.Str(shogi4::PositionText(pos_));
  WriteTail(w);
  return game::WrapState(game::Kind::kShogi4, kVersionText, w.bytes());
}

absl::StatusOr<std::unique_ptr<Shogi4Game>> Shogi4Game::Decode(uint8_t version,
                                                               absl::string_view payload) {
  game::ByteReader r(payload);
  std::unique_ptr<Shogi4Game> g;
  uint64_t key = 0;  // Key(g->pos_)
  if (version == kVersion) {
    const uint8_t flags = r.U8();
    const uint64_t move_limit = r.Varint();
    if (!r.ok()) return StateError("truncated options");
    absl::Status error;
    const OptionSet* set = OptionsOf(flags, move_limit, &error);
    if (set == nullptr) return error;
    // The position is read into the game in place.
    g.reset(
        new Shogi4Game(set->options, Empty{}, flags & (kFlagShowLegalMoves | kFlagRotateFirst)));
    if (absl::Status s = ReadPosition(r, set->rules, g->pos_, &key); !s.ok()) return s;
  } else if (version == kVersionText) {
    std::shared_ptr<const game::Options> options;
    absl::StatusOr<Position> pos;
    if (absl::Status s = ReadV1(r, &options, &pos); !s.ok()) return s;
    const uint8_t room_flags = RoomFlags(*options);
    g.reset(new Shogi4Game(std::move(options), Empty{}, room_flags));
    g->pos_ = *pos;
    key = Key(g->pos_);
  } else {
    return StateError(absl::StrCat("unknown version ", version));
  }
  Position& pos = g->pos_;
  uint8_t over = r.U8();
  uint8_t last_mover = r.U8();
  uint64_t n_history = r.Varint();
  if (!r.ok()) return StateError("truncated");
  if (last_mover > kSeats) return StateError("bad last mover");
  pos.last_mover = static_cast<int8_t>(last_mover - 1);
  if (n_history == 0 || n_history > r.remaining() / 9 || n_history > pos.ply + 1u) {
    return StateError("bad history length");
  }
  const char* in = r.Bytes(9 * n_history).data();  // the length was checked above
  // Kept as the state stores it, with room for the move this request plays.
  g->history_.reserve(9 * (n_history + 1));
  g->history_.assign(in, 9 * n_history);
  // The repetition counts: none over four, four only for the position the history ends
  // at (the fourth occurrence ends the game), and how many were seen three times or more.
  const HistoryScan scan = ScanHistory(in, n_history);
  if (scan.bad_entry) return StateError("bad history entry");
  if (!scan.ok) return StateError("impossible repetition count");
  g->triples_ = scan.triples;
  const int last_count = scan.last_count;
  if (r.U8() != 0) {
    const uint8_t seat = r.U8();
    // (ByteReader::Str(16) without a string: the text is parsed where it lies.)
    const uint64_t length = r.Varint();
    const bool fits = r.ok() && length <= 16 && length <= r.remaining();
    const absl::string_view notation = fits ? r.Bytes(length) : absl::string_view();
    if (!fits || seat >= kSeats) return StateError("bad last move");
    auto m = ParseMoveText(notation);
    if (!m.ok()) return m.status();
    g->last_ = *m;
    g->last_seat_ = static_cast<int8_t>(seat);
  }
  if (!r.ok() || !r.done()) return StateError("truncated or trailing bytes");
  // The recorded ending must be the one the position implies (a fourth occurrence is the
  // only ending the position alone cannot show).
  if (g->KeyAt(n_history - 1) != key) return StateError("history does not end at the position");
  if (over == static_cast<uint8_t>(EndReason::kFourthOccurrence)) {
    // (The move limit may have been reached by the same move.)
    EndReason shown = pos.over;
    if ((shown != EndReason::kNone && shown != EndReason::kMoveLimit) || last_count != 4) {
      return StateError("fourth occurrence not shown by the history");
    }
    pos.over = EndReason::kFourthOccurrence;
  } else if (over != static_cast<uint8_t>(pos.over)) {
    return StateError("the recorded ending does not match the position");
  } else if (last_count > 3) {
    return StateError("impossible repetition count");
  }
  const bool in_check = InCheck(pos, pos.to_move);
  if (g->InCheckAt(n_history - 1) != in_check) return StateError("history check flag");
  if (!g->Over()) {
    // Without a position seen three times the repetition rule refuses nothing, and the
    // first legal move found answers.
    bool any = false;
    if (g->triples_ == 0) {
      any = HasLegalMove(pos, pos.to_move, true, in_check);
    } else {
      std::vector<Move> moves;
      g->Legal(pos, &moves);
      any = !moves.empty();
    }
    if (!any) return StateError("the seat to move has no legal move");
  }
  g->n_doubles_ = static_cast<int8_t>(scan.n_doubles);
  std::copy(scan.doubles, scan.doubles + std::max(0, scan.n_doubles), g->doubles_);
  return g;
}

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version, absl::string_view payload) {
  auto g = Shogi4Game::Decode(version, payload);
  if (!g.ok()) return g.status();
  return std::unique_ptr<game::Game>(std::move(*g));
}

}  // namespace tablero::shogi4
