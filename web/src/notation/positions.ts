// Pieces from each game's position text (as GetGameMoves gives for replay); the live game
// uses PublicView.pieces, which has the same shape.
export interface Piece {
  square: string;
  type: string;
  owner: number;
  facing: number;
  flipped: boolean;
}

export interface HandCounts {
  seat: number;
  pieces: { piece: string; count: number }[];
}

export interface Position {
  pieces: Piece[];
  hands: HandCounts[];
}

/** Chess FEN board field. */
export function chessPieces(fen: string): Piece[] {
  const out: Piece[] = [];
  const ranks = fen.split(" ")[0].split("/");
  ranks.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        const sq = "abcdefgh"[file] + String(8 - i);
        out.push({ square: sq, type: ch.toUpperCase(), owner: ch === ch.toUpperCase() ? 0 : 1, facing: 0, flipped: false });
        file++;
      }
    }
  });
  return out;
}

const FACING: Record<string, number> = { n: 0, e: 1, s: 2, w: 3 };

/** Four-player shogi position text: board, to-move, hands. */
export function shogiPosition(text: string): Position {
  const [board, , hands = "-/-/-/-"] = text.split(" ");
  const pieces: Piece[] = [];
  board.split("/").forEach((row, r) => {
    let file = 9;
    const re = /(\d)|(\+?)([KRGSPk])([0-3x])([nesw])/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(row))) {
      if (m[1]) {
        file -= Number(m[1]);
        continue;
      }
      const flipped = m[3] === "k";
      pieces.push({
        square: `${file}${"abcdefghi"[r]}`,
        type: (m[2] ? "+" : "") + m[3].toUpperCase(),
        owner: m[4] === "x" ? -1 : Number(m[4]),
        facing: FACING[m[5]],
        flipped,
      });
      file--;
    }
  });
  const handList = hands.split("/").map((h, seat) => {
    const ps: { piece: string; count: number }[] = [];
    if (h !== "-") for (const m of h.matchAll(/(\d*)([RGSP])/g)) ps.push({ piece: m[2], count: Number(m[1] || 1) });
    return { seat, pieces: ps };
  });
  return { pieces, hands: handList };
}

/** Chinese Checkers position text: each seat's holes ("K" marks a Japanese king). */
export function checkersPieces(text: string): Piece[] {
  const seats = text.split(" ")[0].split("/");
  const out: Piece[] = [];
  seats.forEach((list, owner) => {
    for (const s of list.split(",")) {
      if (!s) continue;
      const king = s.startsWith("K");
      out.push({ square: king ? s.slice(1) : s, type: king ? "K" : "o", owner, facing: 0, flipped: false });
    }
  });
  return out;
}

export function positionOf(kind: "chess" | "shogi4" | "checkers", text: string): Position {
  if (kind === "chess") return { pieces: chessPieces(text), hands: [] };
  if (kind === "shogi4") return shogiPosition(text);
  return { pieces: checkersPieces(text), hands: [] };
}
