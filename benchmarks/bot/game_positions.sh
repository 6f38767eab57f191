#!/usr/bin/env bash
# Four-player shogi positions from games the bot played, for search_bench --moves_file and
# search_speed.sh's shogi4_games row. Usage:
#   benchmarks/bot/game_positions.sh <build bin dir> > benchmarks/bot/shogi4_game_positions.txt
# Plays GAMES (default 8) seeded games of level 10 against three level-3 bots at 100 ms a
# move (match_runner, seed 1: the same games on every machine) and prints the position
# after every tenth ply of each game still running: its opening position's text, " | ",
# then the moves played from it.
set -euo pipefail
bin_dir=${1:?usage: $0 <build bin dir>}
"$bin_dir/match_runner" --game=shogi4 --a=10 --b=3 --games="${GAMES:-8}" --seeded \
  --movetime_ms=100 --seed=1 --verbose 2>&1 |
  awk '/^game / {
    # game N seat S score X: [START] {think} move {think} move ... {end}
    line = $0
    sub(/^[^[]*\[/, "", line)
    start = substr(line, 1, index(line, "]") - 1)
    line = substr(line, index(line, "]") + 1)
    gsub(/\{[^}]*\}/, "", line)
    n = split(line, moves, " ")
    for (p = 10; p < n; p += 10) {
      text = start " |"
      for (i = 1; i <= p; ++i) text = text " " moves[i]
      print text
    }
  }'
