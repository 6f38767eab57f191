// Four-player shogi: 9x9 seen from the viewer's seat (turned a quarter per seat), every
// piece in its owner's colour and turned to its facing; the four hands around the board.
// Cells [data-square="5i"] use the engine's names (seat 0's view).
import { GameKind } from "../gen/tablero/v1/common_pb.js";
import { SEAT_COLOURS, seatSide } from "../game/kinds.js";
import { h } from "../ui/dom.js";
import { cellClasses, cellInput, type BoardState, type BoardEvents, type Renderer } from "./board.js";

/** Screen column/row (0..8, top-left) of board column c / row r (seat 0's view) for a viewer. */
function toScreen(c: number, r: number, view: number): [number, number] {
  switch (view) {
    case 1: return [r, 8 - c]; // sitting west: north on the left
    case 2: return [8 - c, 8 - r];
    case 3: return [8 - r, c]; // sitting east: north on the right
    default: return [c, r];
  }
}

const NAMES: Record<string, string> = { K: "king", R: "rook", G: "gold", S: "silver", P: "pawn", "+R": "dragon", "+S": "promoted silver", "+P": "promoted pawn" };
const pieceName = (type: string, flipped: boolean) => (flipped ? "flipped king" : NAMES[type] ?? type);

const LABEL: Record<string, string> = { K: "K", R: "R", G: "G", S: "S", P: "P", "+R": "D", "+S": "+S", "+P": "T" };

function hand(s: BoardState, ev: BoardEvents, seat: number, where: string) {
  const counts = s.hands.find((x) => x.seat === seat)?.pieces ?? [];
  const mine = seat === s.mySeat;
  return h(
    "div",
    { class: `hand ${where}${s.toMove === seat ? " to-move" : ""}`, "data-testid": "hand", "data-seat": seat, style: `--seat:${SEAT_COLOURS[seat]}` },
    h("span", { class: "hand-seat" }, ["S", "W", "N", "E"][seat]),
    counts.length === 0 ? h("span", { class: "hand-empty" }, "—") : null,
    counts.map((p) =>
      h(
        "button",
        {
          class: `hand-piece${s.selected === `${p.piece}*` && mine ? " selected" : ""}`,
          "data-testid": "hand-piece",
          "data-hand": p.piece,
          disabled: !mine,
          onclick: () => ev.hand?.(p.piece),
        },
        `${p.piece}${p.count > 1 ? "×" + p.count : ""}`,
      ),
    ),
  );
}

export const renderShogi4: Renderer = (s, ev) => {
  const view = s.viewSeat < 0 ? 0 : s.viewSeat;
  const at = new Map(s.pieces.map((p) => [p.square, p]));
  const grid: HTMLElement[] = new Array(81);
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      const name = `${9 - c}${"abcdefghi"[r]}`;
      const [x, y] = toScreen(c, r, view);
      const p = at.get(name);
      const dir = p ? (((p.facing - view) % 4) + 4) % 4 : 0;
      const check = p?.type === "K" && !p.flipped && s.inCheck.includes(p.owner);
      grid[y * 9 + x] = h(
        "div",
        { class: `cell ${cellClasses(s, name)}${check ? " check" : ""}`, "data-square": name, ...cellInput(s, ev, name, p ? `${name}, ${pieceName(p.type, p.flipped)} of ${p.owner >= 0 ? seatSide(GameKind.SHOGI4, p.owner) : "nobody"}` : name) },
        p
          ? h(
              "span",
              {
                class: `spiece${p.type.startsWith("+") ? " promoted" : ""}${p.flipped ? " flipped" : ""}`,
                "data-piece": p.type,
                "data-owner": p.owner,
                "data-facing": p.facing,
                style: `--seat:${p.owner >= 0 ? SEAT_COLOURS[p.owner] : "#888"};transform:rotate(${dir * 90}deg)`,
                title: `${p.type} of seat ${p.owner}, facing seat ${p.facing}'s forward`,
              },
              LABEL[p.type] ?? p.type,
            )
          : null,
      );
    }
  }
  // Hands: the viewer's at the bottom, then clockwise: left, top, right.
  const seatAt = (k: number) => (view + k) % 4;
  return h(
    "div",
    { class: "shogi-wrap", "data-testid": "board" },
    hand(s, ev, seatAt(2), "top"),
    h("div", { class: "shogi-mid" }, hand(s, ev, seatAt(1), "left"), h("div", { class: "board shogi" }, grid), hand(s, ev, seatAt(3), "right")),
    hand(s, ev, seatAt(0), "bottom"),
  );
};
