// Starts what the browser tests play against: the four service binaries on free ports
// (matchmaking on the PostgreSQL of TABLERO_TEST_DATABASE_URL) and the dev gateway
// serving the built site. Test-speed flags: short grace period, quick CPU moves.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SOURCE = resolve(WEB, "..");
export const BIN = process.env.TABLERO_BIN_DIR ?? join(SOURCE, "build", "bin");
export const GRACE_SECONDS = 3;

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Proc {
  constructor(name, argv, env, logs) {
    this.name = name;
    this.log = join(logs, `${name}.log`);
    const out = createWriteStream(this.log);
    this.p = spawn(argv[0], argv.slice(1), { env: { PATH: process.env.PATH, LANG: "C.UTF-8", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    this.p.stdout.pipe(out);
    this.p.stderr.pipe(out);
    this.exited = new Promise((r) => this.p.on("exit", (code, sig) => r(code ?? sig)));
  }
  output() {
    try {
      return readFileSync(this.log, "utf8");
    } catch {
      return "";
    }
  }
  async stop() {
    if (this.p.exitCode !== null || this.p.signalCode !== null) return;
    this.p.kill("SIGTERM");
    const t = setTimeout(() => this.p.kill("SIGKILL"), 15000);
    await this.exited;
    clearTimeout(t);
  }
}

async function waitServing(proc, addr, seconds = 30) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (proc.p.exitCode !== null) throw new Error(`${proc.name} exited:\n${proc.output()}`);
    const r = spawnSync(join(BIN, "healthcheck"), [`--addr=${addr}`], { timeout: 20000 });
    if (r.status === 0) return;
    await sleep(100);
  }
  throw new Error(`${proc.name} not SERVING after ${seconds}s:\n${proc.output()}`);
}

async function waitHttp(url, proc, seconds = 20) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (proc.p.exitCode !== null) throw new Error(`${proc.name} exited:\n${proc.output()}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer:\n${proc.output()}`);
}

export async function startStack() {
  const db = process.env.TABLERO_TEST_DATABASE_URL;
  if (!db) throw new Error("TABLERO_TEST_DATABASE_URL is not set (scripts/test.sh starts a PostgreSQL and sets it)");
  const logs = mkdtempSync(join(tmpdir(), "tablero-web-test-"));
  const procs = [];
  const addr = {};
  // The services' shared secret for internal calls (matchmaking reporting results to rating).
  const serviceKey = `web-test-${process.pid}-${Date.now()}`;
  const start = async (name, args = [], env = {}) => {
    addr[name] = `127.0.0.1:${await freePort()}`;
    const p = new Proc(name, [join(BIN, name), `--listen=${addr[name]}`, `--metrics_listen=127.0.0.1:${await freePort()}`, ...args],
      { TABLERO_SERVICE_KEY: serviceKey, ...env }, logs);
    procs.push(p);
    return p;
  };
  try {
    const rules = await start("rules");
    const bot = await start("bot");
    const rating = await start("rating", [], { TABLERO_DATABASE_URL: db });
    await Promise.all([waitServing(rules, addr.rules), waitServing(bot, addr.bot), waitServing(rating, addr.rating)]);
    const mm = await start("matchmaking", [
      `--rules_addr=${addr.rules}`, `--bot_addr=${addr.bot}`, `--rating_addr=${addr.rating}`,
      `--grace_seconds=${GRACE_SECONDS}`, "--bot_budget_ms=50", "--tick_ms=100",
      // Every browser of the tests comes from this one address.
      "--guests_per_minute=0",
    ], { TABLERO_DATABASE_URL: db });
    await waitServing(mm, addr.matchmaking);
    const port = await freePort();
    const gw = new Proc("gateway", [process.execPath, join(WEB, "dist", "gateway", "gateway.mjs"), `--listen=127.0.0.1:${port}`,
      `--site=${join(WEB, "dist", "site")}`, `--matchmaking=${addr.matchmaking}`, `--rating=${addr.rating}`,
      `--rules=${addr.rules}`, `--bot=${addr.bot}`], {}, logs);
    procs.push(gw);
    const base = `http://127.0.0.1:${port}`;
    await waitHttp(`${base}/`, gw);
    return {
      base,
      logs,
      procs,
      async stop() {
        for (const p of procs.reverse()) await p.stop();
      },
    };
  } catch (e) {
    for (const p of procs.reverse()) await p.stop();
    throw e;
  }
}
