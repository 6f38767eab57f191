-- A move's whole commit in one call (one round trip, no BEGIN/COMMIT): the room's row lock
-- first, as every writer takes it; the room's seq must still be the one the events were
-- numbered from ('seq': renumber and call again), and the game still at the ply and
-- version it was read at ('stale': the move lost a race); then the version-checked update,
-- the move row, the events and the room's seq. Only moves that neither end the game nor
-- hand a seat back take this path (services/matchmaking/play.cc: CommitMove); cpu_due
-- follows the rule of RefreshCpuDue and of Commit's inline update.
CREATE FUNCTION commit_move(p_game text, p_ply integer, p_version bigint, p_room text,
                            p_seq bigint, p_new_ply integer, p_to_move integer, p_state bytea,
                            p_view bytea, p_result bytea, p_deadline timestamptz,
                            p_seat integer, p_move bytea, p_events bytea, p_position text,
                            p_by_cpu boolean, p_bodies bytea[])
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
      cpu_due = CASE WHEN EXISTS (SELECT 1 FROM seats s WHERE s.game_id = p_game
                                  AND s.seat = p_to_move AND (s.player_id IS NULL OR s.cpu_now))
                     THEN now() ELSE p_deadline END,
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
