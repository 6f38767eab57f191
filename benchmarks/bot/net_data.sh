#!/usr/bin/env bash
# Trains the chess network (train_net) on positions labelled by Stockfish. Usage:
#   benchmarks/bot/net_data.sh <build bin dir> <work dir> [train_net flags]
# Writes <work dir>/static-SEED.txt (net-SEED.txt with PLAY_NET=1) per seed (each kept if
# present: delete it to generate again; far too big for git), one generator per core at
# once, then trains on all of them and writes <work dir>/net.bin, which match_runner plays
# with --a_net=<work dir>/net.bin.
# To ship a network, pass --inc=libs/bot/chess_net.inc.
# Environment: STOCKFISH (default: stockfish on PATH, else /usr/games/stockfish), SEEDS
# (default "1 2"; 2000 games each, about 80,000 positions, 1.5-3 minutes a seed on a free
# core), NODES (the bot's nodes a move in the games, default 2000), PLAY_NET (1: the bot
# plays its games with the shipped network, written to net-SEED.txt, instead of the weights
# table), EXTRA (more files of FEN;score lines to train on, comma-separated, e.g.
# tune_data.sh's or another run's), HOLDOUT (a file of FEN;score lines held out of
# training, e.g. from tune_data.sh: other games, deeper labels).
#
# Positions: games the bot plays itself (tune_eval --static_nodes), labelled with
# Stockfish's static evaluation (its network, no search): some fifty times the games
# tune_data.sh's depth-8 labels give for the time, and a network needs games more than it
# needs deep labels (the positions of one game are alike).
set -euo pipefail

bin_dir=${1:?usage: $0 <build bin dir> <work dir> [train_net flags]}
work=${2:?usage: $0 <build bin dir> <work dir> [train_net flags]}
shift 2
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
[[ -x "$bin_dir/tune_eval" && -x "$bin_dir/train_net" ]] ||
  { echo "no tune_eval or train_net in $bin_dir" >&2; exit 2; }
[[ -x "$sf" ]] || { echo "no Stockfish at $sf (set STOCKFISH)" >&2; exit 2; }
mkdir -p "$work"
cores=$(nproc)
files=()
pids=()
play=()
prefix=static
[[ "${PLAY_NET:-0}" == 1 ]] && play=(--play_net) && prefix=net
for seed in ${SEEDS:-1 2}; do
  f="$work/$prefix-$seed.txt"
  files+=("$f")
  [[ -s "$f" ]] && continue
  while (( ${#pids[@]} >= cores )); do
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  done
  ( "$bin_dir/tune_eval" --generate --uci="$sf" --games=2000 --static_nodes="${NODES:-2000}" \
      --seed="$seed" "${play[@]}" > "$f.tmp" 2>/dev/null && mv "$f.tmp" "$f" ) &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
data=$(IFS=,; echo "${files[*]}")${EXTRA:+,$EXTRA}
holdout=()
[[ -n "${HOLDOUT:-}" ]] && holdout=(--holdout_data="$HOLDOUT")
"$bin_dir/train_net" --data="$data" "${holdout[@]}" --threads="$cores" --out="$work/net.bin" "$@"
