// Clients of the public API over gRPC-Web, on the site's own origin (Envoy in production,
// the dev gateway locally). Every call carries the guest token when there is one.
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { Matchmaking } from "../gen/tablero/v1/matchmaking_pb.js";
import { Rating } from "../gen/tablero/v1/rating_pb.js";
import { Rules } from "../gen/tablero/v1/rules_pb.js";
import { loadIdentity, saveIdentity, type Identity } from "./identity.js";

const auth: Interceptor = (next) => async (req) => {
  const id = loadIdentity();
  if (id) req.header.set("authorization", `Bearer ${id.token}`);
  return next(req);
};

const transport = createGrpcWebTransport({ baseUrl: location.origin, interceptors: [auth] });

export const matchmaking = createClient(Matchmaking, transport);
export const rating = createClient(Rating, transport);
export const rules = createClient(Rules, transport);

let ensuring: Promise<Identity> | null = null;

/** This browser's guest identity, created on first use (or again if the server forgot it). */
export function ensureIdentity(): Promise<Identity> {
  ensuring ??= (async () => {
    const known = loadIdentity();
    if (known) {
      try {
        const me = await matchmaking.getMe({});
        const id = { ...known, name: me.player?.displayName ?? known.name };
        saveIdentity(id);
        return id;
      } catch (e) {
        if (ConnectError.from(e).code !== Code.Unauthenticated) throw e;
        saveIdentity(null);
      }
    }
    const g = await matchmaking.createGuest({});
    const id = { playerId: g.playerId, token: g.token, name: g.displayName };
    saveIdentity(id);
    return id;
  })();
  ensuring.catch(() => (ensuring = null));
  return ensuring;
}

/** A message fit to show a player for a failed call. */
export function describeError(e: unknown): string {
  const err = ConnectError.from(e);
  return err.rawMessage || Code[err.code] || String(e);
}
