"""Deployment tests that read files and run tools, no service started: the cases Static,
ComposeConfig and RuntimePackages of deploy_test.py (which runs them by name)."""
import json
import os
import re
import shutil
import subprocess
import unittest

import yaml

from deploy_support import (alert_exprs, BIN, binary_flags, check_exported, compose, compose_env,
    container_env, contract, dashboard_exprs, DB_SERVICES, DEPLOY, find, GRPC_NAME, GRPC_PORT,
    k8s_objects, LIVENESS, load_yaml, METRICS_PORT, port_of, promql_metrics, read, SERVICES, SRC,
    src)


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
        exposed = cors["expose_headers"].split(",")
        for header in ("grpc-status", "grpc-message", "grpc-status-details-bin", "x-request-id"):
            self.assertIn(header, exposed, "clients of other origins read it from an error")
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
