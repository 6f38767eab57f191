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
import base64
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse
import urllib.request

import yaml

SRC = os.environ.get("TABLERO_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("TABLERO_BIN_DIR", os.path.join(SRC, "build", "bin"))
DEPLOY = os.path.join(SRC, "deploy")
GRPC_PORT, METRICS_PORT = 50051, 9101  # every container's ports (deploy/docker/Dockerfile)


def src(*p):
    return os.path.join(SRC, *p)


# Services are the folders of services/ with a main.cc: a new service is checked as soon
# as it exists. Those with migrations/ own tables and need the database.
SERVICES = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(src("services", "*", "main.cc")))
DB_SERVICES = [s for s in SERVICES if os.path.isdir(src("services", s, "migrations"))]
GRPC_NAME = {s: "tablero.v1." + s.capitalize() for s in SERVICES}
LIVENESS = "liveness"  # the health name SERVING while the process runs (libs/service/server.h)


def test_db_url():
    url = os.environ.get("TABLERO_TEST_DATABASE_URL", "")
    if not url:
        raise AssertionError("TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh")
    return url


def read(path):
    with open(path) as f:
        return f.read()


def load_yaml(path):
    with open(path) as f:
        return yaml.safe_load(f)


def k8s_objects():
    objs = []
    for path in sorted(glob.glob(os.path.join(DEPLOY, "k8s", "*.yaml"))):
        if os.path.basename(path) == "kustomization.yaml":
            continue
        with open(path) as f:
            objs += [(os.path.basename(path), d) for d in yaml.safe_load_all(f) if d]
    return objs


def find(objs, kind, name):
    for _, o in objs:
        if o["kind"] == kind and o["metadata"]["name"] == name:
            return o
    return None


def container_env(objs, c):
    """The environment Kubernetes gives container c (envFrom ConfigMaps/Secrets, env)."""
    env = {}

    def data_of(kind, name):
        o = find(objs, kind, name)
        assert o is not None, f"{kind} {name} referenced but not defined in deploy/k8s"
        if kind == "Secret":
            d = {k: base64.b64decode(v).decode() for k, v in (o.get("data") or {}).items()}
            d.update(o.get("stringData") or {})
            return d
        return o.get("data") or {}

    for ef in c.get("envFrom", []):
        ref = ef.get("configMapRef") or ef.get("secretRef")
        env.update(data_of("ConfigMap" if "configMapRef" in ef else "Secret", ref["name"]))
    for e in c.get("env", []):
        if "value" in e:
            env[e["name"]] = str(e["value"])
        else:
            vf = e["valueFrom"]
            ref = vf.get("secretKeyRef") or vf.get("configMapKeyRef")
            data = data_of("Secret" if "secretKeyRef" in vf else "ConfigMap", ref["name"])
            assert ref["key"] in data, f"{e['name']}: key {ref['key']} missing in {ref['name']}"
            env[e["name"]] = data[ref["key"]]
    return env


def compose():
    return load_yaml(src("docker-compose.yml"))  # safe_load resolves the << merge keys


def compose_env(svc):
    env = svc.get("environment") or {}
    if isinstance(env, list):
        env = dict(e.split("=", 1) for e in env)
    return {k: str(v) for k, v in env.items()}


def port_of(addr):
    return int(addr.rsplit(":", 1)[1])


def binary_flags(binary):
    """Flags a binary accepts, from --helpfull."""
    out = subprocess.run([os.path.join(BIN, binary), "--helpfull"], capture_output=True, text=True, timeout=20)
    return set(re.findall(r"^\s+--(\w+) \(", out.stdout + out.stderr, re.M))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proc:
    """A binary started as a child process with exactly `env` (plus PATH)."""

    def __init__(self, argv, env, name):
        self.log = tempfile.NamedTemporaryFile(prefix=f"tablero-deploy-{name}-", suffix=".log", delete=False)
        full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        full.update(env)
        self.p = subprocess.Popen(argv, env=full, stdout=self.log, stderr=subprocess.STDOUT)
        self.name = name

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(15)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        return self.p.returncode

    def output(self):
        with open(self.log.name, errors="replace") as f:
            return f.read()

    def __del__(self):
        try:
            os.unlink(self.log.name)
        except OSError:
            pass


def healthcheck(addr, service="", timeout_ms=1000):
    r = subprocess.run([os.path.join(BIN, "healthcheck"), f"--addr={addr}", f"--service={service}",
                        f"--timeout_ms={timeout_ms}"], capture_output=True, text=True, timeout=20)
    return r.returncode, (r.stdout + r.stderr).strip()


def wait_health(addr, want_rc, seconds, service="", proc=None):
    until = time.time() + seconds
    while True:
        rc, out = healthcheck(addr, service)
        if rc == want_rc or time.time() > until:
            return rc, out
        if proc is not None and proc.p.poll() is not None:
            return rc, f"{out} (exited with {proc.p.returncode})"
        time.sleep(0.1)


