// Chinese Checkers: the 121-hole star turned so the viewer's point is at the bottom,
// pieces in their seat's colour. Holes [data-hole="i5"].
import { GameKind } from "../gen/tablero/v1/common_pb.js";
import { SEAT_COLOURS, seatSide } from "../game/kinds.js";
import { h } from "../ui/dom.js";
import { cellClasses, cellInput, type Renderer } from "./board.js";
import { HOLES, pointOfSeat } from "./star.js";

const SCALE = 50 / 7.6; // percent of the board per hole spacing

export const renderCheckers: Renderer = (s, ev) => {
  const view = s.viewSeat < 0 ? 0 : s.viewSeat;
  const turn = (pointOfSeat(view, s.seatCount) * Math.PI) / 3;
  const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
  const at = new Map(s.pieces.map((p) => [p.square, p]));
  const holes = HOLES.map((hole) => {
    // Turn counter-clockwise by 60 degrees per point, so the viewer's point comes south.
    const x = hole.x * cos - hole.y * sin;
    const y = hole.x * sin + hole.y * cos;
    const p = at.get(hole.name);
    return h(
      "div",
      {
        class: `hole ${cellClasses(s, hole.name)}`,
        "data-hole": hole.name,
        title: hole.name,
        style: `left:${50 + x * SCALE}%;top:${50 - y * SCALE}%`,
        ...cellInput(s, ev, hole.name, p ? `${hole.name}, ${seatSide(GameKind.CHECKERS, p.owner).toLowerCase()} marble${p.type === "K" ? " (king)" : ""}` : hole.name),
      },
      p ? h("span", { class: `marble${p.type === "K" ? " king" : ""}`, "data-owner": p.owner, style: `--seat:${SEAT_COLOURS[p.owner] ?? "#888"}` }) : null,
    );
  });
  return h("div", { class: "board star", "data-testid": "board" }, holes);
};
