"""Summary of rules_ab.sh's runs, per side (A, B): median ratios, calls/s, CPU/call, p99."""
import collections
import re
import statistics
import sys

PHASE = re.compile(r"(ping \(baseline\)|apply_move mixed) #\d+\s+(\d+) calls/s.*p99\s+([\d.]+) ms"
                   r".*client\s+([\d.]+) us server\s+([\d.]+)")
MEDIAN = re.compile(r"median of \d+ rounds: ratio ([\d.]+)%.*apply p99 median ([\d.]+) ms")


def main(path):
    side = None
    phases = collections.defaultdict(lambda: collections.defaultdict(list))
    medians = collections.defaultdict(list)
    for line in open(path):
        if line.startswith("=="):
            side = line.split()[1]
        elif m := PHASE.match(line):
            kind = "ping" if m.group(1).startswith("ping") else "apply"
            phases[side][kind].append(tuple(float(x) for x in m.groups()[1:]))
        elif m := MEDIAN.match(line):
            medians[side].append((float(m.group(1)), float(m.group(2))))
    for s in sorted(phases):
        ratios = ", ".join(f"{r:.1f}%" for r, _ in medians[s])
        p99s = ", ".join(f"{p:.2f}" for _, p in medians[s])
        print(f"{s}: median ratio per run {ratios}; apply p99 median per run {p99s} ms")
        for kind in ("ping", "apply"):
            rows = phases[s][kind]
            if not rows:
                continue
            mean = lambda i: statistics.mean(r[i] for r in rows)
            print(f"  {kind:5} {len(rows):2} phases: {mean(0):8.0f} calls/s, p99 median "
                  f"{statistics.median(r[1] for r in rows):.2f} ms, cpu/call client {mean(2):.1f}"
                  f" + server {mean(3):.1f} = {mean(2) + mean(3):.1f} us")


if __name__ == "__main__":
    main(sys.argv[1])
