// A move list and its rows (live game and replay). Chess is numbered by moves, two plies to
// a row as players write it ("1. e4 e5"); the other games number every turn.
import { h } from "../ui/dom.js";
import { SEAT_COLOURS, type KindName } from "./kinds.js";

/** The move list of `rows` (moveRow's), or before the first move a quiet "No moves yet",
 * not an empty list's thin white box. */
export function moveList(kind: KindName, rows: HTMLElement[]): HTMLElement {
  return rows.length
    ? h("ol", { class: kind === "chess" ? "moves pairs" : "moves", "data-testid": "move-list" }, rows)
    : h("p", { class: "no-moves", "data-testid": "no-moves" }, "No moves yet");
}

/** The row of ply `i` (0-based) played by `seat`; `attrs` for the row (class, click). */
export function moveRow(kind: KindName, i: number, seat: number, text: string, byCpu: boolean, attrs: Record<string, string | EventListener> = {}) {
  const num = kind !== "chess" ? `${i + 1}.` : i % 2 === 0 ? `${i / 2 + 1}.` : "";
  return h("li", { ...attrs, style: `--seat:${SEAT_COLOURS[seat]}` },
    h("span", { class: "num" }, num),
    h("span", { "data-testid": "move", "data-seat": seat }, text),
    byCpu ? h("small", {}, " cpu") : null);
}
