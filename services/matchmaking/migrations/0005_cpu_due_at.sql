-- The "CPU moves next" rule, stated once: when the CPU must play the turn of `p_to_move`
-- in game `p_game`. Never once the game is over; now when that seat is a CPU seat or one
-- the CPU holds for its player (absent or departed); else the turn's deadline (NULL: the
-- turn has none). Every writer of games.cpu_due uses it: commit_move below, and in
-- services/matchmaking Commit's update (play.cc) and RefreshCpuDue (seating.cc).
CREATE FUNCTION cpu_due_at(p_game text, p_to_move integer, p_over boolean,
                           p_deadline timestamptz)
  RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_over THEN NULL
              WHEN EXISTS (SELECT 1 FROM seats s WHERE s.game_id = p_game AND s.seat = p_to_move
                           AND (s.player_id IS NULL OR s.cpu_now)) THEN now()
              ELSE p_deadline END
$$;

-- commit_move (0003) with its cpu_due from cpu_due_at: otherwise unchanged.
CREATE OR REPLACE FUNCTION commit_move(p_game text, p_ply integer, p_version bigint, p_room text,
                                       p_seq bigint, p_new_ply integer, p_to_move integer,
                                       p_state bytea, p_view bytea, p_result bytea,
                                       p_deadline timestamptz, p_seat integer, p_move bytea,
                                       p_events bytea, p_position text, p_by_cpu boolean,
                                       p_bodies bytea[])
  RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
BEGIN
  SELECT seq INTO v_seq FROM rooms WHERE id = p_room FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 'gone';
  END IF;
  IF v_seq <> p_seq THEN
    RETURN 'seq';
  END IF;
  UPDATE games SET ply = p_new_ply, version = version + 1, to_move = p_to_move,
      state = p_state, view = p_view, result = p_result, turn_deadline = p_deadline,
      cpu_due = cpu_due_at(p_game, p_to_move, false, p_deadline),
      cpu_lease_until = NULL
    WHERE id = p_game AND ply = p_ply AND version = p_version AND NOT over;
  IF NOT FOUND THEN
    RETURN 'stale';
  END IF;
  INSERT INTO moves (game_id, ply, seat, move, events, position, by_cpu)
    VALUES (p_game, p_ply, p_seat, p_move, p_events, p_position, p_by_cpu);
  INSERT INTO events (room_id, seq, body)
    SELECT p_room, p_seq + u.n, u.b FROM unnest(p_bodies) WITH ORDINALITY AS u(b, n);
  UPDATE rooms SET seq = p_seq + cardinality(p_bodies) WHERE id = p_room;
  RETURN 'ok';
END
$$;
