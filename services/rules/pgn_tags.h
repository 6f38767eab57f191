// PGN tag section of an export, rewritten with the caller's tags. The engine writes the
// game (movetext, result, SetUp/FEN of a non-standard start); the caller names the event,
// the players and so on (ExportRequest.tags).
#ifndef TABLERO_SERVICES_RULES_PGN_TAGS_H_
#define TABLERO_SERVICES_RULES_PGN_TAGS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tablero::rules {

// `pgn` is the engine's export (tag lines, a blank line, movetext). The Seven Tag Roster
// comes first, in its order: a given tag's value, else "?" ("????.??.??" for Date);
// "Result", "SetUp" and "FEN" always come from the game. Other given tags follow, sorted
// by name. INVALID_ARGUMENT for a tag name that is not a PGN symbol (letters, digits,
// '_', starting with a letter) or a value with control characters.
absl::StatusOr<std::string> ApplyPgnTags(absl::string_view pgn,
                                         std::vector<std::pair<std::string, std::string>> tags);

}  // namespace tablero::rules

#endif  // TABLERO_SERVICES_RULES_PGN_TAGS_H_
