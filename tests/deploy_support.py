"""Shared by the deployment tests (deploy_test.py, deploy_static.py): the repository's
paths and services, its deployment files read and parsed, service processes started
locally, and the metric contract's checks."""
import base64
import glob
import json
import os
import re
import subprocess
import time

import yaml

from procs import free_port, Proc  # noqa: F401 (used by the deploy tests)

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
