#!/usr/bin/env bash
# Tunes the chess evaluation's weights (tune_eval) on positions labelled by Stockfish. Usage:
#   benchmarks/bot/tune_data.sh <build bin dir> <work dir> [tune_eval flags for the tuning]
# Writes <work dir>/positions-SEED.txt per seed, then positions.txt, all of them in the
# order given (each kept if present: delete it to generate again; they are far too big for
# git), and <work dir>/params.txt, the tuned table, which match_runner plays with
# --a_eval=<work dir>/params.txt. To ship a table, pass --inc=libs/bot/chess_eval_tuned.inc.
# Environment: STOCKFISH (default: stockfish on PATH, else /usr/games/stockfish), GAMES
# (default 800 a seed; about 55 positions each), DEPTH (Stockfish's depth per label,
# default 8), SEEDS (default 1; e.g. "1 2 3 4 5 6", one data set after another).
#
# Labels: Stockfish's own evaluation of each position at DEPTH (full strength, NNUE), turned
# into an expected score. Far less noisy per position than a game's result, so tens of
# thousands of positions suffice where game results need millions; the positions come from
# Stockfish's own games from random openings, a tenth of the moves random.
set -euo pipefail

bin_dir=${1:?usage: $0 <build bin dir> <work dir> [tune_eval flags]}
work=${2:?usage: $0 <build bin dir> <work dir> [tune_eval flags]}
shift 2
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
[[ -x "$bin_dir/tune_eval" ]] || { echo "no tune_eval in $bin_dir" >&2; exit 2; }
[[ -x "$sf" ]] || { echo "no Stockfish at $sf (set STOCKFISH)" >&2; exit 2; }
mkdir -p "$work"
if [[ ! -s "$work/positions.txt" ]]; then
  files=()
  for seed in ${SEEDS:-1}; do
    f="$work/positions-$seed.txt"
    files+=("$f")
    [[ -s "$f" ]] && continue
    "$bin_dir/tune_eval" --generate --uci="$sf" --games="${GAMES:-800}" --depth="${DEPTH:-8}" \
      --seed="$seed" > "$work/positions.tmp"
    mv "$work/positions.tmp" "$f"
  done
  cat "${files[@]}" > "$work/positions.txt"
fi
"$bin_dir/tune_eval" --data="$work/positions.txt" --out="$work/params.txt" "$@"
