#!/usr/bin/env python3
"""Scores player A's chess moves in `match_runner --verbose` output with Stockfish.

    score_moves.py GAMES.txt [--depth=11] [--engine=stockfish] > moves.jsonl
    score_moves.py --summary moves.jsonl

For every move of A (the moves the log annotates with {dDEPTH EVAL nNODES}) Stockfish at
full strength searches the position to a fixed depth twice: its own best move, and A's move
alone (`searchmoves`). The difference is what A's move lost, in Stockfish's centipawns from
A's side. One JSON line per move: game, ply, FEN, A's move, Stockfish's best, both scores,
A's depth, evaluation and nodes, and the game's result. --summary prints where the loss
comes from: by the size of the loss, by A's nodes, the turning move of each game not won,
Stockfish's evaluation along the games and A's evaluation against Stockfish's.
"""
import argparse
import collections
import json
import re
import subprocess
import sys


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        for opt in ("Hash value 64", "Threads value 1"):
            self.send("setoption name " + opt)
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, done):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine quit")
            out.append(line.strip())
            if done(out[-1]):
                return out

    def position(self, fen, moves):
        self.send("position fen " + fen + (" moves " + " ".join(moves) if moves else ""))

    def legal_and_fen(self, fen, moves):
        self.position(fen, moves)
        self.send("go perft 1")
        out = self.until(lambda l: l.startswith("Nodes searched"))
        legal = [l.split(":")[0] for l in out if re.match(r"^[a-h][1-8][a-h][1-8][qrbn]?:", l)]
        self.send("d")
        out = self.until(lambda l: l.startswith("Checkers"))
        return legal, next(l[5:] for l in out if l.startswith("Fen: "))

    def score(self, fen, moves, depth, only=None):
        self.position(fen, moves)
        self.send("go depth %d" % depth + (" searchmoves " + only if only else ""))
        out = self.until(lambda l: l.startswith("bestmove"))
        score = None
        for line in out:
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (10000 if v > 0 else -10000)
        return score, out[-1].split()[1]


def board(fen):
    squares = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return squares


def san_to_uci(san, legal, fen):
    """The legal UCI move the SAN text names (the log's moves are SAN)."""
    san = san.rstrip("+#!?")
    squares = board(fen)
    if san.startswith("O-O"):
        to_file = "c" if san == "O-O-O" else "g"
        for m in legal:
            if squares.get(m[:2], "").upper() == "K" and m[0] == "e" and m[2] == to_file:
                return m
    promo = ""
    if "=" in san:
        san, promo = san.split("=")
        promo = promo.lower()
    piece = san[0] if san[0] in "NBRQK" else "P"
    body = (san[1:] if piece != "P" else san).replace("x", "")
    dest, hint = body[-2:], body[:-2]
    found = [m for m in legal
             if squares.get(m[:2], "").upper() == piece and m[2:4] == dest and m[4:] == promo
             and all(c in m[:2] for c in hint)]
    if len(found) != 1:
        sys.exit("cannot read %s in %s (%s)" % (san, fen, found))
    return found[0]


def score_games(path, engine, depth):
    line_re = re.compile(r"game (\d+) seat (\d+) score ([\d.]+): \[([^\]]+)\] (.*)")
    for line in open(path):
        m = line_re.match(line)
        if not m:
            continue
        game, result, fen, rest = int(m[1]), float(m[3]), m[4], m[5]
        moves, info = [], None
        for tok in re.findall(r"\{[^}]*\}|\S+", rest):
            if tok.startswith("{"):
                info = tok if tok.startswith("{d") else None
                continue
            legal, now = engine.legal_and_fen(fen, moves)
            uci = san_to_uci(tok, legal, now)
            if info:
                best_score, best = engine.score(fen, moves, depth)
                mine, _ = engine.score(fen, moves, depth, uci)
                d, ev, n = re.match(r"\{d(\d+) (-?\d+) n(\d+)\}", info).groups()
                print(json.dumps(dict(game=game, ply=len(moves), fen=now, move=uci, san=tok,
                                      best=best, best_score=best_score, score=mine,
                                      depth=int(d), eval=int(ev), nodes=int(n), result=result)),
                      flush=True)
            info = None
            moves.append(uci)


