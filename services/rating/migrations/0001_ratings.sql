-- One rating per player per pool (chess, shogi4_singles, shogi4_pairs, checkers).
CREATE TABLE ratings (
  player_id text NOT NULL,
  pool text NOT NULL,
  rating double precision NOT NULL,
  rd double precision NOT NULL,
  volatility double precision NOT NULL,
  games integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (player_id, pool)
);
