#!/usr/bin/env python3
"""Clang's thread-safety analysis over the sources that lock.

GCC (the build's compiler) ignores ABSL_GUARDED_BY and friends; clang checks them. This
compiles, syntax only, every translation unit of libs/ and services/ that declares or uses
a mutex (in its source or any project header it includes), with the build's own flags
(compile_commands.json, its -W options left out) and -Wthread-safety
-Werror=thread-safety: a guarded member touched without its lock, or an annotation on a
mutex type clang cannot see into (libstdc++'s std::mutex is not annotated: use
absl::Mutex), fails, as does a source clang cannot compile.

    scripts/thread_safety.py BUILD_DIR [--clang clang++]

Registered with ctest as lint.thread_safety when clang++ is installed (scripts/deps.sh).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCKING = re.compile(r"absl::Mutex|std::mutex|std::shared_mutex|GUARDED_BY|LOCKS_REQUIRED")
INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)
_memo = {}


def locks(path):
    """True when the file, or a project header it includes (at any depth), declares or uses
    a mutex: its translation unit is where clang can check the guarded members' uses."""
    if path in _memo:
        return _memo[path]
    _memo[path] = False  # include cycles end here
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = bool(LOCKING.search(text))
    for inc in INCLUDE.findall(text):
        header = os.path.join(ROOT, inc)
        if not found and os.path.exists(header):
            found = locks(header)
    _memo[path] = found
    return found


def clang_command(entry, clang):
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out = [clang]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c"):
            skip = a == "-o"
            continue
        # The build's warnings are GCC's business (some are GCC-only): only these count here.
        if a == entry["file"] or a.startswith("-W"):
            continue
        out.append(a)
    return out + ["-fsyntax-only", "-Wthread-safety", "-Werror=thread-safety", entry["file"]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--clang", default="clang++")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    opts = parser.parse_args()
    with open(os.path.join(opts.build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    dirs = tuple(os.path.join(ROOT, d) + os.sep for d in ("libs", "services"))
    chosen = {}
    for e in entries:
        path = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        if path.startswith(dirs) and path not in chosen and locks(path):
            chosen[path] = dict(e, file=path)
    if not chosen:
        print("thread_safety: no sources with a mutex found (is the build configured?)")
        return 1

    def check(entry):
        r = subprocess.run(clang_command(entry, opts.clang), cwd=entry.get("directory", ROOT),
                           capture_output=True, text=True, check=False)
        return entry["file"], r.returncode, r.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        for path, rc, err in pool.map(check, sorted(chosen.values(), key=lambda e: e["file"])):
            rel = os.path.relpath(path, ROOT)
            if rc != 0:
                failed += 1
                what = "" if "-Wthread-safety" in err else " (clang cannot compile it, no lock finding)"
                print(f"FAIL {rel}{what}\n{err}")
            else:
                print(f"ok   {rel}")
    print(f"thread_safety: {len(chosen) - failed} of {len(chosen)} sources pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
