// Retried creations (AIP-155). CreateGuest, CreateRoom and JoinQueue take an optional
// request_id (a UUID); the first answer for it is kept in the table request_ids and a
// call with the same id gets that answer back instead of creating again, on any replica.
//
// How a creating call uses it: FindAnswer before doing anything (a retry returns at once,
// before rate limits and backend calls); then, in the transaction that creates,
// FindAnswer again with `lock` (a transaction advisory lock on the key: a concurrent call
// with the same id waits for this transaction, then finds its answer instead of creating
// a second time) and StoreAnswer with the response, committed together with what it
// created. Failed calls store nothing (a retry tries again). Rows live `ttl`, then
// SweepExpired deletes them.
//
// What is stored never acts for anyone: the key is a hash of the id, and CreateGuest's
// token is kept sealed with the id itself (Seal), which only the client holds.
#ifndef TABLERO_SERVICES_MATCHMAKING_REQUEST_IDS_H_
#define TABLERO_SERVICES_MATCHMAKING_REQUEST_IDS_H_

#include <google/protobuf/message.h>

#include <optional>
#include <pqxx/pqxx>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "libs/pg/pool.h"

namespace tablero::matchmaking {

struct RetryKey {
  std::string key;          // SHA-256 of method, caller and request id: the row's key
  std::string fingerprint;  // SHA-256 of the request without its request_id
  std::string request_id;   // lowercase canonical UUID
};

// The key of a call. nullopt: no request_id (the call always creates). INVALID_ARGUMENT:
// a request_id that is not a UUID in 8-4-4-4-12 hex form. `caller`: the player for
// per-caller ids, "" for CreateGuest (per id alone).
absl::StatusOr<std::optional<RetryKey>> RetryKeyOf(absl::string_view method,
                                                   absl::string_view caller,
                                                   const google::protobuf::Message& request,
                                                   absl::string_view request_id);

struct StoredAnswer {
  std::string answer;  // the serialized response
  std::string secret;  // as stored (sealed)
};
// The unexpired answer of `key`, if any. INVALID_ARGUMENT (reason REQUEST_ID_REUSED) when
// the id came with a different request. `lock`: first take the key's advisory lock for
// the rest of the transaction.
absl::StatusOr<std::optional<StoredAnswer>> FindAnswer(pqxx::transaction_base& t,
                                                       const RetryKey& key, bool lock);
// Keeps `answer` (and a sealed `secret`) for `ttl`, in the caller's transaction.
void StoreAnswer(pqxx::transaction_base& t, const RetryKey& key, const std::string& answer,
                 absl::Duration ttl, const std::string& secret = "");
// Deletes expired answers; returns how many.
int64_t SweepExpired(pqxx::transaction_base& t);

// XOR with a keystream derived from the request id (SHA-256 of a label, the id and a
// block number): sealing and opening are the same call.
std::string Seal(absl::string_view secret, absl::string_view request_id);

// The two lookups of a creating call. Replay: before any work, in a read of its own.
// ReplayIn: first thing in the creating transaction (locks the key). Both parse the
// stored answer into `resp` and open the secret into `*secret` (when given), and say
// whether there was one. No key (no request_id): false.
absl::StatusOr<bool> Replay(pg::Pool& pool, const std::optional<RetryKey>& key,
                            google::protobuf::Message* resp, std::string* secret = nullptr);
absl::StatusOr<bool> ReplayIn(pqxx::transaction_base& t, const std::optional<RetryKey>& key,
                              google::protobuf::Message* resp, std::string* secret = nullptr);

}  // namespace tablero::matchmaking

#endif  // TABLERO_SERVICES_MATCHMAKING_REQUEST_IDS_H_
