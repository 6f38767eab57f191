// Clients of the public API over gRPC-Web, on the site's own origin (Envoy in production,
// the dev gateway locally). Every call carries the guest token when there is one.
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { ErrorInfoSchema } from "../gen/google/rpc/error_details_pb.js";
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

/** The call never got an answer from the services: the network, the gateway or a service is down. */
export function unreachable(e: unknown): boolean {
  const err = ConnectError.from(e);
  // fetch() itself failing ("Failed to fetch") is a TypeError; an HTTP 502/503/504, or a
  // proxy that cannot reach the service, is UNAVAILABLE.
  return err.code === Code.Unavailable || (err.code === Code.Unknown && err.cause instanceof TypeError);
}

export const UNREACHABLE = "Cannot reach the server: check your connection, then try again.";

/** A message fit to show a player for a failed call (never a bare "Failed to fetch" or "HTTP 503"). */
export function describeError(e: unknown): string {
  const err = ConnectError.from(e);
  if (unreachable(err)) return UNREACHABLE;
  if (err.code === Code.DeadlineExceeded) return "The server took too long to answer: try again.";
  if (err.code === Code.Internal) return "Something went wrong on the server: try again.";
  const text = err.rawMessage || Code[err.code] || String(e);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The waiting ticket a JoinQueue refusal names (ALREADY_EXISTS, reason ALREADY_QUEUED), if it is one. */
export function queuedTicket(e: unknown): string | undefined {
  const err = ConnectError.from(e);
  if (err.code !== Code.AlreadyExists) return undefined;
  return err.findDetails(ErrorInfoSchema).find((d) => d.reason === "ALREADY_QUEUED")?.metadata.ticket_id;
}
