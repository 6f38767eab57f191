-- The rating service's tables (schema "rating"). Doubles are float8: the service writes
-- them with 17 significant digits and reads them as float8send() bytes, so every value
-- round-trips bit for bit. Pools are tablero.v1.RatingPool numbers (1 chess,
-- 2 shogi4 singles, 3 shogi4 pairs, 4 checkers), kinds tablero.v1.GameKind numbers.
-- Ids use the "C" collation: the canonical lock order and leaderboard tie-break.

-- One rating per player per pool.
CREATE TABLE ratings (
  player_id text COLLATE "C" NOT NULL,
  pool smallint NOT NULL,
  rating float8 NOT NULL,
  rd float8 NOT NULL,
  volatility float8 NOT NULL,
  games integer NOT NULL,
  last_game_at timestamptz,
  PRIMARY KEY (player_id, pool)
) WITH (fillfactor = 80);  -- room for HOT updates: every game rewrites its players' rows
-- Leaderboards: best first. Only players who can be listed are in it (RD <= 150; the
-- limit itself is a flag, 75 by default, applied while scanning): new and provisional
-- players, whose ratings change most and who all start at the same key, never touch it.
-- A --leaderboard_rd above 150 still works, by a scan. Keep 150 in step with
-- kLeaderboardIndexRd in store.cc.
CREATE INDEX ratings_leaderboard ON ratings (pool, rating DESC, games DESC, player_id)
  WHERE rd <= 150;

-- Every rated game, once: the key that makes reports idempotent, and the reported
-- content (players, places, teams in seat order) a replay is compared with.
CREATE TABLE games (
  game_id text COLLATE "C" PRIMARY KEY,
  kind smallint NOT NULL,
  pool smallint NOT NULL,
  seats smallint NOT NULL,
  finished_at timestamptz NOT NULL,
  players text[] NOT NULL,
  places int[] NOT NULL,
  teams int[] NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);

-- One row per seat of a rated game: the change recorded (returned again on a replay) and
-- the player's rating history. Found by player (history, and replays through the
-- game's player list), so the one index serves both.
CREATE TABLE results (
  game_id text COLLATE "C" NOT NULL,
  seat smallint NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  pool smallint NOT NULL,
  place smallint NOT NULL,
  team smallint NOT NULL,
  score float8 NOT NULL,
  provisional boolean NOT NULL,
  before_rating float8 NOT NULL,
  before_rd float8 NOT NULL,
  before_vol float8 NOT NULL,
  after_rating float8 NOT NULL,
  after_rd float8 NOT NULL,
  after_vol float8 NOT NULL,
  finished_at timestamptz NOT NULL,
  seats smallint NOT NULL
);
CREATE INDEX results_history ON results (player_id, pool, finished_at DESC, game_id DESC);

-- Raised by the apply statement when it finds a player created by a concurrent game: a
-- serialization failure, which the service answers by running the transaction again.
CREATE FUNCTION retry() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a new player was rated concurrently; retrying' USING ERRCODE = '40001';
END $$;
