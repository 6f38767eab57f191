-- Presence leases per replica, not per stream. A replica renewed the lease of each of its
-- `connections` rows every 5 s: with 10,000 streams held, 2,000 row versions a second,
-- each with three index entries, and the dead versions slowed every presence look-up
-- until vacuum (moves/s fell to a fifth between vacuums). Now a replica renews one row in
-- `replicas`, and a connection is live while its replica's lease is.
--
-- Roll forward: a replica of the earlier version still running beside this schema fails
-- to open Watch streams (UNAVAILABLE; clients resume on another replica) until replaced.
CREATE TABLE replicas (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
INSERT INTO replicas (id, expires_at)
  SELECT replica, max(expires_at) FROM connections GROUP BY replica;

ALTER TABLE connections DROP COLUMN expires_at;  -- and its index connections_expiry
CREATE INDEX connections_replica ON connections (replica);

-- Whether `p_player` has a Watch stream open in `p_room` on a live replica: the one
-- statement of "connected", used by every query that shows or acts on presence.
CREATE FUNCTION player_connected(p_room text, p_player text)
  RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM connections c JOIN replicas r ON r.id = c.replica
                 WHERE c.room_id = p_room AND c.player_id = p_player AND r.expires_at > now())
$$;
