-- Retried creations (AIP-155): the first answer of CreateGuest, CreateRoom or JoinQueue for
-- a client's request_id, so that a retry with the same id gets it back and creates nothing,
-- whichever replica it reaches (services/matchmaking/request_ids.h).
CREATE TABLE request_ids (
  key bytea PRIMARY KEY,              -- SHA-256 of method, caller and request_id
  fingerprint bytea NOT NULL,         -- SHA-256 of the request without its request_id
  answer bytea NOT NULL,              -- the response as first sent (CreateGuest: no token)
  secret bytea NOT NULL DEFAULT '',   -- CreateGuest: the token, sealed with the request_id
  expires_at timestamptz NOT NULL
);
CREATE INDEX request_ids_expiry ON request_ids (expires_at);
