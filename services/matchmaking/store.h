// Small helpers shared by every part of the service: random ids, codes and tokens, token
// hashing, names, timestamps and the bytea <-> protobuf plumbing of the SQL layer.
#ifndef TABLERO_SERVICES_MATCHMAKING_STORE_H_
#define TABLERO_SERVICES_MATCHMAKING_STORE_H_

#include <google/protobuf/message_lite.h>
#include <google/protobuf/timestamp.pb.h>
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <pqxx/pqxx>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

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

// Trims and checks a display name (1-24 code points, valid UTF-8, no control characters).
absl::StatusOr<std::string> CleanName(absl::string_view name);
// An id field: non-empty, at most 64 characters.
absl::Status CheckId(absl::string_view field, absl::string_view id);

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

// absl::Status -> grpc::Status (same codes and message).
grpc::Status ToGrpc(const absl::Status& s);

// Appends a search_path of the schema to a libpq URL or key=value string, so every
// pooled connection finds the service's tables unqualified.
std::string WithSearchPath(const std::string& url, absl::string_view schema);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_STORE_H_
