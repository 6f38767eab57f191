-- player_connected (0006) and cpu_due_at (0005) in PL/pgSQL, with the same bodies and
-- results. A LANGUAGE sql function whose body holds a subquery is never inlined, and
-- PostgreSQL 15 plans such a body again on every execution of each statement that calls
-- it: 0.14 ms a statement (pgbench, a game's two seats with their presence: 0.18 ms
-- against 0.034 ms without it), paid by every game read and commit of every move.
-- PL/pgSQL keeps a body's plan for the connection's life: 0.064 ms for the same read.
CREATE OR REPLACE FUNCTION player_connected(p_room text, p_player text)
  RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM connections c JOIN replicas r ON r.id = c.replica
                 WHERE c.room_id = p_room AND c.player_id = p_player AND r.expires_at > now());
END
$$;

CREATE OR REPLACE FUNCTION cpu_due_at(p_game text, p_to_move integer, p_over boolean,
                                      p_deadline timestamptz)
  RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN CASE WHEN p_over THEN NULL
              WHEN EXISTS (SELECT 1 FROM seats s WHERE s.game_id = p_game AND s.seat = p_to_move
                           AND (s.player_id IS NULL OR s.cpu_now)) THEN now()
              ELSE p_deadline END;
END
$$;
