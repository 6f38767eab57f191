// gRPC-Web in, gRPC out: one forwarding handler per method of each public service. Only
// the public methods are routed (Rating.ReportGame is internal, as in Envoy's config).
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createContextKey, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";

/** The caller's network address, set per request by the adapter (see main.ts). */
export const peerKey = createContextKey<string>("", { description: "client address" });

/** Headers passed on to the services; everything else stays at the edge. */
const FORWARDED = ["authorization", "x-request-id", "user-agent"];

export interface Upstream {
  service: DescService;
  addr: string; // host:port of the gRPC service
  blocked?: string[]; // method names not routed (answered UNIMPLEMENTED)
}

/**
 * Errors a service answered pass through as they are. A failure to reach the service
 * (no answer at all: connection refused, reset) is logged here and shown to the client
 * without addresses, as the services' own messages are.
 */
function relay(e: unknown, what: string): never {
  const err = ConnectError.from(e);
  if (err.code === Code.Unavailable && err.cause !== undefined) {
    console.error(`gateway: ${what}: ${err.rawMessage}`);
    throw new ConnectError("service unavailable, retry", Code.Unavailable);
  }
  throw err;
}

function outgoingHeaders(ctx: HandlerContext): Headers {
  const h = new Headers();
  for (const name of FORWARDED) {
    const v = ctx.requestHeader.get(name);
    if (v !== null) h.set(name, v);
  }
  const prior = ctx.requestHeader.get("x-forwarded-for");
  const peer = ctx.values.get(peerKey);
  if (peer) h.set("x-forwarded-for", prior ? `${prior}, ${peer}` : peer);
  return h;
}

export function routeUpstreams(router: ConnectRouter, upstreams: Upstream[]): void {
  for (const up of upstreams) {
    const transport = createGrpcTransport({ baseUrl: `http://${up.addr}` });
    const client = createClient(up.service, transport) as unknown as Record<string, Function>;
    const impl: Record<string, unknown> = {};
    for (const m of up.service.methods) {
      const call = client[m.localName];
      if (up.blocked?.includes(m.name)) {
        impl[m.localName] = () => {
          throw new ConnectError(`${up.service.typeName}/${m.name} is internal`, Code.Unimplemented);
        };
      } else if (m.methodKind === "unary") {
        impl[m.localName] = (req: unknown, ctx: HandlerContext) =>
          call(req, { headers: outgoingHeaders(ctx), signal: ctx.signal, timeoutMs: ctx.timeoutMs() }).catch((e: unknown) =>
            relay(e, `${up.service.typeName}/${m.name}`));
      } else if (m.methodKind === "server_streaming") {
        impl[m.localName] = async function* (req: unknown, ctx: HandlerContext) {
          try {
            yield* call(req, { headers: outgoingHeaders(ctx), signal: ctx.signal, timeoutMs: ctx.timeoutMs() });
          } catch (e) {
            relay(e, `${up.service.typeName}/${m.name}`);
          }
        };
      }
    }
    router.service(up.service, impl as never);
  }
}
