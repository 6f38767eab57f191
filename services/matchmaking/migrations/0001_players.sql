-- The matchmaking schema: players, rooms, games, the event log, presence, quick match and
-- the rating outbox. Protobuf messages the service only ever reads back whole (settings,
-- views, results, events) are stored as their wire bytes.

-- Microseconds since the epoch: how timestamps travel to the service.
CREATE FUNCTION us(t timestamptz) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS 'SELECT (extract(epoch FROM t) * 1000000)::bigint';

-- Guest identities. Only the SHA-256 of each token is stored.
CREATE TABLE players (
  id text PRIMARY KEY,
  display_name text NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rooms (
  id text PRIMARY KEY,
  kind smallint NOT NULL,
  invite_code text NOT NULL UNIQUE,
  host_id text NOT NULL REFERENCES players (id),
  settings bytea NOT NULL,            -- tablero.v1.RoomSettings, resolved
  settings_version bigint NOT NULL DEFAULT 1,
  state smallint NOT NULL DEFAULT 1,  -- Room.State
  current_game_id text,
  games_played integer NOT NULL DEFAULT 0,
  quick_match boolean NOT NULL DEFAULT false,
  closed boolean NOT NULL DEFAULT false,
  seq bigint NOT NULL DEFAULT 0,      -- the latest event's seq
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  room_id text NOT NULL REFERENCES rooms (id),
  player_id text NOT NULL REFERENCES players (id),
  role smallint NOT NULL,             -- Member.Role
  joined_at timestamptz NOT NULL DEFAULT now(),
  join_order bigserial,
  PRIMARY KEY (room_id, player_id)
);
CREATE INDEX members_player ON members (player_id, join_order DESC);

-- The room's event log: seq is gap-free per room (allocated from rooms.seq under its row
-- lock, so commit order is seq order).
CREATE TABLE events (
  room_id text NOT NULL,
  seq bigint NOT NULL,
  body bytea NOT NULL,                -- tablero.v1.RoomEvent
  PRIMARY KEY (room_id, seq)
);

CREATE TABLE games (
  id text PRIMARY KEY,
  room_id text NOT NULL REFERENCES rooms (id),
  kind smallint NOT NULL,
  options bytea NOT NULL,             -- tablero.v1.RoomSettings (options map only)
  seat_count integer NOT NULL,
  first_seat integer NOT NULL,
  turn_limit integer NOT NULL,
  cpu_level integer NOT NULL,
  grace_seconds double precision NOT NULL,  -- absence before the CPU takes over
  ranked boolean NOT NULL,
  ply integer NOT NULL DEFAULT 0,     -- moves played: checked by every move
  version bigint NOT NULL DEFAULT 0,  -- every change (moves and actions): checked too
  to_move integer NOT NULL,
  state bytea NOT NULL,               -- engine state (rules.proto)
  view bytea NOT NULL,                -- tablero.v1.PublicView
  result bytea NOT NULL,              -- tablero.v1.Result
  over boolean NOT NULL DEFAULT false,
  initial_position text NOT NULL,
  turn_deadline timestamptz,          -- when a human's turn runs out
  cpu_due timestamptz,                -- when the CPU must play the current turn
  cpu_lease_until timestamptz,        -- a replica is computing that CPU move
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX games_cpu_due ON games (cpu_due) WHERE cpu_due IS NOT NULL;

CREATE TABLE seats (
  game_id text NOT NULL REFERENCES games (id),
  seat integer NOT NULL,
  player_id text REFERENCES players (id),  -- NULL: a CPU seat
  display_name text NOT NULL,
  team integer NOT NULL,
  cpu_now boolean NOT NULL DEFAULT false,  -- the CPU plays this human's turns now
  cpu_reason text,                         -- "absent" or "left" while cpu_now
  away_since timestamptz,                  -- no open stream since then (grace running)
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_player ON seats (player_id);
CREATE INDEX seats_away ON seats (away_since) WHERE away_since IS NOT NULL AND NOT cpu_now;

CREATE TABLE moves (
  game_id text NOT NULL REFERENCES games (id),
  ply integer NOT NULL,
  seat integer NOT NULL,
  move bytea NOT NULL,                -- tablero.v1.Move
  events bytea NOT NULL,              -- tablero.v1.GameActionResponse (events only)
  position text NOT NULL,
  by_cpu boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_id, ply)
);

-- Open Watch streams. The replica serving a stream renews its lease; rows of a replica
-- that died expire and are swept by any replica.
CREATE TABLE connections (
  id text PRIMARY KEY,
  room_id text NOT NULL,
  player_id text NOT NULL,
  replica text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX connections_player ON connections (room_id, player_id);
CREATE INDEX connections_expiry ON connections (expires_at);

-- Quick match.
CREATE TABLE tickets (
  id text PRIMARY KEY,
  player_id text NOT NULL REFERENCES players (id),
  kind smallint NOT NULL,
  player_count integer NOT NULL,
  pool_key text NOT NULL,             -- kind, count and resolved options: who may meet
  options bytea NOT NULL,             -- tablero.v1.RoomSettings (options map only)
  rating double precision NOT NULL,
  status smallint NOT NULL,           -- Ticket.Status
  room_id text,
  game_id text,
  cancel_reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  polled_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tickets_one_waiting ON tickets (player_id) WHERE status = 1;
CREATE INDEX tickets_waiting ON tickets (pool_key, created_at) WHERE status = 1;

-- Finished ranked games waiting to be acknowledged by the rating service.
CREATE TABLE outbox (
  game_id text PRIMARY KEY,
  request bytea NOT NULL,             -- tablero.v1.ReportGameRequest
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz NOT NULL DEFAULT now(),
  last_error text NOT NULL DEFAULT ''
);