def phase(fen):
    return sum({"n": 1, "b": 1, "r": 2, "q": 4}.get(c.lower(), 0) for c in fen.split()[0])


def summary(path):
    rows = [json.loads(l) for l in open(path)]
    clip = lambda v: max(-1000, min(1000, v))
    for r in rows:
        r["loss"] = max(0, clip(r["best_score"]) - clip(r["score"]))
    games = sorted({r["game"] for r in rows})
    print("%d moves of A in %d games; A's move is Stockfish's best in %.1f%%" %
          (len(rows), len(games), 100 * sum(r["move"] == r["best"] for r in rows) / len(rows)))
    open_rows = [r for r in rows if abs(r["best_score"]) < 400]  # not yet decided
    total = sum(r["loss"] for r in open_rows) or 1
    print("loss per move, positions not yet decided (|eval| < 400):")
    for lo, hi in ((0, 50), (50, 150), (150, 100000)):
        part = [r["loss"] for r in open_rows if lo <= r["loss"] < hi]
        print("  %4d-%-6d %5d moves, %3.0f%% of the loss" % (lo, hi, len(part),
                                                            100 * sum(part) / total))
    print("by A's nodes: moves, mean loss, share losing >= 100 cp")
    buckets = ((0, 8000), (8000, 16000), (16000, 32000), (32000, 10**12))
    for lo, hi in buckets:
        part = [r["loss"] for r in open_rows if lo <= r["nodes"] < hi]
        if part:
            print("  %6d-%-6s %5d %6.1f %5.1f%%" % (lo, hi if hi < 10**12 else "", len(part),
                                                   sum(part) / len(part),
                                                   100 * sum(x >= 100 for x in part) / len(part)))
    print("Stockfish's evaluation (A's side) before A's n-th move, mean over the games:")
    by_move = collections.defaultdict(list)
    for g in games:
        for i, r in enumerate(sorted((r for r in rows if r["game"] == g), key=lambda r: r["ply"])):
            by_move[i].append(clip(r["best_score"]))
    for i in (0, 5, 10, 15, 20, 25, 30, 40):
        if by_move[i]:
            print("  move %2d: %5.0f (%d games)" % (i + 1, sum(by_move[i]) / len(by_move[i]),
                                                   len(by_move[i])))
    mid = [r for r in open_rows if phase(r["fen"]) >= 10 and abs(r["eval"]) < 1000]
    if mid:
        print("middlegame (phase >= 10): A's eval minus Stockfish's, mean %.0f, mean |.| %.0f" %
              (sum(r["eval"] - r["best_score"] for r in mid) / len(mid),
               sum(abs(r["eval"] - r["best_score"]) for r in mid) / len(mid)))
    turning = []
    for g in games:
        gr = sorted((r for r in rows if r["game"] == g), key=lambda r: r["ply"])
        if gr[0]["result"] < 1:
            t = [r for r in gr if r["best_score"] > -150 and r["score"] <= -150]
            if t:
                turning.append(t[0])
    print("turning move of the games not won (first from > -150 to <= -150): %d" % len(turning))
    for r in turning:
        print("  game %d ply %d %s (best %s) %d -> %d, A depth %d eval %d nodes %d  %s" %
              (r["game"], r["ply"], r["san"], r["best"], r["best_score"], r["score"],
               r["depth"], r["eval"], r["nodes"], r["fen"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--engine", default="stockfish")
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args()
    if args.summary:
        summary(args.path)
    else:
        score_games(args.path, Engine(args.engine), args.depth)


if __name__ == "__main__":
    main()
