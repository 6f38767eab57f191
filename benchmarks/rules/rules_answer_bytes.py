#!/usr/bin/env python3
"""Where the bytes of recorded ApplyMove traffic go, per game kind.

Reads a traffic file of `rules_load --save_traffic=F` (benchmarks/rules/traffic_file.h: per
kind its name, its pair count as text, then each request and its recorded answer, every
string a 4-byte native-endian length, read here as little-endian, and its bytes). Prints
the mean request and answer size and the mean bytes of each field of the answer, of its
view (tablero.v1.PublicView) and of the view's pieces (PieceView), tag and length
included. Field numbers are those of proto/tablero/v1/{rules,common}.proto; the wire
format is read here, without generated code.

  SECONDS_EACH=0.1 benchmarks/rules/rules_load.sh build --phases=none --handler_cost=false \\
      --save_traffic=traffic.bin
  benchmarks/rules/rules_answer_bytes.py traffic.bin
"""
import collections
import struct
import sys

ANSWER = {1: "state", 2: "view", 3: "events", 4: "result", 5: "move"}
VIEW = {1: "pieces", 2: "hands", 3: "to_move", 4: "in_check", 5: "active",
        6: "last_move", 7: "position", 8: "ply", 9: "draw_offer_by"}
PIECE = {1: "square", 2: "type", 3: "owner", 4: "facing", 5: "flipped"}


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def fields(b):
    """(field number, body or None, bytes taken with tag and length) of a message."""
    i = 0
    while i < len(b):
        start = i
        tag, i = varint(b, i)
        if tag & 7 == 0:
            _, i = varint(b, i)
            yield tag >> 3, None, i - start
        elif tag & 7 == 2:
            n, j = varint(b, i)
            i = j + n
            yield tag >> 3, b[j:i], i - start
        else:
            raise ValueError(f"wire type {tag & 7} is not used by these messages")


def read_string(f):
    head = f.read(4)
    if len(head) < 4:
        return None
    return f.read(struct.unpack("<I", head)[0])


def main(path):
    with open(path, "rb") as f:
        while (name := read_string(f)) is not None:
            count = int(read_string(f))
            req = ans = 0
            by = {"answer": collections.Counter(), "view": collections.Counter(),
                  "piece": collections.Counter()}
            for _ in range(count):
                request, answer = read_string(f), read_string(f)
                req += len(request)
                ans += len(answer)
                for num, body, size in fields(answer):
                    by["answer"][ANSWER.get(num, num)] += size
                    if num != 2:
                        continue
                    for vnum, vbody, vsize in fields(body):
                        by["view"][VIEW.get(vnum, vnum)] += vsize
                        if vnum == 1:
                            for pnum, _, psize in fields(vbody):
                                by["piece"][PIECE.get(pnum, pnum)] += psize
            print(f"{name.decode()}: {count} pairs, request {req / count:.0f} B, "
                  f"answer {ans / count:.0f} B")
            for what, counter in by.items():
                parts = ", ".join(f"{k} {v / count:.0f}" for k, v in counter.most_common())
                print(f"  {what:7s} {parts}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
