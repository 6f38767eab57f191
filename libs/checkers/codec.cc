// Encode/Decode of a checkers game. Payload (version 1):
//   varint option count, (str name, str value)...   resolved room options
//   u8 seats, u8 first seat, u8 to_move + 1, u8 reason, varint ply, varint idle turns
//   per seat: u8 place, u8 resigned, varint moves, varint best distance, u8 best in goal
//   121 x u8 hole contents (0, or seat + 1 with 0x80 for a king)
//   u8 last mover + 1, then (if any) varint length and the path's holes
// Decode trusts nothing: every field is range-checked and the whole is checked for
// consistency (pieces, kings, places, turn) before a game is built.
#include "libs/game/codec.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/checkers/checkers.h"
#include "libs/checkers/game.h"
#include "libs/checkers/notation.h"

namespace tablero::checkers {

namespace {

// LEB128 as game::ByteWriter::Varint writes it, at `out`; returns the end.
char* PutVarint(char* out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) *out++ = static_cast<char>(v | 0x80);
  *out++ = static_cast<char>(v);
  return out;
}

}  // namespace

std::shared_ptr<const RoomOptions> MakeRoomOptions(game::Options options) {
  auto o = std::make_shared<RoomOptions>();
  game::ByteWriter w;
  w.Varint(options.size());
  for (const auto& [name, value] : options) {
    w.Str(name);
    w.Str(value);
  }
  o->bytes = w.Take();
  o->options = std::move(options);
  return o;
}

std::string CheckersGame::Encode() const {
  std::string s;
  EncodeInto(&s);
  return s;
}

void CheckersGame::EncodeInto(std::string* state) const {
  // All after the options, written through a pointer: at most 4 + 2 * 10 header bytes,
  // 23 per seat, the holes, then 11 + kHoles for the last move.
  char buf[4 + 20 + 23 * kMaxSeats + kHoles + 11 + kHoles];
  char* out = buf;
  const int n = st_.layout.seats;
  *out++ = static_cast<char>(n);
  *out++ = static_cast<char>(first_seat_);
  *out++ = static_cast<char>(st_.to_move + 1);
  *out++ = static_cast<char>(st_.reason);
  out = PutVarint(out, static_cast<uint64_t>(st_.ply));
  out = PutVarint(out, st_.idle);
  for (int s = 0; s < n; ++s) {
    *out++ = static_cast<char>(st_.place[s]);
    *out++ = static_cast<char>(st_.resigned[s] ? 1 : 0);
    out = PutVarint(out, st_.moves[s]);
    out = PutVarint(out, static_cast<uint64_t>(st_.best_dist[s]));
    *out++ = static_cast<char>(st_.best_goal[s]);
  }
  std::memcpy(out, st_.cell, kHoles);
  out += kHoles;
  *out++ = static_cast<char>(last_seat_ + 1);
  if (last_seat_ >= 0) {
    out = PutVarint(out, last_path_.size());
    std::memcpy(out, last_path_.data(), last_path_.size());
    out += last_path_.size();
  }
  const std::string& options = options_->bytes;
  const size_t size = static_cast<size_t>(out - buf);
  game::ByteWriter w(std::move(*state));
  w.BeginState(game::Kind::kCheckers, kStateVersion, options.size() + size);
  w.Raw(options);
  w.Raw(absl::string_view(buf, size));
  *state = w.FinishState();
}

namespace {

[[gnu::noinline, gnu::cold]] absl::Status Bad(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("checkers state: ", why));
}

// Out of line: error texts with numbers (their formatting would sit in Decode's code).
[[gnu::noinline, gnu::cold]] absl::Status BadVersion(uint8_t version) {
  return Bad(absl::StrCat("unknown version ", version));
}

[[gnu::noinline, gnu::cold]] absl::Status BadSeat(int seat) {
  return Bad(absl::StrCat("seat ", seat, ": value out of range"));
}

