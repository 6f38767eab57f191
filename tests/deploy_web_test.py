#!/usr/bin/env python3
"""The web client's deployment (issue 25), read from the files: Envoy sends every path that
is not an API call to the "web" cluster, which compose and Kubernetes both provide (nginx
with the built files from deploy/docker/Dockerfile.web, on the port Envoy dials)."""
import os
import re
import unittest

import yaml

SRC = os.environ.get("TABLERO_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def src(*p):
    return os.path.join(SRC, *p)


def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


class WebDeploy(unittest.TestCase):
    def setUp(self):
        cfg = load_all(src("deploy", "envoy", "envoy.yaml"))[0]
        res = cfg["static_resources"]
        hcm = res["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
        self.routes = hcm["route_config"]["virtual_hosts"][0]["routes"]
        self.clusters = {c["name"]: c for c in res["clusters"]}
        with open(src("deploy", "web", "nginx.conf")) as f:
            self.nginx = f.read()
        self.port = int(re.search(r"listen\s+(\d+);", self.nginx).group(1))

    def test_envoy_routes_the_rest_to_web(self):
        last = self.routes[-1]
        self.assertEqual(last["match"], {"prefix": "/"}, "the site's route comes after every API route")
        self.assertEqual(last["route"]["cluster"], "web")
        for r in self.routes[:-1]:
            self.assertNotEqual(r["match"].get("prefix"), "/", "one catch-all route only")
        ep = self.clusters["web"]["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]
        addr = ep["address"]["socket_address"]
        self.assertEqual((addr["address"], addr["port_value"]), ("web", self.port))

    def test_nginx_serves_the_app(self):
        self.assertRegex(self.nginx, r"try_files \$uri /index\.html;")
        self.assertIn("location = /healthz", self.nginx)

    def test_image(self):
        with open(src("deploy", "docker", "Dockerfile.web")) as f:
            text = f.read()
        self.assertIn("npm ci", text)
        self.assertIn("npm run build", text)
        self.assertIn("COPY deploy/web/nginx.conf", text)
        self.assertIn("web/dist/site", text)
        self.assertRegex(text, r"(?m)^USER\s+(?!0\b|root\b)\S+")
        self.assertIn(f"EXPOSE {self.port}", text)
        with open(src("deploy", "docker", "Dockerfile.dockerignore")) as f:
            self.assertIn("web/node_modules", f.read().split())

    def test_compose(self):
        with open(src("docker-compose.yml")) as f:
            web = yaml.safe_load(f)["services"]["web"]
        self.assertEqual(web["build"]["dockerfile"], "deploy/docker/Dockerfile.web")
        self.assertTrue(os.path.exists(src(web["build"]["context"], web["build"]["dockerfile"])))

    def test_kubernetes(self):
        objs = {(o["kind"], o["metadata"]["name"]): o for o in load_all(src("deploy", "k8s", "web.yaml"))}
        kust = load_all(src("deploy", "k8s", "kustomization.yaml"))[0]
        self.assertIn("web.yaml", kust["resources"])
        self.assertIn("tablero/web", [i["name"] for i in kust["images"]])
        dep = objs[("Deployment", "web")]["spec"]
        svc = objs[("Service", "web")]["spec"]
        c = dep["template"]["spec"]["containers"][0]
        self.assertRegex(c["image"], r"^tablero/web:[\w.-]+$")
        self.assertEqual({p["name"]: p["containerPort"] for p in c["ports"]}, {"http": self.port})
        self.assertEqual(svc.get("clusterIP"), "None", "headless: Envoy's STRICT_DNS sees every pod")
        self.assertEqual([p["port"] for p in svc["ports"]], [self.port])
        self.assertEqual(svc["selector"], dep["selector"]["matchLabels"])
        self.assertEqual(c["readinessProbe"]["httpGet"]["path"], "/healthz")
        self.assertTrue(dep["template"]["spec"]["securityContext"]["runAsNonRoot"])
        for kind in ("HorizontalPodAutoscaler", "PodDisruptionBudget"):
            self.assertIn((kind, "web"), objs)
        for o in objs.values():
            self.assertEqual(o["metadata"]["namespace"], "tablero")


if __name__ == "__main__":
    unittest.main()
