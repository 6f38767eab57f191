// Identifiers and what clients send as names: random ids, invite codes and guest tokens
// (with the token's stored hash), and the checks of display names and id fields.
#ifndef TABLERO_SERVICES_MATCHMAKING_IDS_H_
#define TABLERO_SERVICES_MATCHMAKING_IDS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tablero::matchmaking {

// 128 random bits as 32 lowercase hex characters (ids of players, rooms, games...).
std::string NewId();
// 32 random bytes, base64url without padding: the secret a guest keeps.
std::string NewToken();
// SHA-256 of the token: the only form stored.
std::string TokenHash(absl::string_view token);
// An invite code: 8 characters of kCodeAlphabet (40 bits).
std::string NewInviteCode();
// Uppercases and drops spaces and dashes; empty if anything else is not in the alphabet
// or the length is not 8.
std::string NormalizeCode(absl::string_view text);
inline constexpr absl::string_view kCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

// Trims and checks a display name: 1-24 code points of valid UTF-8, no control characters or
// text-direction controls, at least one character that shows.
absl::StatusOr<std::string> CleanName(absl::string_view name);
// An id field: non-empty, at most 64 characters.
absl::Status CheckId(absl::string_view field, absl::string_view id);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_IDS_H_