def start_service(name, env, args=()):
    return Proc([os.path.join(BIN, name), *args], env, name)


def local_env(env, db_url):
    """A manifest's environment made runnable here: the database is the test's, and each
    listen port becomes a free local port. Returns (env, {manifest port: local port})."""
    env = dict(env)
    ports = {}
    for key in ("TABLERO_LISTEN", "TABLERO_METRICS_LISTEN"):
        if key in env:
            ports[port_of(env[key])] = free_port()
            env[key] = f"127.0.0.1:{ports[port_of(env[key])]}"
    if "TABLERO_DATABASE_URL" in env:
        env["TABLERO_DATABASE_URL"] = db_url
    return env, ports


def ping(addr, payload=b"hello", delay_ms=0):
    """tablero.v1.Ops/Ping with hand-encoded protobuf (no generated code needed)."""
    import grpc
    req = b""
    if delay_ms:
        req += b"\x08" + varint(delay_ms & 0xFFFFFFFFFFFFFFFF)
    req += b"\x12" + varint(len(payload)) + payload
    with grpc.insecure_channel(addr) as ch:
        call = ch.unary_unary("/tablero.v1.Ops/Ping")
        try:
            return grpc.StatusCode.OK, call(req, timeout=10)
        except grpc.RpcError as e:
            return e.code(), b""


def varint(n):
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out


# ---- PromQL: which metric names does an expression read? ----
PROMQL_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or",
                   "unless", "offset", "inf", "nan"}


def promql_metrics(expr):
    e = expr.replace("$__rate_interval", "1m").replace("$__interval", "1m")
    e = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', e)  # strings
    e = re.sub(r"\{[^}]*\}", " ", e)  # label matchers
    e = re.sub(r"\[[^\]]*\]", " ", e)  # ranges
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    e = re.sub(r"\$\w+", " ", e)  # dashboard variables
    names = set()
    for m in re.finditer(r"\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[a-z]*|[a-zA-Z_:][a-zA-Z0-9_:]*", e):
        tok = m.group(0)
        if tok[0].isdigit() or tok.lower() in PROMQL_KEYWORDS:
            continue
        if re.match(r"\s*\(", e[m.end():]):
            continue  # a function or aggregation
        names.add(tok)
    return names


def dashboard_exprs():
    exprs = []
    for path in glob.glob(os.path.join(DEPLOY, "grafana", "dashboards", "*.json")):
        with open(path) as f:
            d = json.load(f)

        def walk(panels):
            for p in panels:
                exprs.extend(t["expr"] for t in p.get("targets", []) if t.get("expr"))
                walk(p.get("panels", []))
        walk(d["panels"])
        for v in d.get("templating", {}).get("list", []):
            q = v.get("query")
            q = q.get("query") if isinstance(q, dict) else q
            m = re.match(r"label_values\((.*?)(,\s*\w+)?\)$", q or "")
            if m:
                exprs.append(m.group(1))
    return exprs


def alert_exprs():
    rules = load_yaml(os.path.join(DEPLOY, "prometheus", "alerts.yml"))
    return [r["expr"] for g in rules["groups"] for r in g["rules"]]


class Family:
    """One line of deploy/metrics-contract.txt."""

    def __init__(self, name, typ, labels, services, meaning):
        self.name, self.type, self.meaning = name, typ, meaning
        # label name -> the set of values it takes, or None (open values)
        self.labels = {}
        if labels != "-":
            for lab in labels.split(","):
                k, _, v = lab.partition("=")
                self.labels[k] = set(v.split("|")) if v else None
        self.services = set(SERVICES) if services == "all" else set(services.split(","))


def contract():
    """deploy/metrics-contract.txt: name -> Family."""
    out = {}
    with open(os.path.join(DEPLOY, "metrics-contract.txt")) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 4)
            assert len(parts) == 5, f"metrics-contract.txt:{n}: want name type labels services meaning"
            assert parts[0] not in out, f"metrics-contract.txt:{n}: {parts[0]} listed twice"
            out[parts[0]] = Family(*parts)
    return out


def parse_exposition(text):
    """Prometheus text format -> {family: (type, {label: set of values})}. Samples of a
    histogram or summary (_bucket, _sum, _count) count for their family; `le` and
    `quantile` are the format's own labels and left out."""
    fams = {}
    for line in text.splitlines():
        m = re.match(r"# TYPE (\S+) (\S+)$", line)
        if m:
            fams[m.group(1)] = (m.group(2), {})
            continue
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ", line)
        assert m, f"not an exposition line: {line!r}"
        name = m.group(1)
        fam = name if name in fams else re.sub(r"_(bucket|sum|count)$", "", name)
        assert fam in fams, f"sample {name} comes before its # TYPE line"
        for k, v in re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ""):
            if k not in ("le", "quantile"):
                fams[fam][1].setdefault(k, set()).add(v)
    return fams


