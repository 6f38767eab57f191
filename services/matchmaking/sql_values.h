// Values between the service and its SQL: protobuf messages as bytea, timestamps as
// microseconds, string lists as one text[] parameter, and the schema's search_path on a
// connection URL.
#ifndef TABLERO_SERVICES_MATCHMAKING_SQL_VALUES_H_
#define TABLERO_SERVICES_MATCHMAKING_SQL_VALUES_H_

#include <google/protobuf/message_lite.h>
#include <google/protobuf/timestamp.pb.h>

#include <cstdint>
#include <pqxx/pqxx>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "tablero/v1/matchmaking.pb.h"

namespace tablero::matchmaking {

// Enum columns (smallint) keep the proto's numbers; statements bind them from these names.
inline constexpr int kTicketWaiting = tablero::v1::Ticket::STATUS_WAITING;
inline constexpr int kTicketMatched = tablero::v1::Ticket::STATUS_MATCHED;
inline constexpr int kTicketCancelled = tablero::v1::Ticket::STATUS_CANCELLED;
inline constexpr int kRolePlayer = tablero::v1::Member::ROLE_PLAYER;

// Microseconds since the epoch <-> Timestamp.
google::protobuf::Timestamp ToTimestamp(int64_t us);
int64_t NowUs();

// protobuf <-> bytea parameters and fields.
pqxx::binarystring Bytes(const google::protobuf::MessageLite& m);
pqxx::binarystring Bytes(const std::string& raw);
std::string FieldBytes(const pqxx::field& f);
template <typename M>
M Parse(const pqxx::field& f) {
  M m;
  m.ParseFromString(FieldBytes(f));
  return m;
}

// A text[] literal of the strings, for one array parameter ("{"a","b"}", quoted and escaped).
std::string TextArray(absl::Span<const std::string> items);

// Appends a search_path of the schema to a libpq URL or key=value string, so every
// pooled connection finds the service's tables unqualified.
std::string WithSearchPath(const std::string& url, absl::string_view schema);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_SQL_VALUES_H_
