-- Guest identities. Only a hash of each token is stored.
CREATE TABLE players (
  id uuid PRIMARY KEY,
  display_name text NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