def check_exported(test, service, text, con=None):
    """A service's /metrics page against the contract, both ways: every family it exports
    is listed for it with that type and those label names (and values, where listed), and
    every family listed for it is exported."""
    con = con or contract()
    got = parse_exposition(text)
    for name, (typ, labels) in got.items():
        test.assertIn(name, con, f"{service} exports {name}, which deploy/metrics-contract.txt does not list")
        fam = con[name]
        test.assertIn(service, fam.services, f"{service} exports {name}; the contract lists it for {sorted(fam.services)}")
        test.assertEqual(typ, fam.type, f"{service}: {name} is a {typ}; the contract says {fam.type}")
        test.assertEqual(set(labels), set(fam.labels), f"{service}: label names of {name}")
        for k, values in fam.labels.items():
            if values is not None:
                test.assertEqual(labels[k], values, f"{service}: values of {name}{{{k}}}")
    for name, fam in con.items():
        if service in fam.services:
            test.assertIn(name, got, f"the contract lists {name} for {service}, which does not export it")


class Static(unittest.TestCase):
    """The deployment files agree with each other and with the repository."""

    def test_services_found(self):
        self.assertGreaterEqual(len(SERVICES), 4, SERVICES)
        self.assertTrue(set(DB_SERVICES) >= {"matchmaking", "rating"}, DB_SERVICES)

    def test_kubernetes_objects_per_service(self):
        objs = k8s_objects()
        kust = load_yaml(os.path.join(DEPLOY, "k8s", "kustomization.yaml"))
        for r in kust["resources"]:
            self.assertTrue(os.path.exists(os.path.join(DEPLOY, "k8s", r)), r)
        listed = set(kust["resources"])
        for f, o in objs:
            self.assertIn(f, listed, f"{f} is not in kustomization.yaml")
            if o["kind"] != "Namespace":
                self.assertEqual(o["metadata"].get("namespace"), "tablero", f"{f}: {o['kind']}")
        for s in SERVICES + ["envoy"]:
            for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"):
                self.assertIsNotNone(find(objs, kind, s), f"{kind} {s} missing in deploy/k8s")
            hpa = find(objs, "HorizontalPodAutoscaler", s)["spec"]
            self.assertEqual(hpa["scaleTargetRef"], {"apiVersion": "apps/v1", "kind": "Deployment", "name": s})
            self.assertGreaterEqual(hpa["minReplicas"], 2)
            self.assertGreater(hpa["maxReplicas"], hpa["minReplicas"])
            pdb = find(objs, "PodDisruptionBudget", s)["spec"]
            dep = find(objs, "Deployment", s)["spec"]
            self.assertEqual(pdb["selector"], dep["selector"])
            self.assertEqual(find(objs, "Service", s)["spec"]["selector"], dep["selector"]["matchLabels"])
            tmpl = dep["template"]
            labels = tmpl["metadata"]["labels"]
            for k, v in dep["selector"]["matchLabels"].items():
                self.assertEqual(labels.get(k), v)
            spread = tmpl["spec"]["topologySpreadConstraints"]
            self.assertIn("kubernetes.io/hostname", [t["topologyKey"] for t in spread])
            for t in spread:
                self.assertEqual(t["labelSelector"]["matchLabels"], dep["selector"]["matchLabels"])
            c = tmpl["spec"]["containers"][0]
            for r in ("requests", "limits"):
                self.assertTrue({"cpu", "memory"} <= set(c["resources"][r]), f"{s}: resources.{r}")
            ann = tmpl["metadata"]["annotations"]
            self.assertEqual(ann["prometheus.io/scrape"], "true")
            cports = {p["name"]: p["containerPort"] for p in c["ports"]}
            self.assertIn(int(ann["prometheus.io/port"]), cports.values(), f"{s}: scrape port")
            for p in find(objs, "Service", s)["spec"]["ports"]:
                tp = p["targetPort"]
                self.assertTrue(tp in cports or tp in cports.values(), f"Service {s}: targetPort {tp}")

    def test_service_deployments(self):
        objs = k8s_objects()
        for s in SERVICES:
            dep = find(objs, "Deployment", s)["spec"]["template"]
            c = dep["spec"]["containers"][0]
            self.assertRegex(c["image"], rf"^tablero/{s}:[\w.-]+$")
            env = container_env(objs, c)
            flags = binary_flags(s)
            for k in env:
                self.assertTrue(k.startswith("TABLERO_") and k[8:].lower() in flags,
                                f"{s}: {k} is not a flag of the binary (accepted: {sorted(flags)})")
            self.assertEqual("TABLERO_DATABASE_URL" in env, s in DB_SERVICES,
                             f"{s}: the database URL goes to the services that own tables, only")
            cports = {p["name"]: p["containerPort"] for p in c["ports"]}
            self.assertEqual(cports["grpc"], port_of(env["TABLERO_LISTEN"]))
            self.assertEqual(cports["metrics"], port_of(env["TABLERO_METRICS_LISTEN"]))
            for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                self.assertEqual(c[probe]["grpc"]["port"], cports["grpc"], f"{s}: {probe} is native gRPC on grpc")
            # Process health restarts pods; readiness (the API's name, which follows the
            # database) only takes them out of the endpoints (the Probes case runs it).
            self.assertEqual(c["startupProbe"]["grpc"].get("service"), LIVENESS, s)
            self.assertEqual(c["livenessProbe"]["grpc"].get("service"), LIVENESS, s)
            self.assertEqual(c["readinessProbe"]["grpc"].get("service"), GRPC_NAME[s], s)
            drain = float(env.get("TABLERO_DRAIN_SECONDS", 10))
            pre = c.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
            pause = float(pre[1]) if pre[:1] == ["sleep"] else 0
            self.assertGreater(dep["spec"]["terminationGracePeriodSeconds"], drain + pause + 2,
                               f"{s}: grace period must outlast preStop + drain")
            sc = c["securityContext"]
            self.assertFalse(sc["allowPrivilegeEscalation"])
            self.assertTrue(dep["spec"]["securityContext"]["runAsNonRoot"])

    def test_envoy_config(self):
        cfg_text = read(os.path.join(DEPLOY, "envoy", "envoy.yaml"))
        objs = k8s_objects()
        self.assertEqual(find(objs, "ConfigMap", "envoy-config")["data"]["envoy.yaml"], cfg_text,
                         "deploy/k8s/envoy.yaml must hold deploy/envoy/envoy.yaml verbatim")
        cfg = yaml.safe_load(cfg_text)
        res = cfg["static_resources"]
        clusters = {c["name"]: c for c in res["clusters"]}
        hcm = res["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
        filters = [f["name"] for f in hcm["http_filters"]]
        self.assertEqual(filters[-1], "envoy.filters.http.router")
        self.assertIn("envoy.filters.http.grpc_web", filters)
        self.assertIn("envoy.filters.http.cors", filters)
        vh = hcm["route_config"]["virtual_hosts"][0]
        cors = vh["typed_per_filter_config"]["envoy.filters.http.cors"]
        self.assertIn("authorization", cors["allow_headers"])
        self.assertIn("grpc-status", cors["expose_headers"])
        routes = vh["routes"]
        blocked = [r["match"].get("path") for r in routes if "direct_response" in r]
        self.assertIn("/tablero.v1.Rating/ReportGame", blocked, "ReportGame is internal")
        self.assertLess(routes.index(next(r for r in routes if "direct_response" in r)),
                        routes.index(next(r for r in routes if r["match"].get("prefix") == "/tablero.v1.Rating/")))
        comp = compose()["services"]
        for s in SERVICES:
            route = [r for r in routes if r["match"].get("prefix") == f"/{GRPC_NAME[s]}/"]
            self.assertEqual(len(route), 1, f"no route for {GRPC_NAME[s]}")
            self.assertEqual(route[0]["route"]["cluster"], s)
            c = clusters[s]
            addr = c["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]["socket_address"]
            self.assertEqual((addr["address"], addr["port_value"]), (s, GRPC_PORT))
            self.assertIn(s, comp, f"compose service {s} (Envoy resolves it by name)")
            k8s_ports = [p["port"] for p in find(objs, "Service", s)["spec"]["ports"] if p["name"] == "grpc"]
            self.assertEqual(k8s_ports, [GRPC_PORT])
            self.assertEqual(find(objs, "Service", s)["spec"].get("clusterIP"), "None",
                             f"Service {s} is headless so Envoy's STRICT_DNS sees every pod")
            self.assertEqual(c["health_checks"][0]["grpc_health_check"]["service_name"], GRPC_NAME[s])
            self.assertIn("http2_protocol_options", json.dumps(c))
        for s in ("Ops", "Health", "ServerReflection"):
            self.assertFalse([r for r in routes if s in json.dumps(r["match"])], f"{s} must not be public")

    def test_envoy_edge(self):
        """Envoy's edge-proxy settings (issue 23): client address, limits, timeouts, logs."""
        cfg = yaml.safe_load(read(os.path.join(DEPLOY, "envoy", "envoy.yaml")))
        om = cfg["overload_manager"]
        monitors = {m["name"] for m in om["resource_monitors"]}
        self.assertEqual(monitors, {"envoy.resource_monitors.fixed_heap",
                                    "envoy.resource_monitors.global_downstream_max_connections"})
        for a in om["actions"]:
            for t in a["triggers"]:
                self.assertIn(t["name"], monitors)
                self.assertTrue(0 < t["threshold"]["value"] <= 1)
        listener = cfg["static_resources"]["listeners"][0]
        self.assertLessEqual(listener["per_connection_buffer_limit_bytes"], 1 << 20)
        hcm = listener["filter_chains"][0]["filters"][0]["typed_config"]
        self.assertIs(hcm["use_remote_address"], True)
        self.assertEqual(hcm.get("xff_num_trusted_hops", 0), 0)
        self.assertEqual(hcm["common_http_protocol_options"]["headers_with_underscores_action"], "REJECT_REQUEST")
        self.assertGreater(hcm["http2_protocol_options"]["max_concurrent_streams"], 0)
        for t in ("stream_idle_timeout", "request_timeout", "request_headers_timeout"):
            self.assertRegex(hcm[t], r"^[1-9]\d*s$", t)
        log = hcm["access_log"][0]
        self.assertEqual(log["typed_config"]["@type"],
                         "type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog")
        self.assertIn("X-REQUEST-ID", json.dumps(log))
        filters = [f["name"] for f in hcm["http_filters"]]
        self.assertIn("envoy.filters.http.local_ratelimit", filters)
        self.assertLess(filters.index("envoy.filters.http.local_ratelimit"), filters.index("envoy.filters.http.router"))
        routes = hcm["route_config"]["virtual_hosts"][0]["routes"]
        for r in routes:
            if "direct_response" in r:
                continue
            path = r["match"].get("path") or r["match"]["prefix"]
            if r["route"]["cluster"] == "web":  # the web client's files, not gRPC
                self.assertRegex(r["route"]["timeout"], r"^[1-9]\d*s$", path)
                continue
            timeout, cap = r["route"]["timeout"], r["route"]["max_stream_duration"]["grpc_timeout_header_max"]
            if path in ("/tablero.v1.Matchmaking/Watch", "/tablero.v1.Matchmaking/WatchBatches",
                        "/tablero.v1.Matchmaking/WatchTicket"):
                self.assertEqual((timeout, cap), ("0s", "0s"), f"{path}: streams keep no deadline")
            else:
                self.assertRegex(timeout, r"^[1-9]\d*s$", f"{path}: unary routes have a deadline")
                self.assertEqual(cap, timeout, path)
            self.assertEqual(r["route"]["cluster"], path.split("/")[1].split(".")[-1].lower())
        watch = [i for i, r in enumerate(routes) if r["match"].get("path") == "/tablero.v1.Matchmaking/Watch"]
        mm_prefix = [i for i, r in enumerate(routes) if r["match"].get("prefix") == "/tablero.v1.Matchmaking/"]
        self.assertTrue(watch and mm_prefix and watch[0] < mm_prefix[0], "the Watch route goes first")
        batches = [i for i, r in enumerate(routes) if r["match"].get("path") == "/tablero.v1.Matchmaking/WatchBatches"]
        self.assertTrue(batches and batches[0] < mm_prefix[0], "the WatchBatches route goes first")
        tickets = [i for i, r in enumerate(routes) if r["match"].get("path") == "/tablero.v1.Matchmaking/WatchTicket"]
        self.assertTrue(tickets and tickets[0] < mm_prefix[0], "the WatchTicket route goes first")
        for method in ("CreateGuest", "JoinRoom"):
            r = [r for r in routes if r["match"].get("path") == f"/tablero.v1.Matchmaking/{method}"]
            self.assertEqual(len(r), 1, method)
            self.assertLess(routes.index(r[0]), mm_prefix[0])
            rl = r[0]["typed_per_filter_config"]["envoy.filters.http.local_ratelimit"]
            self.assertTrue(rl["@type"].endswith("local_ratelimit.v3.LocalRateLimit"))
            tb = rl["token_bucket"]
            self.assertGreater(tb["max_tokens"], 0)
            self.assertGreater(tb["tokens_per_fill"], 0)
            for k in ("filter_enabled", "filter_enforced"):
                self.assertEqual(rl[k]["default_value"], {"numerator": 100, "denominator": "HUNDRED"})
        for c in cfg["static_resources"]["clusters"]:
            if c["name"] != "envoy_admin":
                self.assertLessEqual(c["per_connection_buffer_limit_bytes"], 1 << 20, c["name"])

    def test_network_policies(self):
        """Only Envoy reaches matchmaking; only matchmaking (and Envoy, for the public
        methods it routes) reaches rules, bot and rating; metrics stay scrapeable."""
        objs = k8s_objects()
        pols = {o["metadata"]["name"]: o for _, o in objs if o["kind"] == "NetworkPolicy"}
        for name, o in pols.items():
            self.assertEqual(o["apiVersion"], "networking.k8s.io/v1", name)
            self.assertEqual(set(o["spec"]) - {"podSelector", "policyTypes", "ingress", "egress"}, set(), name)
            self.assertEqual(o["spec"]["policyTypes"], ["Ingress"], name)
            for rule in o["spec"].get("ingress", []):
                self.assertEqual(set(rule) - {"from", "ports"}, set(), name)
                for peer in rule.get("from", []):
                    self.assertTrue(set(peer) <= {"podSelector", "namespaceSelector", "ipBlock"}, name)
                for port in rule["ports"]:
                    self.assertEqual(port["protocol"], "TCP")
                    self.assertIsInstance(port["port"], int)
        deny = pols["default-deny-ingress"]["spec"]
        self.assertEqual(deny["podSelector"], {})
        self.assertNotIn("ingress", deny)

        def allowed(target, port):
            """Apps whose pods may reach `target` on `port` ('*' = any peer)."""
            dep = find(objs, "Deployment", target)["spec"]["template"]["metadata"]["labels"]
            out = set()
            for o in pols.values():
                sel = o["spec"]["podSelector"].get("matchLabels", {})
                if not sel or any(dep.get(k) != v for k, v in sel.items()):
                    continue
                for rule in o["spec"].get("ingress", []):
                    if port not in [p["port"] for p in rule["ports"]]:
                        continue
                    for peer in rule.get("from", [{}]):
                        labels = peer.get("podSelector", {}).get("matchLabels")
                        out.add(labels["app.kubernetes.io/name"] if labels and "namespaceSelector" not in peer else "*")
            return out

        self.assertEqual(allowed("matchmaking", GRPC_PORT), {"envoy"})
        for s in SERVICES:
            if s != "matchmaking":
                self.assertEqual(allowed(s, GRPC_PORT), {"matchmaking", "envoy"}, s)
            self.assertEqual(allowed(s, 9101), {"*"}, f"{s}: Prometheus scrapes 9101")
        self.assertEqual(allowed("envoy", 8080), {"*"})

    def test_service_key(self):
        """Matchmaking and rating share the service key (Rating.ReportGame) everywhere."""
        objs = k8s_objects()
        keys = {s: container_env(objs, find(objs, "Deployment", s)["spec"]["template"]["spec"]["containers"][0]).get("TABLERO_SERVICE_KEY")
                for s in ("matchmaking", "rating")}
        self.assertTrue(keys["rating"] and keys["rating"] == keys["matchmaking"], keys)
        comp = compose()["services"]
        ckeys = {s: compose_env(comp[s]).get("TABLERO_SERVICE_KEY") for s in ("matchmaking", "rating")}
        self.assertTrue(ckeys["rating"] and ckeys["rating"] == ckeys["matchmaking"], ckeys)
        mm = container_env(objs, find(objs, "Deployment", "matchmaking")["spec"]["template"]["spec"]["containers"][0])
        self.assertEqual(mm.get("TABLERO_TRUSTED_PROXY_HOPS"), "1", "matchmaking sits behind one Envoy")
        self.assertEqual(compose_env(comp["matchmaking"]).get("TABLERO_TRUSTED_PROXY_HOPS"), "1")

    def test_dockerfile(self):
        text = read(os.path.join(DEPLOY, "docker", "Dockerfile"))
        stages = re.findall(r"^FROM\s+(\S+)", text, re.M)
        self.assertEqual(stages[0], "debian:bookworm")
        self.assertTrue(stages[-1].startswith("debian:bookworm"))
        self.assertIn("bash scripts/deps.sh", text, "build stage uses the local build's package list")
        self.assertIn("ARG SERVICE", text)
        self.assertRegex(text, r"services/\$SERVICE/migrations")
        self.assertRegex(text, r"(?m)^USER\s+(?!0\b|root\b)\S+")
        self.assertRegex(text, r"(?m)^HEALTHCHECK .*\n?.*\bhealthcheck --addr=")
        self.assertIn("runtime-packages.sh", text)
        for p in re.findall(r"(?m)^(?:COPY|RUN)\s.*?\b(deploy/docker/[\w.-]+|scripts/[\w.-]+)", text):
            self.assertTrue(os.path.exists(src(p)), p)
        self.assertIn(f"TABLERO_LISTEN=0.0.0.0:{GRPC_PORT}", text)
        self.assertIn(f"TABLERO_METRICS_LISTEN=0.0.0.0:{METRICS_PORT}", text)

    def test_compose(self):
        doc = compose()
        svcs = doc["services"]
        pg = [n for n, s in svcs.items() if str(s.get("image", "")).startswith("postgres:15")]
        self.assertEqual(len(pg), 1, "one Postgres 15")
        self.assertTrue(any(v.split(":")[0] in doc.get("volumes", {}) for v in svcs[pg[0]]["volumes"]))
        self.assertIn("healthcheck", svcs[pg[0]])
        for s in SERVICES:
            c = svcs[s]
            self.assertEqual(c["build"]["args"]["SERVICE"], s)
            self.assertTrue(os.path.exists(src(c["build"].get("context", "."), c["build"]["dockerfile"])))
            self.assertRegex(c["image"], rf"^tablero/{s}:[\w.-]+$")
            self.assertIn("healthcheck", c["healthcheck"]["test"][1])
            env = compose_env(c)
            flags = binary_flags(s)
            for k in env:
                self.assertTrue(k.startswith("TABLERO_") and k[8:].lower() in flags, f"compose {s}: {k}")
            self.assertEqual("TABLERO_DATABASE_URL" in env, s in DB_SERVICES, s)
            for dep, cond in (c.get("depends_on") or {}).items():
                self.assertEqual(cond["condition"], "service_healthy", f"{s} -> {dep}")
            if s in DB_SERVICES:
                self.assertIn(pg[0], c["depends_on"])
            grace = re.match(r"(\d+)s$", c.get("stop_grace_period", "10s"))
            self.assertGreater(int(grace.group(1)), float(env.get("TABLERO_DRAIN_SECONDS", 10)))
        envoy = svcs["envoy"]
        self.assertEqual(set(envoy["depends_on"]), set(SERVICES))
        self.assertTrue(any("deploy/envoy/envoy.yaml" in v for v in envoy["volumes"]))
        prom = svcs["prometheus"]
        self.assertTrue(any(v.startswith("./deploy/prometheus:") for v in prom["volumes"]))
        graf = svcs["grafana"]
        mounts = dict(v.split(":")[:2] for v in graf["volumes"])
        self.assertEqual(mounts["./deploy/grafana/provisioning"], "/etc/grafana/provisioning")
        prov = load_yaml(os.path.join(DEPLOY, "grafana", "provisioning", "dashboards", "tablero.yml"))
        self.assertEqual(mounts["./deploy/grafana/dashboards"], prov["providers"][0]["options"]["path"])
        ds = load_yaml(os.path.join(DEPLOY, "grafana", "provisioning", "datasources", "prometheus.yml"))
        self.assertIn("prometheus:9090", ds["datasources"][0]["url"])

    def test_prometheus_jobs(self):
        cfg = load_yaml(os.path.join(DEPLOY, "prometheus", "prometheus.yml"))
        jobs = {j["job_name"]: j for j in cfg["scrape_configs"]}
        for s in SERVICES:
            self.assertIn(s, jobs, f"scrape job {s}")
            self.assertIn(f"port: {METRICS_PORT}", yaml.safe_dump(jobs[s]).replace("'", ""))
        k8s = load_yaml(os.path.join(DEPLOY, "k8s", "prometheus-scrape.yml"))
        relabel = k8s["scrape_configs"][0]["relabel_configs"]
        self.assertIn({"source_labels": ["__meta_kubernetes_pod_label_app_kubernetes_io_name"],
                       "target_label": "job"}, relabel, "k8s jobs are named like compose jobs")

    def test_dashboard_and_contract(self):
        with open(os.path.join(DEPLOY, "grafana", "dashboards", "tablero.json")) as f:
            d = json.load(f)
        ds_uid = load_yaml(os.path.join(DEPLOY, "grafana", "provisioning", "datasources",
                                        "prometheus.yml"))["datasources"][0]["uid"]
        panels = [p for p in d["panels"] if p["type"] != "row"]
        self.assertGreaterEqual(len(panels), 10)
        ids = [p["id"] for p in d["panels"]]
        self.assertEqual(len(ids), len(set(ids)), "panel ids are unique")
        for p in panels:
            self.assertEqual(p["datasource"]["uid"], ds_uid, p["title"])
            self.assertTrue(p["targets"], p["title"])
        used = set()
        for e in dashboard_exprs() + alert_exprs():
            used |= promql_metrics(e)
        con = contract()
        readme = read(os.path.join(DEPLOY, "README.md"))
        listed = set()
        for name, fam in con.items():
            self.assertIn(fam.type, ("counter", "gauge", "histogram", "summary"), name)
            self.assertTrue(fam.services and fam.services <= set(SERVICES), f"{name}: services {fam.services}")
            words = name.split("_")
            if words[0] == "tablero" and words[1] in SERVICES:
                self.assertEqual(fam.services, {words[1]}, f"{name}: named after its service")
            self.assertTrue(name.endswith("_total") == (fam.type == "counter"), f"{name}: counters end in _total")
            self.assertIn(name, readme, f"{name} is documented in deploy/README.md")
            listed |= {name} | ({name + "_bucket", name + "_sum", name + "_count"}
                                if fam.type in ("histogram", "summary") else set())
        for m in sorted(used - {"up"}):
            self.assertIn(m, listed, f"{m} is queried but not in deploy/metrics-contract.txt")
        # The queries the issue asks for are there.
        for m in ("grpc_server_handled_total", "grpc_server_handling_seconds_bucket", "tablero_matchmaking_active_games",
                  "tablero_matchmaking_moves_total", "tablero_matchmaking_connected_players",
                  "tablero_matchmaking_cpu_takeovers_total", "tablero_bot_think_seconds_bucket",
                  "tablero_rating_updates_total"):
            self.assertIn(m, used)

    def test_contract_check_catches_drift(self):
        """check_exported fails on a family, label or value the contract does not list, and
        on a listed one that is missing (the two drifts issue 24 found)."""
        con = contract()

        def page(skip_value=None, extra=""):
            out = []
            for name, fam in con.items():
                if "rating" not in fam.services:
                    continue
                out.append(f"# TYPE {name} {fam.type}")
                suffix = {"histogram": "_count", "summary": "_count"}.get(fam.type, "")
                combos = [{}]
                for k, values in fam.labels.items():
                    vals = sorted(values) if values else ["x"]
                    combos = [dict(c, **{k: v}) for c in combos for v in vals if v != skip_value]
                for c in combos:
                    labels = ",".join(f'{k}="{v}"' for k, v in c.items())
                    out.append(f"{name}{suffix}{{{labels}}} 0" if labels else f"{name}{suffix} 0")
            return "\n".join(out) + "\n" + extra

        check_exported(self, "rating", page(), con)
        for bad in (page(skip_value="error"),  # a listed value not exported
                    page(extra='tablero_rating_tx_retries_total{reason="other"} 0\n'),  # one not listed
                    page(extra="# TYPE tablero_rating_new_thing gauge\ntablero_rating_new_thing 1\n")):
            with self.assertRaises(AssertionError):
                check_exported(self, "rating", bad, con)
        without = {k: v for k, v in con.items() if k != "tablero_rating_updates_total"}
        with self.assertRaises(AssertionError):
            check_exported(self, "rating", page(), without)

    def test_promql_names(self):
        self.assertEqual(promql_metrics('histogram_quantile(0.99, sum by (kind, le) (rate(a_b_bucket{x="y"}[5m])))'),
                         {"a_b_bucket"})
        self.assertEqual(promql_metrics('sum(up{job=~"$job"}) == 0 or absent(x{job="a b"}) > 1e3'), {"up", "x"})
        self.assertEqual(promql_metrics('a / on (i) group_left (j) b offset 5m'), {"a", "b"})


class ComposeConfig(unittest.TestCase):
    def test_docker_compose_config(self):
        exe = shutil.which("docker-compose")
        self.assertIsNotNone(exe, "docker-compose (Debian package) is missing: run scripts/deps.sh")
        # One call (docker-compose starts slowly): validate, then read back what it made.
        r = subprocess.run([exe, "-f", src("docker-compose.yml"), "config"], cwd=SRC,
                           capture_output=True, text=True, timeout=90)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = yaml.safe_load(r.stdout)["services"]
        self.assertTrue(set(SERVICES) | {"postgres", "envoy", "prometheus", "grafana"} <= set(out), out)
        for s in SERVICES:
            self.assertEqual(out[s]["environment"], compose_env(compose()["services"][s]))


class RuntimePackages(unittest.TestCase):
    def test_packages_of_the_binaries(self):
        script = os.path.join(DEPLOY, "docker", "runtime-packages.sh")
        bins = [os.path.join(BIN, b) for b in SERVICES + ["healthcheck"]]
        r = subprocess.run([script, *bins], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        pkgs = r.stdout.split()
        for want in ("libgrpc++", "libprotobuf", "libabsl", "libpqxx", "libprometheus-cpp-pull"):
            self.assertTrue(any(p.startswith(want) for p in pkgs), f"{want}* not in {pkgs}")
        self.assertFalse([p for p in pkgs if p.endswith("-dev")], "runtime needs no -dev package")
        r = subprocess.run([script, script], capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0, "a file that is no dynamic binary is an error")


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
            health = {}
            for x in t:
                health.setdefault(x["labels"]["job"], []).append(x["health"])
            return health == {j: ["up"] * len(ts) for j, ts in local.items()}, health
        ok, health = self.poll(targets_up, 30)
        self.assertTrue(ok, f"targets: {health}\n{prom.output()[-2000:]}")
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
        ok, got = self.poll(lambda: (lambda r: (r == want, r))(
            (self.query(ping_q % "OK"), self.query(ping_q % "INVALID_ARGUMENT"))))
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
        ok, last = self.poll(lambda: (lambda r: (r and all(x > 0 for x in r.values()), r))(
            self.query('sum by (job) (rate(grpc_server_handled_total{job=~"%s"}[5s]))' % "|".join(SERVICES))), 10)
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
        ok, got = self.poll(lambda: (lambda r: (r == {e: [v] * self.REPLICAS for e, v in db_wide.items()}, r))(
            {e: every_replica(e) for e in db_wide}), 40)
        self.assertTrue(ok, f"replicas' database-wide gauges: {got}")
        ok, got = self.poll(lambda: (lambda r: (r == truth, r))(shown()), 40)
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
                self.assertTrue(all(v > 0 for v in got.values()), f"{title}: {got}")
        for e in panels["Database connections in use per replica"]:
            self.assertEqual(sorted(dict(k)["job"] for k in self.series(totals(e))),
                             sorted(DB_SERVICES * self.REPLICAS), e)
        # Each bot and rules replica served a share (the matchmaking replicas balance).
        for s in ("rules",):
            per = self.by('sum by (instance) (grpc_server_handled_total{job="%s", grpc_method="ApplyMove"})' % s,
                          "instance")
            self.assertEqual(len(per), self.REPLICAS, per)
            self.assertTrue(all(v > 0 for v in per.values()), f"{s}: calls per replica {per}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    unittest.main(argv=[sys.argv[0], sys.argv[1]], verbosity=2)
