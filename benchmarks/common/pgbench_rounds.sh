# Shared by the benchmarks that compare a service with PostgreSQL's own simple-update rate
# on the same server (source it; needs PGBIN).
#   pgbench_round URL CLIENTS SECONDS LOG   runs `pgbench -N`, prints its tps line, and
#                                           leaves the tps in $PGBENCH_TPS
#   pgbench_summary ROUNDS_FILE NAME UNIT   prints each round's ratio, the ratio of the best
#                                           rates and the median ratio ("tps rate" lines)
pgbench_round() {
  echo "== pgbench -N (simple update), $2 clients, ${3}s"
  "$PGBIN/pgbench" -N -c "$2" -j 2 -T "$3" "$1" >"$4" 2>&1
  grep -E "^(tps|latency average)" "$4"
  PGBENCH_TPS=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$4" | tail -n 1)
}

pgbench_summary() {
  python3 - "$@" <<'PY'
import statistics, sys
path, name, unit = sys.argv[1:4]
rounds = [tuple(map(float, l.split())) for l in open(path) if l.strip()]
for i, (pg, rate) in enumerate(rounds, 1):
    print(f"round {i}: pgbench -N {pg:8.1f} tps   {name} {rate:8.1f} {unit}   ratio {100 * rate / pg:5.1f}%")
best_pg = max(pg for pg, _ in rounds)
best_rate = max(rate for _, rate in rounds)
print(f"pgbench simple-update tps (best): {best_pg:.1f}")
print(f"{name} {unit} (best): {best_rate:.1f}")
print(f"ratio of best rates: {100 * best_rate / best_pg:.1f}% of pgbench -N")
print(f"median ratio of rounds: {100 * statistics.median(r / p for p, r in rounds):.1f}%")
PY
}
