// Turning clicks into move text: select a piece (or a shogi hand piece), then a target.
// With legal moves allowed, targets come from ListLegalMoves and decide promotions and
// when a Chinese Checkers jump chain is complete; without, the player's clicks decide.
import type { Move } from "../gen/tablero/v1/common_pb.js";
import { adjacent } from "../boards/star.js";
import type { KindName } from "./kinds.js";

export interface PickerState {
  selected: string | null;
  path: string[]; // checkers: holes entered so far, from first
  legal: Move[] | null; // null: not known (room turned highlights off)
}

export type Outcome =
  | { kind: "none" }
  | { kind: "select"; from: string } // caller loads legal moves for it
  | { kind: "wait" } // chain continues; a submit button finishes it
  | { kind: "move"; text: string }
  | { kind: "choose"; options: { label: string; text: string }[] }; // promotion

export function emptyPicker(): PickerState {
  return { selected: null, path: [], legal: null };
}

/** Squares to highlight: next steps of the legal moves from the selection. */
export function targetsOf(p: PickerState, kind: KindName): Set<string> {
  const t = new Set<string>();
  if (!p.legal || !p.selected) return t;
  for (const m of p.legal) {
    if (kind === "checkers") {
      const path = m.path;
      if (p.path.every((x, i) => path[i] === x) && path.length > p.path.length) {
        t.add(path[p.path.length]);
        if (p.path.length === 1) t.add(path[path.length - 1]);
      }
    } else t.add(m.path[m.path.length - 1]);
  }
  return t;
}

function promotionRank(to: string, piece: string, owner: number): boolean {
  return piece === "P" && ((owner === 0 && to.endsWith("8")) || (owner === 1 && to.endsWith("1")));
}

/**
 * A click on `cell`. `ownPiece` tells whether the cell holds a piece of the player's;
 * `selectedPiece` describes the selected piece (promotions without legal info).
 */
export function click(
  p: PickerState,
  kind: KindName,
  cell: string,
  ownPiece: boolean,
  selectedPiece: { type: string; owner: number; facing: number } | null,
): Outcome {
  if (!p.selected || (ownPiece && p.path.length <= 1)) {
    if (!ownPiece) return { kind: "none" };
    if (p.selected === cell) return { kind: "none" }; // caller clears
    return { kind: "select", from: cell };
  }
  const from = p.selected;
  if (kind === "checkers") return checkersClick(p, cell);
  const drop = from.endsWith("*");
  const base = drop ? `${from}${cell}` : `${from}${cell}`;
  if (p.legal) {
    const hits = p.legal.filter((m) => m.path[m.path.length - 1] === cell);
    if (hits.length === 0) return { kind: "move", text: base }; // let the server say why
    if (hits.length === 1) return { kind: "move", text: hits[0].notation };
    return {
      kind: "choose",
      options: hits.map((m) => ({ label: promotionLabel(kind, m.promotion), text: m.notation })),
    };
  }
  if (kind === "chess" && selectedPiece && promotionRank(cell, selectedPiece.type, selectedPiece.owner)) {
    return { kind: "choose", options: ["q", "r", "b", "n"].map((x) => ({ label: promotionLabel(kind, x), text: base + x })) };
  }
  // Shogi without legal moves: a rook, silver or pawn entering, inside or leaving its zone
  // may promote, so the player is asked (a pawn reaching its last rank must).
  if (kind === "shogi4" && !drop && selectedPiece && "RSP".includes(selectedPiece.type) && (inZone(from, selectedPiece.facing) || inZone(cell, selectedPiece.facing))) {
    if (selectedPiece.type === "P" && inZone(cell, selectedPiece.facing, 1)) return { kind: "move", text: `${base}+` };
    return { kind: "choose", options: ["+", ""].map((x) => ({ label: promotionLabel(kind, x), text: base + x })) };
  }
  return { kind: "move", text: base };
}

/** Is a shogi square (file 1-9 east to west, rank a-i north to south) among the `depth`
 * farthest ranks for a piece facing 0 north, 1 east, 2 south, 3 west? */
function inZone(square: string, facing: number, depth = 3): boolean {
  const file = Number(square[0]);
  const rank = "abcdefghi".indexOf(square[1]) + 1;
  const far = [rank, file, 10 - rank, 10 - file][facing] ?? 99;
  return far <= depth;
}

/** The question the promotion choices answer, shown above them and naming their group. */
export function promotionQuestion(kind: KindName): string {
  return kind === "chess" ? "Promote to" : "Promote?";
}

function promotionLabel(kind: KindName, promo: string): string {
  if (kind === "chess") return { q: "Queen", r: "Rook", b: "Bishop", n: "Knight" }[promo] ?? "No promotion";
  return promo === "+" ? "Promote" : "Do not promote";
}

function checkersClick(p: PickerState, cell: string): Outcome {
  const last = p.path[p.path.length - 1];
  if (cell === last && p.path.length >= 2) return { kind: "move", text: p.path.join("-") }; // clicked again: done
  const path = [...p.path, cell];
  if (p.legal) {
    const exact = p.legal.some((m) => m.path.join("-") === path.join("-") || (path.length === 2 && m.path[m.path.length - 1] === cell));
    const longer = p.legal.some((m) => m.path.length > path.length && path.every((x, i) => m.path[i] === x));
    if (exact && !longer) return { kind: "move", text: path.join("-") };
    p.path = path;
    return { kind: "wait" };
  }
  if (path.length === 2 && adjacent(path[0], cell)) return { kind: "move", text: path.join("-") };
  p.path = path;
  return { kind: "wait" };
}
