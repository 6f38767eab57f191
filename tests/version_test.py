#!/usr/bin/env python3
"""Versions, the license and the terminal client's command line (issue 24, items 5 and 6).

  python3 tests/version_test.py Version|ClientArgs|Help|Repository

Version: every binary prints `tablero PROGRAM VERSION (commit C)` for --version and exits 0,
VERSION being the project version of the top-level CMakeLists.txt.
ClientArgs: `tablero` rejects unknown flags and bad values before it calls any server.
Help: every service's --help lists its own and the shared flags, names their files by
their path in the repository, and no help text prints a secret set in the environment.
Repository: LICENSE is Apache-2.0 and the README says so; scripts/stack.sh builds the
client and appends to the services' logs; the image labels carry the version.
Needs TABLERO_SOURCE_DIR and TABLERO_BIN_DIR (tests/CMakeLists.txt sets them).
"""
import os
import re
import subprocess
import sys
import unittest

SRC = os.environ.get("TABLERO_SOURCE_DIR", os.path.join(os.path.dirname(__file__), ".."))
BIN = os.environ.get("TABLERO_BIN_DIR", os.path.join(SRC, "build", "bin"))


def read(*p):
    with open(os.path.join(SRC, *p)) as f:
        return f.read()


def project_version():
    return re.search(r"project\(tablero VERSION ([0-9.]+)", read("CMakeLists.txt")).group(1)


def run(binary, *args):
    # No server may be called: a closed port makes any attempt fail fast.
    env = dict(os.environ, TABLERO_SERVER="127.0.0.1:1", TABLERO_RATING_SERVER="127.0.0.1:1",
               XDG_CONFIG_HOME="/nonexistent")
    return subprocess.run([os.path.join(BIN, binary), *args], capture_output=True, text=True,
                          timeout=30, env=env)


class Version(unittest.TestCase):
    def test_every_binary(self):
        version = project_version()
        for binary, program in (("rules", "rules"), ("matchmaking", "matchmaking"),
                                ("rating", "rating"), ("bot", "bot"), ("tablero", "client"),
                                ("healthcheck", "healthcheck"), ("perft", "perft")):
            with self.subTest(binary=binary):
                r = run(binary, "--version")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertRegex(r.stdout, r"^tablero %s %s \(commit ([0-9a-f]{7,}|unknown)\)\n$"
                                 % (program, re.escape(version)))


class ClientArgs(unittest.TestCase):
    def refused(self, args, *words):
        r = run("tablero", *args)
        self.assertNotEqual(r.returncode, 0, f"tablero {' '.join(args)}: {r.stdout}")
        for w in words:
            self.assertIn(w, r.stderr, f"tablero {' '.join(args)}")

    def test_bad_values_and_unknown_flags(self):
        self.refused(["play", "chess", "--cpu", "abc"], "cpu", "abc")
        self.refused(["play", "chess", "--cpu=abc"], "cpu", "abc")
        self.refused(["create", "chess", "--seats", "two"], "seats")
        self.refused(["play", "chess", "--colour", "white"], "colour")
        self.refused(["games", "--ranked=maybe"], "ranked")

    def test_help(self):
        r = run("tablero", "help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("play KIND [--cpu N]", r.stdout)
        r = run("tablero", "--help")
        out = r.stdout + r.stderr
        for flag in ("--cpu", "--opt", "--server", "--rating_server"):
            self.assertIn(flag, out)
        r = run("tablero")
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage: tablero", r.stdout)


class Help(unittest.TestCase):
    """What an operator reads from `<service> --help` and `--helpfull`."""

    SECRETS = {"TABLERO_DATABASE_URL": "postgresql://tablero:pw-in-the-env@db:5432/tablero",
               "TABLERO_SERVICE_KEY": "key-in-the-env"}

    def help(self, binary, flag):
        env = dict(os.environ, **self.SECRETS)
        r = subprocess.run([os.path.join(BIN, binary), flag], capture_output=True, text=True,
                           timeout=30, env=env)
        return r.stdout + r.stderr

    def test_help_lists_the_service_flags(self):
        own = {"rules": "--state_cache_entries", "matchmaking": "--grace_seconds",
               "rating": "--tau", "bot": "--max_budget_ms"}
        for binary, flag in own.items():
            with self.subTest(binary=binary):
                out = self.help(binary, "--help")
                self.assertNotIn("No flags matched", out)
                for f in (flag, "--listen", "--metrics_listen", "--drain_seconds",
                          "--service_key", "--log_level"):
                    self.assertIn(f, out)
                self.assertIn(f"services/{binary}/", out)

    def test_help_names_files_in_the_repository(self):
        # The build machine's folders are nobody's business: a flag's file is named by its
        # path in the repository.
        root = os.path.realpath(SRC).strip("/")
        for binary in ("rules", "matchmaking", "rating", "bot", "healthcheck"):
            with self.subTest(binary=binary):
                out = self.help(binary, "--helpfull")
                self.assertRegex(out, r"Flags from (libs|services|tools)/")
                self.assertNotIn(root, out)

    def test_help_prints_no_secret_from_the_environment(self):
        for binary in ("rules", "matchmaking", "rating", "bot"):
            for flag in ("--help", "--helpfull", "--helpmatch=_url", "-helpfull"):
                with self.subTest(binary=binary, flag=flag):
                    out = self.help(binary, flag)
                    self.assertIn("--database_url", out)
                    for secret in ("pw-in-the-env", "key-in-the-env"):
                        self.assertNotIn(secret, out)


class Repository(unittest.TestCase):
    def test_license(self):
        text = read("LICENSE")
        self.assertIn("Apache License\n                           Version 2.0, January 2004", text)
        self.assertIn("END OF TERMS AND CONDITIONS", text)
        self.assertIn("APPENDIX: How to apply the Apache License to your work.", text)
        self.assertRegex(read("README.md"), r"(?m)^## License\n\n.*Apache License, Version 2\.0")

    def test_stack_builds_the_client_and_keeps_logs(self):
        text = read("scripts", "stack.sh")
        ninja = re.search(r'(?m)^\s*ninja -C "\$BUILD" (.*)$', text).group(1).split()
        for target in ("rules", "matchmaking", "rating", "bot", "healthcheck", "tablero"):
            self.assertIn(target, ninja)
        self.assertIn("build/bin/tablero play chess --cpu 5", read("README.md"))
        self.assertRegex(text, r'>>"\$LOCAL/logs/\$1\.log" 2>&1 &')
        self.assertNotRegex(text, r'[^>]>"\$LOCAL/logs/\$1\.log"')

    def test_image_labels(self):
        text = read("deploy", "docker", "Dockerfile")
        self.assertIn(f"ARG VERSION={project_version()}", text)
        for label in ("org.opencontainers.image.version=\"$VERSION\"",
                      "org.opencontainers.image.revision=\"$REVISION\"",
                      "org.opencontainers.image.licenses=\"Apache-2.0\""):
            self.assertIn(label, text)
        self.assertIn('-DTABLERO_GIT_COMMIT="$REVISION"', text)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    unittest.main(argv=[sys.argv[0], sys.argv[1]], verbosity=2)
