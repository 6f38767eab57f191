// The guest identity of this browser: created once with CreateGuest, its token kept in
// localStorage so that a reload (or coming back later) acts as the same player.
const KEY = "tablero.identity";

export interface Identity {
  playerId: string;
  token: string;
  name: string;
}

export function loadIdentity(): Identity | null {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return v && typeof v.token === "string" && typeof v.playerId === "string" ? v : null;
  } catch {
    return null;
  }
}

export function saveIdentity(id: Identity | null): void {
  if (id) localStorage.setItem(KEY, JSON.stringify(id));
  else localStorage.removeItem(KEY);
}

/** The last event seq seen per room, so a reload resumes Watch where it stopped. */
export function lastSeq(roomId: string): bigint | null {
  const v = sessionStorage.getItem(`tablero.seq.${roomId}`);
  return v ? BigInt(v) : null;
}

export function setLastSeq(roomId: string, seq: bigint): void {
  sessionStorage.setItem(`tablero.seq.${roomId}`, seq.toString());
}
