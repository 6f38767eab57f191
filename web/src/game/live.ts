// Follows a room's WatchBatches stream (a move's events arrive in one message): resumes
// after the last seq seen (kept per room, so a reload resumes too), reconnects after a
// dropped stream, and falls back to a fresh snapshot when the server no longer has the
// events (OUT_OF_RANGE).
import { Code, ConnectError } from "@connectrpc/connect";
import { matchmaking } from "../api/client.js";
import { lastSeq, setLastSeq } from "../api/identity.js";
import type { RoomEvent } from "../gen/tablero/v1/matchmaking_pb.js";

export interface LiveHandlers {
  event(e: RoomEvent): void;
  /** The server cannot resume from our seq: reload the snapshot; return its seq. */
  resync(): Promise<bigint>;
  /** The room was closed (stream ended OK). */
  closed(): void;
  connection(up: boolean): void;
}

export function follow(roomId: string, snapshotSeq: bigint, on: LiveHandlers): () => void {
  const abort = new AbortController();
  // Resume after what this tab saw last if it is not ahead of the snapshot's log.
  let seq = lastSeq(roomId) ?? snapshotSeq;
  if (seq > snapshotSeq) seq = snapshotSeq;
  (async () => {
    let delay = 500;
    while (!abort.signal.aborted) {
      try {
        on.connection(true);
        const stream = matchmaking.watchBatches({ roomId, afterSeq: seq }, { signal: abort.signal });
        for await (const batch of stream) {
          delay = 500;
          for (const e of batch.events) {
            if (e.seq === 0n) continue; // heartbeat
            if (e.seq <= seq) continue;
            seq = e.seq;
            on.event(e);
          }
          setLastSeq(roomId, seq);
        }
        if (!abort.signal.aborted) on.closed();
        return;
      } catch (err) {
        if (abort.signal.aborted) return;
        const ce = ConnectError.from(err);
        on.connection(false);
        if (ce.code === Code.OutOfRange) {
          try {
            seq = await on.resync();
          } catch {
            /* retried below */
          }
        }
        if (ce.code === Code.NotFound) {
          on.closed();
          return;
        }
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 8000);
      }
    }
  })();
  return () => abort.abort();
}
