#include "services/matchmaking/request_ids.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <openssl/sha.h>

#include <cstring>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/service/status.h"
#include "services/matchmaking/sql_values.h"

namespace tablero::matchmaking {
namespace {

std::string Sha256(absl::string_view data) {
  unsigned char h[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), h);
  return std::string(reinterpret_cast<const char*>(h), sizeof h);
}

bool IsUuid(absl::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !absl::ascii_isxdigit(static_cast<unsigned char>(s[i]))) {
      return false;
    }
  }
  return true;
}

// The request's bytes without its request_id, in one order whatever the map order.
std::string Canonical(const google::protobuf::Message& request) {
  std::unique_ptr<google::protobuf::Message> copy(request.New());
  copy->CopyFrom(request);
  if (const auto* f = copy->GetDescriptor()->FindFieldByName("request_id")) {
    copy->GetReflection()->ClearField(copy.get(), f);
  }
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    copy->SerializeToCodedStream(&coded);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::optional<RetryKey>> RetryKeyOf(absl::string_view method,
                                                   absl::string_view caller,
                                                   const google::protobuf::Message& request,
                                                   absl::string_view request_id) {
  if (request_id.empty()) return std::nullopt;
  if (!IsUuid(request_id)) {
    return absl::InvalidArgumentError(
        "request_id: must be a UUID (8-4-4-4-12 hex digits), made once per thing to create");
  }
  RetryKey k;
  k.request_id = absl::AsciiStrToLower(request_id);
  // Lengths first: no two (method, caller, id) triples give the same text.
  k.key =
      Sha256(absl::StrCat(method.size(), ":", method, caller.size(), ":", caller, k.request_id));
  k.fingerprint = Sha256(Canonical(request));
  return k;
}

absl::StatusOr<std::optional<StoredAnswer>> FindAnswer(pqxx::transaction_base& t,
                                                       const RetryKey& key, bool lock) {
  if (lock) {
    // 64 bits of the key name the lock; a collision only makes two calls wait.
    int64_t id = 0;
    std::memcpy(&id, key.key.data(), sizeof id);
    t.exec_params("SELECT pg_advisory_xact_lock($1)", id);
  }
  pqxx::result r = t.exec_params(
      "SELECT fingerprint, answer, secret FROM request_ids WHERE key = $1 AND expires_at > now()",
      Bytes(key.key));
  if (r.empty()) return std::nullopt;
  if (FieldBytes(r[0][0]) != key.fingerprint) {
    return service::WithReason(
        absl::InvalidArgumentError(
            "request_id: already used for a different request (make a new one per request)"),
        service::reason::kRequestIdReused);
  }
  return StoredAnswer{FieldBytes(r[0][1]), FieldBytes(r[0][2])};
}

void StoreAnswer(pqxx::transaction_base& t, const RetryKey& key, const std::string& answer,
                 absl::Duration ttl, const std::string& secret) {
  t.exec_params(
      "INSERT INTO request_ids (key, fingerprint, answer, secret, expires_at) VALUES ($1, $2, "
      "$3, $4, now() + make_interval(secs => $5)) ON CONFLICT (key) DO UPDATE SET fingerprint = "
      "EXCLUDED.fingerprint, answer = EXCLUDED.answer, secret = EXCLUDED.secret, expires_at = "
      "EXCLUDED.expires_at",
      Bytes(key.key), Bytes(key.fingerprint), Bytes(answer), Bytes(Seal(secret, key.request_id)),
      absl::ToDoubleSeconds(ttl));
}

int64_t SweepExpired(pqxx::transaction_base& t) {
  return static_cast<int64_t>(
      t.exec("DELETE FROM request_ids WHERE expires_at < now()").affected_rows());
}

std::string Seal(absl::string_view secret, absl::string_view request_id) {
  std::string stream;
  for (int block = 0; stream.size() < secret.size(); ++block) {
    stream += Sha256(absl::StrCat("tablero request_id seal:", request_id, ":", block));
  }
  std::string out(secret);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<char>(out[i] ^ stream[i]);
  return out;
}

namespace {

// A stored answer (if any) into the response and the secret.
absl::StatusOr<bool> Open(const std::optional<StoredAnswer>& found, const RetryKey& key,
                          google::protobuf::Message* resp, std::string* secret) {
  if (!found.has_value()) return false;
  if (!resp->ParseFromString(found->answer)) {
    return absl::InternalError("request_ids: a stored answer does not parse");
  }
  if (secret != nullptr) *secret = Seal(found->secret, key.request_id);
  return true;
}

}  // namespace

absl::StatusOr<bool> ReplayIn(pqxx::transaction_base& t, const std::optional<RetryKey>& key,
                              google::protobuf::Message* resp, std::string* secret) {
  if (!key.has_value()) return false;
  auto found = FindAnswer(t, *key, /*lock=*/true);
  if (!found.ok()) return found.status();
  return Open(*found, *key, resp, secret);
}

absl::StatusOr<bool> Replay(pg::Pool& pool, const std::optional<RetryKey>& key,
                            google::protobuf::Message* resp, std::string* secret) {
  if (!key.has_value()) return false;
  std::optional<StoredAnswer> found;
  absl::Status s = pool.Read([&](pqxx::transaction_base& t) -> absl::Status {
    auto f = FindAnswer(t, *key, /*lock=*/false);
    if (!f.ok()) return f.status();
    found = std::move(*f);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return Open(found, *key, resp, secret);
}

}  // namespace tablero::matchmaking
