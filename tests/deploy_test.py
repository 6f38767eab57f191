#!/usr/bin/env python3
"""Deployment tests (deploy/, docker-compose.yml) against the real binaries.

ctest runs one case per test: deploy_test.py <Case> (see tests/CMakeLists.txt). Cases:
  Static           manifests, compose file, Envoy, Prometheus, Grafana and the metric
                   contract agree with each other and with the services/ folders.
  ComposeConfig    `docker-compose config` accepts docker-compose.yml (no daemon needed).
  RuntimePackages  deploy/docker/runtime-packages.sh finds the Debian package of every
                   library the binaries load (what the runtime image installs).
  Healthcheck      the healthcheck tool: 0 on SERVING, 1 on NOT_SERVING, 2 when absent.
  Probes           the manifests' probes while a private PostgreSQL (scripts/pg.sh) is
                   stopped and started again: readiness follows it, liveness does not.
  Manifests        every Deployment and compose service started locally with exactly
                   its environment: flags accepted, SERVING on the port its probe names.
  Stack            the four services and a real Prometheus on the repository's scrape
                   config (targets made local): targets up, RPC metrics carry data, the
                   dashboard and alerts query only metrics that exist, and each service's
                   /metrics matches deploy/metrics-contract.txt both ways.
  Dashboard        two replicas of every service, a real Prometheus, games played through
                   the API: the dashboard's queries (read from its JSON) show the truth.
Environment: TABLERO_SOURCE_DIR, TABLERO_BIN_DIR (set by ctest), TABLERO_TEST_DATABASE_URL
(set by scripts/test.sh) for the cases that start matchmaking and rating.
Python: Debian's python3 with python3-yaml, python3-grpcio (and python3-grpc-tools, for
the Dashboard case's stubs); psql from Debian's postgresql-client.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse
import urllib.request

import yaml

from deploy_support import (alert_exprs, BIN, check_exported, compose, compose_env, container_env,
    contract, dashboard_exprs, DB_SERVICES, DEPLOY, find, free_port, GRPC_NAME, GRPC_PORT,
    healthcheck, k8s_objects, LIVENESS, load_yaml, local_env, ping, port_of, Proc, promql_metrics,
    read, SERVICES, src, start_service, test_db_url, wait_health)
from deploy_static import ComposeConfig, RuntimePackages, Static  # noqa: F401 (cases run by name)


class Healthcheck(unittest.TestCase):
    def test_exit_codes(self):
        port = free_port()
        rules = start_service("rules", {"TABLERO_LISTEN": f"127.0.0.1:{port}"})
        mport = free_port()
        mm = start_service("matchmaking", {"TABLERO_LISTEN": f"127.0.0.1:{mport}",
                                           "TABLERO_DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none?connect_timeout=1"})
        try:
            addr = f"127.0.0.1:{port}"
            self.assertEqual(wait_health(addr, 0, 20)[0], 0, rules.output())
            self.assertEqual(healthcheck(addr, "tablero.v1.Rules")[0], 0)
            self.assertEqual(healthcheck(addr, "tablero.v1.NoSuchService")[0], 2)
            maddr = f"127.0.0.1:{mport}"
            rc, out = wait_health(maddr, 1, 20)
            self.assertEqual((rc, out), (1, "NOT_SERVING"), mm.output())
            self.assertEqual(healthcheck(maddr, "tablero.v1.Matchmaking")[0], 1)
            self.assertEqual(healthcheck(maddr, LIVENESS), (0, "SERVING"), "alive while waiting for its database")
            self.assertEqual(healthcheck(f"127.0.0.1:{free_port()}")[0], 2, "absent server")
            r = subprocess.run([os.path.join(BIN, "healthcheck")], capture_output=True, timeout=10)
            self.assertEqual(r.returncode, 3, "no --addr")
            # The image's HEALTHCHECK command, as Docker runs it (sh -c): 0 healthy, and 1 (never
            # 2, which Docker reserves) for NOT_SERVING and for no server.
            text = read(os.path.join(DEPLOY, "docker", "Dockerfile")).replace("\\\n", " ")
            cmd = re.search(r"(?m)^HEALTHCHECK .*?\bCMD (.*)$", text).group(1)
            for listen, want in ((addr, 0), (maddr, 1), (f"127.0.0.1:{free_port()}", 1)):
                r = subprocess.run(["sh", "-c", cmd], env={"PATH": BIN + ":/usr/bin:/bin", "TABLERO_LISTEN": listen},
                                   capture_output=True, text=True, timeout=20)
                self.assertEqual(r.returncode, want, f"HEALTHCHECK {cmd!r} with {listen}: {r.stdout}{r.stderr}")
            # Draining (SIGTERM): NOT_SERVING or gone, never SERVING.
            rules.p.send_signal(signal.SIGTERM)
            time.sleep(0.2)
            self.assertNotEqual(healthcheck(addr)[0], 0)
        finally:
            self.assertEqual(rules.stop(), 0)
            self.assertEqual(mm.stop(), 0)


class Manifests(unittest.TestCase):
    """Each Deployment / compose service, run here with its own environment and args."""

    def run_all(self, cases):
        db = test_db_url()
        running = []
        try:
            for label, binary, env, args, probe_ports, extra in cases:
                lenv, ports = local_env(env, db)
                for p in probe_ports:
                    self.assertIn(p, ports, f"{label}: probe port {p} is not a port the service listens on")
                running.append((label, binary, start_service(binary, lenv, args), ports, probe_ports, extra))
            for label, binary, proc, ports, probe_ports, extra in running:
                for p in probe_ports:
                    rc, out = wait_health(f"127.0.0.1:{ports[p]}", 0, 30, proc=proc)
                    self.assertEqual(rc, 0, f"{label}: not SERVING on probe port {p}: {out}\n{proc.output()}")
                    self.assertEqual(healthcheck(f"127.0.0.1:{ports[p]}", GRPC_NAME[binary])[0], 0)
                extra(ports)
                proc.served = True
        finally:
            for label, binary, proc, *_ in running:
                rc = proc.stop()
                if getattr(proc, "served", False):  # a graceful exit is owed once it served
                    self.assertEqual(rc, 0, f"{label}: graceful exit\n{proc.output()}")

    def metrics_check(self, label, port, path):
        def check(ports):
            self.assertIn(port, ports, f"{label}: scrape port {port} is not the metrics port")
            with urllib.request.urlopen(f"http://127.0.0.1:{ports[port]}{path}", timeout=5) as r:
                body = r.read().decode()
            self.assertIn("grpc_server_started_total", body, label)
        return check

    def test_kubernetes_deployments(self):
        objs = k8s_objects()
        cases = []
        for s in SERVICES:
            tmpl = find(objs, "Deployment", s)["spec"]["template"]
            c = tmpl["spec"]["containers"][0]
            binary = re.match(r"tablero/(\w+):", c["image"]).group(1)
            self.assertTrue(os.path.exists(os.path.join(BIN, binary)), binary)
            probes = sorted({c[p]["grpc"]["port"] for p in ("startupProbe", "readinessProbe", "livenessProbe")})
            ann = tmpl["metadata"]["annotations"]
            cases.append((f"k8s {s}", binary, container_env(objs, c), c.get("command", [])[1:] + c.get("args", []),
                          probes, self.metrics_check(f"k8s {s}", int(ann["prometheus.io/port"]),
                                                     ann.get("prometheus.io/path", "/metrics"))))
        self.run_all(cases)

    def test_compose_services(self):
        svcs = compose()["services"]
        cases = []
        for s in SERVICES:
            c = svcs[s]
            binary = c["build"]["args"]["SERVICE"]
            test = c["healthcheck"]["test"]
            cmd = test[1] if test[0] == "CMD-SHELL" else " ".join(test[1:])
            probe = port_of(re.search(r"--addr=(\S+)", cmd).group(1))
            args = c.get("command", [])
            args = args.split() if isinstance(args, str) else args

            def run_probe(ports, cmd=cmd, probe=probe, label=s):
                local = cmd.replace(f"127.0.0.1:{probe}", f"127.0.0.1:{ports[probe]}")
                r = subprocess.run(["sh", "-c", local], env={"PATH": BIN + ":/usr/bin:/bin"},
                                   capture_output=True, text=True, timeout=20)
                self.assertEqual(r.returncode, 0, f"compose {label}: health check command: {r.stdout}{r.stderr}")
            cases.append((f"compose {s}", binary, compose_env(c), args, [probe], run_probe))
        self.run_all(cases)


class PrivatePostgres:
    """A PostgreSQL of the test's own (scripts/pg.sh), to stop and start again."""

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="tablero-deploy-pg-")
        os.chmod(self.tmp, 0o755)  # pg.sh runs the server as "postgres" when we are root
        self.dir, self.port = os.path.join(self.tmp, "data"), free_port()
        self.url = f"postgresql://tablero@127.0.0.1:{self.port}/tablero"
        self.start()

    def pg(self, *args):
        r = subprocess.run([src("scripts", "pg.sh"), *args], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"pg.sh {' '.join(args)}: {r.stdout}{r.stderr}"

    def start(self):
        self.pg("start", self.dir, str(self.port))

    def stop(self):
        self.pg("stop", self.dir)

    def close(self):
        try:
            self.stop()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


class Probes(unittest.TestCase):
    """The probes of every manifest against a database that goes away and comes back: the
    readiness name goes NOT_SERVING while the database is unreachable and SERVING again
    when it returns; the liveness name (startup and liveness probes) stays SERVING, so no
    pod is restarted for an outage; compose's health check follows readiness."""

    def test_readiness_follows_the_database(self):
        objs = k8s_objects()
        comp = compose()["services"]
        pg = PrivatePostgres()
        procs = []
        try:
            for s in DB_SERVICES:
                c = find(objs, "Deployment", s)["spec"]["template"]["spec"]["containers"][0]
                env, ports = local_env(container_env(objs, c), pg.url)
                env["TABLERO_DB_CHECK_SECONDS"] = "0.5"
                proc = start_service(s, env)
                proc.addr = f"127.0.0.1:{ports[c['readinessProbe']['grpc']['port']]}"
                proc.probes = {p: c[p]["grpc"].get("service", "")
                               for p in ("startupProbe", "readinessProbe", "livenessProbe")}
                test = comp[s]["healthcheck"]["test"]
                proc.compose_check = (test[1] if test[0] == "CMD-SHELL" else " ".join(test[1:])).replace(
                    f"127.0.0.1:{GRPC_PORT}", proc.addr)
                procs.append(proc)

            def compose_healthy(proc):
                return subprocess.run(["sh", "-c", proc.compose_check], env={"PATH": BIN + ":/usr/bin:/bin"},
                                      capture_output=True, timeout=20).returncode == 0

            def all_probes(want_ready):
                for proc in procs:
                    ready = proc.probes["readinessProbe"]
                    rc, out = wait_health(proc.addr, 0 if want_ready else 1, 30, ready, proc)
                    self.assertEqual(rc, 0 if want_ready else 1, f"{proc.name} readiness {ready!r}: {out}\n{proc.output()[-3000:]}")
                    for p in ("startupProbe", "livenessProbe"):
                        self.assertEqual(healthcheck(proc.addr, proc.probes[p]), (0, "SERVING"), f"{proc.name} {p}")
                    self.assertEqual(compose_healthy(proc), want_ready, f"{proc.name}: compose health check")

            all_probes(True)
            pg.stop()
            all_probes(False)
            pg.start()
            all_probes(True)
            for proc in procs:
                self.assertIsNone(proc.p.poll(), f"{proc.name} must not exit for an outage")
                self.assertIn("database unreachable", proc.output())
        finally:
            for proc in procs:
                self.assertEqual(proc.stop(), 0, proc.output()[-3000:])
            pg.close()


class PromCase(unittest.TestCase):
    """Services as processes and a real Prometheus on deploy/prometheus/prometheus.yml."""

    def setUp(self):
        self.procs = []
        self.tmp = tempfile.mkdtemp(prefix="tablero-deploy-prom-")

    def tearDown(self):
        for p in self.procs:
            p.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def prom(self, path, **params):
        url = f"http://127.0.0.1:{self.prom_port}{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.load(r)
        self.assertEqual(body["status"], "success", body)
        return body["data"]

    def query(self, q):
        return {r["metric"].get("job", ""): float(r["value"][1]) for r in self.prom("/api/v1/query", query=q)["result"]}

    def poll(self, fn, seconds=20):
        until = time.time() + seconds
        while True:
            ok, last = fn()
            if ok or time.time() > until:
                return ok, last
            time.sleep(0.25)

    def wait_for(self, read, accept, seconds=20):
        """Reads read() until accept(value) holds or `seconds` pass: (accepted, last value)."""
        def once():
            value = read()
            return bool(accept(value)), value
        return self.poll(once, seconds)

    def ping_all(self, procs, n):
        for proc in procs:
            for _ in range(n):
                code, resp = ping(proc.addr)
                self.assertEqual(code.name, "OK")
                self.assertIn(b"hello", resp)
                self.assertIn(proc.name.encode(), resp)

    def start_prometheus(self, targets, scrape_interval="1s"):
        """Prometheus on the repository's config, each job's targets made local."""
        self.prom_port = free_port()
        cfg = load_yaml(os.path.join(DEPLOY, "prometheus", "prometheus.yml"))
        cfg["global"].update(scrape_interval=scrape_interval, evaluation_interval=scrape_interval)
        cfg["rule_files"] = [os.path.join(DEPLOY, "prometheus", f) for f in cfg["rule_files"]]
        local = {**targets, "prometheus": [f"127.0.0.1:{self.prom_port}"]}
        not_here = {"envoy"}  # no Envoy binary in Debian 12: its job is left out here
        jobs = []
        for j in cfg["scrape_configs"]:
            name = j["job_name"]
            self.assertIn(name, set(local) | not_here, f"job {name}: teach this test where it runs")
            if name in not_here:
                continue
            for k in [k for k in j if k.endswith("_sd_configs") or k == "static_configs"]:
                del j[k]
            j["static_configs"] = [{"targets": local[name]}]
            jobs.append(j)
        cfg["scrape_configs"] = jobs
        path = os.path.join(self.tmp, "prometheus.yml")
        with open(path, "w") as f:
            yaml.safe_dump(cfg, f)
        prom = Proc(["prometheus", f"--config.file={path}", f"--storage.tsdb.path={self.tmp}/data",
                     f"--web.listen-address=127.0.0.1:{self.prom_port}"], {}, "prometheus")
        self.procs.append(prom)

        def targets_up():
            try:
                t = self.prom("/api/v1/targets")["activeTargets"]
            except OSError as e:
                return False, str(e)
            health, errors = {}, []
            for x in t:
                health.setdefault(x["labels"]["job"], []).append(x["health"])
                if x["health"] != "up":
                    errors.append(f'{x["scrapeUrl"]}: {x.get("lastError", "")}')
            return health == {j: ["up"] * len(ts) for j, ts in local.items()}, (health, errors)
        ok, last = self.poll(targets_up, 30)
        if not ok:  # say why: each target's last scrape error, and any process that ended
            ended = [f"{p.name} exited {p.p.returncode}:\n{p.output()[-3000:]}"
                     for p in self.procs if p.p.poll() is not None]
            self.fail(f"targets: {last}\nended: {ended}\n{prom.output()[-2000:]}")
        return prom



class Stack(PromCase):
    """The four services and a real Prometheus on deploy/prometheus/prometheus.yml."""

    def test_prometheus_scrapes_every_service(self):
        db = test_db_url()
        metrics = {}
        for s in SERVICES:
            grpc_port, metrics[s] = free_port(), free_port()
            env = {"TABLERO_LISTEN": f"127.0.0.1:{grpc_port}", "TABLERO_METRICS_LISTEN": f"127.0.0.1:{metrics[s]}"}
            if s in DB_SERVICES:
                env["TABLERO_DATABASE_URL"] = db
            proc = start_service(s, env)
            proc.addr = env["TABLERO_LISTEN"]
            self.procs.append(proc)
        for proc in self.procs:
            self.assertEqual(wait_health(proc.addr, 0, 30, proc=proc)[0], 0, proc.output())
            self.ping_all([proc], 2)

        # The repository's config, targets made local, job names kept.
        self.start_prometheus({s: [f"127.0.0.1:{metrics[s]}"] for s in SERVICES})

        # More calls once Prometheus watches: the counters move within its window.
        self.ping_all(self.procs[:-1], 1)
        self.assertEqual(ping(self.procs[0].addr, delay_ms=-1)[0].name, "INVALID_ARGUMENT")
        for proc in self.procs[1:-1]:
            self.assertEqual(ping(proc.addr, delay_ms=-1)[0].name, "INVALID_ARGUMENT")
        ping_q = 'sum by (job) (grpc_server_handled_total{grpc_service="tablero.v1.Ops", grpc_method="Ping", grpc_code="%s"})'
        want = ({s: 3.0 for s in SERVICES}, {s: 1.0 for s in SERVICES})
        ok, got = self.wait_for(lambda: (self.query(ping_q % "OK"), self.query(ping_q % "INVALID_ARGUMENT")),
                                lambda r: r == want)
        self.assertEqual(got, want, "3 OK and 1 INVALID_ARGUMENT ping per service, through Prometheus")
        self.assertEqual(self.query('sum by (job) (grpc_server_handling_seconds_count{grpc_method="Ping"})'),
                         {s: 4.0 for s in SERVICES})
        self.assertEqual(self.query('sum by (job) (grpc_server_started_total{grpc_method="Ping"})'),
                         {s: 4.0 for s in SERVICES})
        inf = self.query('sum by (job) (grpc_server_handling_seconds_bucket{grpc_method="Ping", le="+Inf"})')
        self.assertEqual(inf, {s: 4.0 for s in SERVICES})

        # Every metric the dashboard and the alerts read is exported by a fresh stack, the
        # contract's with their types.
        names = set(self.prom("/api/v1/label/__name__/values"))
        for e in dashboard_exprs() + alert_exprs():
            for m in promql_metrics(e):
                self.assertIn(m, names, f"{m} (in {e!r}) is exported by no running service")
        types = {n: ms[0]["type"] for n, ms in self.prom("/api/v1/metadata").items()}
        for n, fam in contract().items():
            self.assertIn(n + "_count" if fam.type in ("histogram", "summary") else n, names, f"{n}: not exported")
            self.assertEqual(types.get(n), fam.type, f"{n}: exported as {types.get(n)}, the contract says {fam.type}")
        # Each service's own page matches the contract both ways (families, types, labels).
        for s in SERVICES:
            with urllib.request.urlopen(f"http://127.0.0.1:{metrics[s]}/metrics", timeout=5) as r:
                check_exported(self, s, r.read().decode())
        # Every dashboard query is valid PromQL for this Prometheus.
        for e in dashboard_exprs():
            q = e.replace("$__rate_interval", "1m").replace("$job", "|".join(SERVICES))
            self.prom("/api/v1/query", query=q)
        rates = 'sum by (job) (rate(grpc_server_handled_total{job=~"%s"}[5s]))' % "|".join(SERVICES)
        ok, last = self.wait_for(lambda: self.query(rates), lambda r: r and all(x > 0 for x in r.values()), 10)
        self.assertTrue(ok, f"the dashboard's request rate is 0 for a service: {last}")
        # The alert rules are loaded and none of them fires on a healthy stack.
        groups = self.prom("/api/v1/rules")["groups"]
        rules = [r for g in groups for r in g["rules"]]
        self.assertEqual(len(rules), len(alert_exprs()))
        self.assertTrue(all(r["health"] in ("ok", "unknown") for r in rules), rules)
        firing = [a for a in self.prom("/api/v1/alerts")["alerts"] if a["state"] == "firing"]
        self.assertEqual(firing, [])



class Database:
    """A database of the test's own in the cluster of TABLERO_TEST_DATABASE_URL (its
    services count games from the database: others' games must not be seen)."""

    def __init__(self):
        self.base = test_db_url()
        self.name = f"deploy_{os.getpid()}_{int(time.time())}"
        self.psql(f"CREATE DATABASE {self.name}")
        u = urllib.parse.urlsplit(self.base)
        self.url = urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + self.name, u.query, u.fragment))

    def psql(self, sql):
        r = subprocess.run(["psql", self.base, "-v", "ON_ERROR_STOP=1", "-qc", sql],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, f"psql {sql}: {r.stderr}"

    def drop(self):
        self.psql(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")


def totals(expr):
    """A dashboard query with each rate() taken off: the counters' values themselves,
    aggregated as the panel aggregates them (what a test can know exactly)."""
    e = expr.replace("$job", "|".join(SERVICES))
    return re.sub(r"\brate\(((?:[^()\[]|\{[^}]*\})+)\[\$__rate_interval\]\)", r"(\1)", e)


class Dashboard(PromCase):
    """Two replicas of every service (as the autoscalers' minimum runs them), a real
    Prometheus scraping each replica, games played through the API: each panel whose
    truth the test knows shows it, with the panel's own query read from the dashboard
    JSON. Gauges every replica reads from the database (active games, the queue, the
    outbox) would show twice the truth if a panel summed them over replicas."""

    REPLICAS = 2

    def panel_targets(self):
        with open(os.path.join(DEPLOY, "grafana", "dashboards", "tablero.json")) as f:
            d = json.load(f)
        out = {}

        def walk(panels):
            for p in panels:
                if p.get("targets"):
                    out[p["title"]] = [t["expr"] for t in p["targets"]]
                walk(p.get("panels", []))
        walk(d["panels"])
        return out

    def series(self, expr):
        """{tuple of (label, value) pairs: value} of an instant query."""
        res = self.prom("/api/v1/query", query=expr)["result"]
        return {tuple(sorted(r["metric"].items())): float(r["value"][1]) for r in res}

    def by(self, expr, label):
        return {dict(k).get(label, ""): v for k, v in self.series(expr).items()}

    def test_panels_show_the_truth(self):
        from e2e_python_test import generate_stubs
        os.mkdir(os.path.join(self.tmp, "stubs"))
        generate_stubs(os.path.join(self.tmp, "stubs"))
        import grpc
        from tablero.v1 import common_pb2 as common
        from tablero.v1 import matchmaking_pb2 as mm
        from tablero.v1 import matchmaking_pb2_grpc

        db = Database()
        self.addCleanup(db.drop)
        addrs, metrics = {}, {}
        key = {"TABLERO_SERVICE_KEY": "deploy-dashboard-test-key"}
        for s in ("rules", "bot", "rating", "matchmaking"):  # dependencies first
            addrs[s], metrics[s] = [], []
            for _ in range(self.REPLICAS):
                g, m = free_port(), free_port()
                env = {"TABLERO_LISTEN": f"127.0.0.1:{g}", "TABLERO_METRICS_LISTEN": f"127.0.0.1:{m}", **key}
                if s in DB_SERVICES:
                    env["TABLERO_DATABASE_URL"] = db.url
                if s == "matchmaking":  # each replica balances over every replica of the others
                    for dep in ("rules", "bot", "rating"):
                        env[f"TABLERO_{dep.upper()}_ADDR"] = "ipv4:" + ",".join(addrs[dep])
                proc = start_service(s, env)
                proc.addr = env["TABLERO_LISTEN"]
                self.procs.append(proc)
                addrs[s].append(proc.addr)
                metrics[s].append(f"127.0.0.1:{m}")
            for proc in self.procs[-self.REPLICAS:]:
                self.assertEqual(wait_health(proc.addr, 0, 30, proc=proc)[0], 0, proc.output())
        self.start_prometheus(metrics)

        channels = [grpc.insecure_channel(a) for a in addrs["matchmaking"]]
        self.addCleanup(lambda: [c.close() for c in channels])
        stubs = [matchmaking_pb2_grpc.MatchmakingStub(c) for c in channels]

        def guest(i):
            r = stubs[i % 2].CreateGuest(mm.CreateGuestRequest(display_name=f"Dash {i}"), timeout=20)
            return [("authorization", f"Bearer {r.token}")]

        def game(i, kind, ranked=False):
            """A game between two new guests through an invite code, on replica i % 2."""
            host, other = guest(i), guest(i + 1)
            stub = stubs[i % 2]
            room = stub.CreateRoom(mm.CreateRoomRequest(kind=kind, settings=mm.RoomSettings(ranked=ranked)),
                                   metadata=host, timeout=20)
            stub.JoinRoom(mm.JoinRoomRequest(invite_code=room.invite_code), metadata=other, timeout=20)
            g = stub.StartGame(mm.StartGameRequest(room_id=room.id), metadata=host, timeout=20)
            return stub, g, room, [host, other]

        def play(stub, g, seats, moves):
            for ply, text in enumerate(moves):
                stub.MakeMove(mm.MakeMoveRequest(game_id=g.id, expected_ply=ply, move_text=text),
                              metadata=seats[ply % 2], timeout=20)

        # The truth: 4 chess games (one ranked and over: fool's mate), 1 Chinese Checkers
        # game; 7 chess moves and one illegal; 3 players watching; 2 shogi tickets waiting.
        stub, g, _, seats = game(0, common.GAME_KIND_CHESS, ranked=True)
        play(stub, g, seats, ["f2f3", "e5", "g2g4", "Qh4#"])
        stub, g, room, seats = game(1, common.GAME_KIND_CHESS)
        play(stub, g, seats, ["e2e4", "e7e5"])
        watches = [stub.Watch(mm.WatchRequest(room_id=room.id, after_seq=0), metadata=m, timeout=120)
                   for m in seats]
        stub, g, room, seats = game(2, common.GAME_KIND_CHESS)
        play(stub, g, seats, ["d2d4"])
        with self.assertRaises(grpc.RpcError) as err:  # black's pawn cannot go three squares
            stub.MakeMove(mm.MakeMoveRequest(game_id=g.id, expected_ply=1, move_text="e7e4"),
                          metadata=seats[1], timeout=20)
        self.assertIn(err.exception.code(), (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION),
                      err.exception.details())
        watches.append(stub.Watch(mm.WatchRequest(room_id=room.id, after_seq=0), metadata=seats[0], timeout=120))
        game(3, common.GAME_KIND_CHESS)
        game(4, common.GAME_KIND_CHECKERS)
        for i in (5, 6):
            stubs[i % 2].JoinQueue(mm.JoinQueueRequest(kind=common.GAME_KIND_SHOGI4, player_count=4),
                                   metadata=guest(i), timeout=20)
        def drain(stream):
            try:
                for _ in stream:
                    pass
            except grpc.RpcError:
                pass  # cancelled at the end of the test

        for w in watches:  # read each stream in the background so that it stays open
            threading.Thread(target=drain, args=(w,), daemon=True).start()
        self.addCleanup(lambda: [w.cancel() for w in watches])

        kinds = {"chess": 0.0, "shogi4": 0.0, "checkers": 0.0}
        want = {  # panel title -> one {label value: number} per query
            "Active games per game kind": [("kind", {**kinds, "chess": 3.0, "checkers": 1.0})],
            "Moves per second per game kind": [("kind", {**kinds, "chess": 7.0})],
            "Rules: moves applied and refused": [("kind", {**kinds, "chess": 7.0}), ("kind", {**kinds, "chess": 1.0})],
            "Connected players": [("", {"": 3.0})],
            "Replicas up per service": [("job", {s: float(self.REPLICAS) for s in SERVICES})],
            "Quick-match tickets waiting per game kind": [("kind", {**kinds, "shogi4": 2.0})],
            "Rating outbox: games waiting and the oldest one's age": [("", {"": 0.0}), ("", {"": 0.0})],
            "Rating updates per pool": [("pool", {"chess": 1.0, "shogi4_singles": 0.0, "shogi4_pairs": 0.0,
                                                  "checkers": 0.0})],
        }
        panels = self.panel_targets()
        for title in want:
            self.assertIn(title, panels, "a panel this test knows the truth of was renamed or removed")

        def shown():
            return {title: [self.by(totals(e), label) for e, (label, _) in zip(panels[title], w)]
                    for title, w in want.items()}
        truth = {title: [v for _, v in w] for title, w in want.items()}
        # Each replica refreshes the gauges it reads from the database every 5 s: first
        # wait until every replica reports the truth (a panel that summed them would then
        # show it times the replicas), then read the panels.
        def every_replica(expr):
            return sorted(self.series(expr).values())
        db_wide = {'tablero_matchmaking_active_games{kind="chess"}': 3.0,
                   'tablero_matchmaking_queue_tickets{kind="shogi4"}': 2.0}
        ok, got = self.wait_for(lambda: {e: every_replica(e) for e in db_wide},
                                lambda r: r == {e: [v] * self.REPLICAS for e, v in db_wide.items()}, 40)
        self.assertTrue(ok, f"replicas' database-wide gauges: {got}")
        ok, got = self.wait_for(shown, lambda r: r == truth, 40)
        for title in truth:
            self.assertEqual(got[title], truth[title], f"panel {title!r}: {panels[title]}")
        # The class of error this guards against: summing a database-wide gauge.
        self.assertEqual(self.by("sum by (kind) (tablero_matchmaking_active_games)", "kind")["chess"],
                         3.0 * self.REPLICAS)

        # Per-replica panels show one series per replica of each service.
        for title in ("CPU per replica", "Resident memory per replica", "Threads and open files per replica"):
            for e in panels[title]:
                got = self.series(totals(e))
                jobs = sorted(dict(k)["job"] for k in got)
                self.assertEqual(jobs, sorted(SERVICES * self.REPLICAS), f"{title}: {e}")
                # CPU time counts in 10 ms clock ticks, which an idle replica may not have
                # used yet: of the CPU only the matchmaking replicas, which served this
                # test's games, must show some.
                shown = [v for k, v in got.items()
                         if title != "CPU per replica" or dict(k)["job"] == "matchmaking"]
                self.assertTrue(shown and all(v > 0 for v in shown), f"{title}: {got}")
        for e in panels["Database connections in use per replica"]:
            self.assertEqual(sorted(dict(k)["job"] for k in self.series(totals(e))),
                             sorted(DB_SERVICES * self.REPLICAS), e)
        # Each rules replica serves a share: the matchmaking replicas balance their calls. Under
        # load a connection to a replica may still be coming up while the first moves are
        # played, so a few more moves now, on a game on each matchmaking replica, before the
        # check.
        for i in (7, 8):
            stub, g, _, seats = game(i, common.GAME_KIND_CHESS)
            play(stub, g, seats, ["g1f3", "g8f6", "f3g1", "f6g8"])
        calls = 'sum by (instance) (grpc_server_handled_total{job="rules", grpc_method="ApplyMove"})'
        ok, per = self.wait_for(lambda: self.by(calls, "instance"),
                                lambda r: len(r) == self.REPLICAS and all(v > 0 for v in r.values()))
        self.assertTrue(ok, f"rules: ApplyMove calls per replica {per}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    unittest.main(argv=[sys.argv[0], sys.argv[1]], verbosity=2)
