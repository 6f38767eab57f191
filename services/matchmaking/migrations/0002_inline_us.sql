-- us() was declared IMMUTABLE over extract(epoch FROM timestamptz), which PostgreSQL marks
-- STABLE: a function more volatile in its body than declared is never inlined, so every
-- call ran as a nested SQL statement (six per game read). STABLE lets the planner inline it.
CREATE OR REPLACE FUNCTION us(t timestamptz) RETURNS bigint
  LANGUAGE sql STABLE AS 'SELECT (extract(epoch FROM t) * 1000000)::bigint';
