// The dev gateway: what Envoy does in production, for machines where Envoy cannot run.
// Serves the built site and bridges gRPC-Web (from browsers) to the gRPC services.
//   node dist/gateway/gateway.mjs --listen=127.0.0.1:8080 --site=dist/site \
//     --matchmaking=127.0.0.1:50052 --rating=127.0.0.1:50053 --rules=127.0.0.1:50051 --bot=127.0.0.1:50054
// Every flag --foo can also be set by the environment variable TABLERO_GATEWAY_FOO.
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createContextValues } from "@connectrpc/connect";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { Matchmaking } from "../src/gen/tablero/v1/matchmaking_pb.js";
import { Rating } from "../src/gen/tablero/v1/rating_pb.js";
import { Rules } from "../src/gen/tablero/v1/rules_pb.js";
import { Bot } from "../src/gen/tablero/v1/bot_pb.js";
import { peerKey, routeUpstreams } from "./proxy.js";
import { staticFiles } from "./static.js";

function flag(name: string, def: string): string {
  const prefix = `--${name}=`;
  const arg = process.argv.find((a) => a.startsWith(prefix));
  if (arg) return arg.slice(prefix.length);
  return process.env[`TABLERO_GATEWAY_${name.toUpperCase()}`] ?? def;
}

const listen = flag("listen", "127.0.0.1:8080");
const site = resolve(flag("site", "dist/site"));
const [host, port] = [listen.slice(0, listen.lastIndexOf(":")), Number(listen.slice(listen.lastIndexOf(":") + 1))];

const handler = connectNodeAdapter({
  grpcWeb: true,
  connect: false,
  grpc: false,
  routes: (router) =>
    routeUpstreams(router, [
      { service: Matchmaking, addr: flag("matchmaking", "127.0.0.1:50052") },
      { service: Rating, addr: flag("rating", "127.0.0.1:50053"), blocked: ["ReportGame"] },
      { service: Rules, addr: flag("rules", "127.0.0.1:50051") },
      { service: Bot, addr: flag("bot", "127.0.0.1:50054") },
    ]),
  contextValues: (req) => createContextValues().set(peerKey, req.socket.remoteAddress ?? ""),
  fallback: staticFiles(site) as never,
});

const server = createServer(handler);
server.listen(port, host, () => {
  const a = server.address();
  const shown = typeof a === "object" && a ? `${a.address}:${a.port}` : listen;
  console.log(`gateway: listening on http://${shown}/ (site ${site})`);
});
for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.on(sig, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