// Length of the option list at the start of `in` (varint count, then name and value
// strings), without decoding it; 0 if it is malformed.
size_t OptionBytes(absl::string_view in) {
  size_t at = 0;
  auto varint = [&](uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64 && at < in.size(); shift += 7) {
      const uint8_t b = static_cast<uint8_t>(in[at++]);
      *v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  uint64_t count = 0;
  if (!varint(&count) || count > 16) return 0;
  for (uint64_t i = 0; i < 2 * count; ++i) {
    uint64_t len = 0;
    if (!varint(&len) || len > 64 || len > in.size() - at) return 0;
    at += len;
  }
  return at;
}

// The option list at the start of `*payload`, resolved, with what it says; `*payload` is
// left after it. The same list is resolved once per thread (resolving, and reading the
// options by name, cost more than the rest of a decode).
struct DecodedOptions {
  std::shared_ptr<const RoomOptions> options;
  absl::StatusOr<Config> config;  // ConfigOf(*options)
};
// This thread's memory of decoded option lists, one thread_local (one initialisation check
// per request instead of one per variable).
struct OptionMemory {
  absl::flat_hash_map<std::string, DecodedOptions> cache;
  // The entry looked up last, tried first: one room's states keep coming. An option list
  // delimits itself, so a payload that starts with its bytes starts with that list.
  std::string last_raw;
  DecodedOptions last;
  DecodedOptions uncached;  // a list not kept (malformed bounds)
};

// DecodeOptions for a list other than the last one: from the cache, or resolved.
[[gnu::noinline]] absl::Status DecodeNewOptions(absl::string_view* payload,
                                                const DecodedOptions** out, OptionMemory* m) {
  const size_t n = OptionBytes(*payload);
  const absl::string_view raw = payload->substr(0, n);
  if (n > 0) {
    if (auto it = m->cache.find(raw); it != m->cache.end()) {
      m->last_raw.assign(raw.data(), raw.size());
      m->last = it->second;
      payload->remove_prefix(n);
      *out = &m->last;
      return absl::OkStatus();
    }
  }
  game::ByteReader r(*payload);
  uint64_t count = r.Varint();
  if (!r.ok() || count > 16) return Bad("bad option list");
  game::Options given;
  for (uint64_t i = 0; i < count; ++i) {
    std::string name = r.Str(64);
    std::string value = r.Str(64);
    given[name] = value;
  }
  if (!r.ok()) return Bad("truncated options");
  auto options = game::ResolveOptions(Info(), given);
  if (!options.ok()) return Bad(options.status().message());
  DecodedOptions decoded;
  decoded.options = MakeRoomOptions(*std::move(options));
  decoded.config = ConfigOf(decoded.options->options);
  if (n > 0 && n == payload->size() - r.remaining()) {
    if (m->cache.size() >= 256) m->cache.clear();
    m->cache.emplace(std::string(raw), decoded);
    m->last_raw.assign(raw.data(), raw.size());
    m->last = std::move(decoded);
    *out = &m->last;
  } else {
    m->uncached = std::move(decoded);
    *out = &m->uncached;
  }
  payload->remove_prefix(payload->size() - r.remaining());
  return absl::OkStatus();
}

// Sets *out to this thread's decoded options, valid until its next call (no copy of the
// shared pointer per request).
absl::Status DecodeOptions(absl::string_view* payload, const DecodedOptions** out) {
  thread_local OptionMemory memory;
  if (!memory.last_raw.empty() && absl::StartsWith(*payload, memory.last_raw)) {
    payload->remove_prefix(memory.last_raw.size());
    *out = &memory.last;
    return absl::OkStatus();
  }
  return DecodeNewOptions(payload, out, &memory);
}

}  // namespace

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version, absl::string_view payload) {
  if (version != kStateVersion) return BadVersion(version);
  const DecodedOptions* options = nullptr;
  if (absl::Status s = DecodeOptions(&payload, &options); !s.ok()) return s;
  game::ByteReader r(payload);
  const int n = r.U8();
  const int first = r.U8();
  const int to_move = static_cast<int>(r.U8()) - 1;
  const int reason = r.U8();
  const uint64_t ply = r.Varint();
  const uint64_t idle = r.Varint();
  if (!r.ok()) return Bad("truncated header");
  const absl::StatusOr<Config>& config = options->config;
  if (!config.ok()) return Bad(config.status().message());
  if (absl::Status s = CheckSeats(*config, n); !s.ok()) return Bad(s.message());
  if (first >= n) return Bad("first seat out of range");
  if (reason > static_cast<int>(Reason::kResignation)) return Bad("unknown end reason");
  if (ply > (1u << 30) || idle > UINT16_MAX) return Bad("counter out of range");

  State st;
  st.layout = MakeLayout(n, config->japanese);
  st.rules = config->rules;
  st.to_move = to_move;
  st.reason = static_cast<Reason>(reason);
  st.ply = static_cast<int>(ply);
  st.idle = static_cast<uint16_t>(idle);
  for (int s = 0; s < n; ++s) {
    st.place[s] = r.U8();
    int resigned = r.U8();
    uint64_t moves = r.Varint(), dist = r.Varint();
    int goal = r.U8();
    if (!r.ok()) return Bad("truncated seats");
    if (resigned > 1 || moves > UINT16_MAX || dist > 16 * 15 || goal > st.layout.pieces()) {
      return BadSeat(s);
    }
    st.resigned[s] = resigned == 1;
    st.moves[s] = static_cast<uint16_t>(moves);
    st.best_dist[s] = static_cast<int16_t>(dist);
    st.best_goal[s] = static_cast<uint8_t>(goal);
  }
  if (const absl::string_view cells = r.Bytes(kHoles); r.ok())
    std::memcpy(st.cell, cells.data(), kHoles);
  const int last_seat = static_cast<int>(r.U8()) - 1;
  std::vector<uint8_t> last_path;
  if (last_seat >= 0) {
    uint64_t len = r.Varint();
    if (!r.ok() || last_seat >= n || len < 2 || len > kHoles) return Bad("bad last move");
    // A bad hole before the end of the bytes is a bad move, else a short path truncated.
    const absl::string_view holes = r.Bytes(std::min<uint64_t>(len, r.remaining()));
    for (char h : holes) {
      if (static_cast<uint8_t>(h) >= kHoles) return Bad("bad last move");
    }
    if (holes.size() < len) return Bad("truncated");
    last_path.assign(holes.begin(), holes.end());
  }
  if (!r.ok()) return Bad("truncated");
  if (!r.done()) return Bad("trailing bytes");

  if (!PlacesConsistent(st.place, n)) return Bad("inconsistent places");
  if (absl::Status s = CheckCells(st.cell, st.place, st.layout); !s.ok()) return Bad(s.message());
  int playing = 0;
  for (int s = 0; s < n; ++s) {
    playing += st.place[s] == 0;
    if (!st.resigned[s]) continue;
    if (st.place[s] == 0) return Bad("a resigned seat has no place");
    for (int h = 0; h < kHoles; ++h) {
      if (st.cell[h] != kEmpty && OwnerOf(st.cell[h]) == s)
        return Bad("a resigned seat has pieces");
    }
  }
  if (to_move < 0) {
    if (st.reason == Reason::kNone || playing != 0) return Bad("a finished game must place all");
  } else {
    if (to_move >= n || st.place[to_move] != 0 || st.reason != Reason::kNone || playing < 2) {
      return Bad("bad seat to move");
    }
  }
  auto g = std::make_unique<CheckersGame>(options->options, st, first);
  if (last_seat >= 0) g->set_last(last_seat, std::move(last_path));
  return g;
}

}  // namespace tablero::checkers
