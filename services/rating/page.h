// Page tokens: opaque to clients (web-safe base64), exact keys for keyset paging.
// A token names its pool, so a token of one pool is refused on another.
#ifndef TABLERO_SERVICES_RATING_PAGE_H_
#define TABLERO_SERVICES_RATING_PAGE_H_

#include <string>

#include "absl/status/statusor.h"
#include "services/rating/store.h"

namespace tablero::rating {

// page_size: 0 -> 50, above 100 -> 100; INVALID_ARGUMENT if negative.
absl::StatusOr<int> PageSize(int requested);

std::string BoardToken(int pool, const BoardRow& last);
// INVALID_ARGUMENT "bad page_token" unless `token` came from BoardToken(pool, ...).
absl::StatusOr<BoardRow> ParseBoardToken(int pool, const std::string& token);

std::string HistoryToken(int pool, const HistoryRow& last);
absl::StatusOr<HistoryRow> ParseHistoryToken(int pool, const std::string& token);

}  // namespace tablero::rating

#endif  // TABLERO_SERVICES_RATING_PAGE_H_
