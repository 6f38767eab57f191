// Chess: 8x8, White at the bottom unless the viewer plays Black. Cells [data-square="e2"].
import { h } from "../ui/dom.js";
import { cellClasses, cellInput, type Renderer } from "./board.js";

const NAME: Record<string, string> = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };
const GLYPH: Record<string, string> = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" };

export const renderChess: Renderer = (s, ev) => {
  const flip = s.viewSeat === 1;
  const at = new Map(s.pieces.map((p) => [p.square, p]));
  const cells: HTMLElement[] = [];
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const file = flip ? 7 - f : f;
      const rank = flip ? r + 1 : 8 - r;
      const name = "abcdefgh"[file] + rank;
      const p = at.get(name);
      const king = p?.type === "K" && s.inCheck.includes(p.owner);
      cells.push(
        h(
          "div",
          {
            class: `cell ${(file + rank) % 2 === 1 ? "dark" : "light"} ${cellClasses(s, name)}${king ? " check" : ""}`,
            "data-square": name,
            ...cellInput(s, ev, name, p ? `${name}, ${p.owner === 0 ? "white" : "black"} ${NAME[p.type] ?? p.type}` : name),
          },
          p ? h("span", { class: `piece ${p.owner === 0 ? "white" : "black"}`, "data-piece": (p.owner === 0 ? "w" : "b") + p.type }, GLYPH[p.type] ?? p.type) : null,
          f === 0 ? h("span", { class: "coord rank" }, rank) : null,
          r === 7 ? h("span", { class: "coord file" }, "abcdefgh"[file]) : null,
        ),
      );
    }
  }
  return h("div", { class: "board chess", "data-testid": "board" }, cells);
};
