// Encoded state (payload inside game::WrapState, version 1):
//   flags (u8: bit0 fide draw mode, bit1 resignation exception, bit2 show_legal_moves,
//          bit3 rotate_first_player)
//   start FEN (str) | move count (varint) | per move: from | to << 6 | promo << 12 (varint,
//   promo 0 none, 1..4 = N,B,R,Q) | pending draw offer (u8: 0 none, 1 White, 2 Black) |
//   ending (u8: ChessGame::Ending) [| resigning seat (u8) when resigned]
// Decoding replays every move through the legal move generator, so repetition history,
// automatic endings and the PGN come back exactly, and no illegal state can be built.
#include <memory>

#include "absl/strings/str_cat.h"
#include "libs/chess/chess.h"
#include "libs/chess/chess_game.h"
#include "libs/chess/movegen.h"
#include "libs/game/codec.h"

namespace tablero::chess {
namespace {

constexpr uint8_t kVersion = 1;
constexpr uint64_t kMaxPlies = 20000;  // far beyond any game the 75-move rule allows

uint32_t MoveCode(Move m) {
  const uint32_t promo = m.kind() == Move::kPromotion ? m.promotion() - kKnight + 1 : 0;
  return uint32_t(m.from()) | uint32_t(m.to()) << 6 | promo << 12;
}

absl::Status Bad(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("chess state: ", why));
}

bool On(const game::Options& o, const char* name) {
  auto it = o.find(name);
  return it != o.end() && it->second == "on";
}

}  // namespace

std::string ChessGame::Encode() const {
  game::ByteWriter w;
  auto mode = options_.find("draw_mode");
  w.U8(uint8_t((mode != options_.end() && mode->second == "fide") |
               On(options_, "fide_resignation_exception") << 1 |
               On(options_, "show_legal_moves") << 2 | On(options_, "rotate_first_player") << 3));
  w.Str(start_.Fen());
  w.Varint(moves_.size());
  for (Move m : moves_) w.Varint(MoveCode(m));
  w.U8(uint8_t(draw_offer_ + 1));
  w.U8(uint8_t(ending_));
  if (ending_ == Ending::kResigned) w.U8(uint8_t(ending_seat_));
  return game::WrapState(game::Kind::kChess, kVersion, w.bytes());
}

absl::Status ChessGame::ReplayMove(uint32_t code) {
  if (result_.over) return Bad("a move after the end of the game");
  for (Move m : MoveList(pos_)) {
    if (MoveCode(m) == code) {
      ApplyMove(m, nullptr);
      return absl::OkStatus();
    }
  }
  return Bad(absl::StrCat("move ", moves_.size() + 1, " is not legal"));
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

absl::StatusOr<std::unique_ptr<game::Game>> Decode(uint8_t version, absl::string_view payload) {
  if (version != kVersion) return Bad(absl::StrCat("unsupported version ", version));
  game::ByteReader r(payload);
  const uint8_t flags = r.U8();
  const std::string fen = r.Str(200);
  if (!r.ok()) return Bad("truncated header");
  if (flags > 15) return Bad("unknown option flags");
  game::Options given = {
      {"draw_mode", flags & 1 ? "fide" : "site"},
      {"fide_resignation_exception", flags & 2 ? "on" : "off"},
      {"show_legal_moves", flags & 4 ? "on" : "off"},
      {"rotate_first_player", flags & 8 ? "on" : "off"},
  };
  auto options = game::ResolveOptions(Info(), given);
  if (!options.ok()) return options.status();
  auto start = Position::ParseFen(fen);
  if (!start.ok()) return Bad(start.status().message());
  auto g = std::make_unique<ChessGame>(*options, *start);
  const uint64_t n = r.Varint();
  if (!r.ok() || n > kMaxPlies || n > r.remaining()) return Bad("bad move count");
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t code = r.Varint();
    if (!r.ok() || code >= (1u << 15)) return Bad("bad move code");
    if (absl::Status s = g->ReplayMove(uint32_t(code)); !s.ok()) return s;
  }
  const uint8_t offer = r.U8();
  const uint8_t ending = r.U8();
  const int seat = ending == uint8_t(ChessGame::Ending::kResigned) ? r.U8() : -1;
  if (!r.ok()) return Bad("truncated");
  if (!r.done()) return Bad("trailing bytes");
  if (offer > 2) return Bad("bad draw offer");
  if (ending > uint8_t(ChessGame::Ending::kClaimed)) return Bad("bad ending");
  if (offer && ending) return Bad("a pending draw offer in a finished game");
  if (absl::Status s = g->RestoreEnding(ChessGame::Ending(ending), seat, int(offer) - 1); !s.ok())
    return s;
  return g;
}

}  // namespace tablero::chess
