// Replay of a game (finished or running): who played which side and the result, the
// position after any move from the game's record (GetGameMoves), stepping with buttons,
// the arrow keys or the move list; PGN for chess.
import { matchmaking, describeError } from "../api/client.js";
import { GameKind } from "../gen/tablero/v1/common_pb.js";
import { loadIdentity } from "../api/identity.js";
import { resultText, seatLabel } from "../game/describe.js";
import { kindInfo } from "../game/kinds.js";
import { moveList, moveRow } from "../game/movelist.js";
import { RENDERERS } from "../game/screen.js";
import { positionOf } from "../notation/positions.js";
import { fill, h, showMessage } from "../ui/dom.js";

export async function replayPage(root: HTMLElement, gameId: string): Promise<() => void> {
  const r = await matchmaking.getGameMoves({ gameId });
  const kind = kindInfo(r.kind).name;
  let at = r.moves.length;
  const boardSlot = h("div", { class: "replay-board" });
  const label = h("div", { "data-testid": "replay-ply", class: "status" });
  const list = h("div", {});

  const draw = () => {
    const text = at === 0 ? r.initialPosition : r.moves[at - 1].position;
    const pos = positionOf(kind, text);
    const last = at === 0 ? [] : r.moves[at - 1].move?.path ?? [];
    boardSlot.replaceChildren(RENDERERS[kind]({
      pieces: pos.pieces, hands: pos.hands, seatCount: r.seats.length, viewSeat: 0, mySeat: -1,
      selected: null, targets: new Set(), path: [], lastMove: last, inCheck: [], toMove: -1,
    }, { cell: () => {} }));
    label.textContent = `Move ${at} of ${r.moves.length}`;
    // A new list each step, scrolled as the one before (a long game's list scrolls).
    const top = list.firstElementChild?.scrollTop ?? 0;
    list.replaceChildren(moveList(kind, r.moves.map((m, i) =>
      moveRow(kind, i, m.seat, m.move?.display ?? "", false, { class: i + 1 === at ? "current" : "", onclick: () => { at = i + 1; draw(); } }))));
    list.firstElementChild!.scrollTop = top;
  };
  const step = (d: number) => {
    at = Math.max(0, Math.min(r.moves.length, at + d));
    draw();
  };
  const keys = (e: KeyboardEvent) => {
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === "ArrowRight") step(1);
  };
  document.addEventListener("keydown", keys);

  const pgn = async () => {
    try {
      const p = await matchmaking.exportPgn({ gameId });
      const a = h("a", { href: URL.createObjectURL(new Blob([p.pgn], { type: "application/x-chess-pgn" })), download: `${gameId}.pgn` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      showMessage(describeError(e));
    }
  };

  // Who played which side, and how the game ended as the game page says it (for a player
  // of this browser, "You lost (resignation)").
  const mySeat = r.seats.findIndex((s) => s.playerId === loadIdentity()?.playerId);
  fill(root,
    h("h2", {}, `Replay: ${kindInfo(r.kind).label}`),
    h("p", { "data-testid": "replay-players" }, r.seats.map((_, i) => seatLabel(r, i)).join(" · ")),
    r.result?.over ? h("p", { class: "result", "data-testid": "result" }, resultText(r, mySeat)) : null,
    h("div", { class: "play" },
      boardSlot,
      h("aside", { class: "side" },
        label,
        h("div", { class: "buttons" },
          h("button", { "data-testid": "replay-first", "aria-label": "First position", title: "First position", onclick: () => step(-1e6) }, "|◀"),
          h("button", { "data-testid": "replay-prev", "aria-label": "Previous move", title: "Previous move", onclick: () => step(-1) }, "◀"),
          h("button", { "data-testid": "replay-next", "aria-label": "Next move", title: "Next move", onclick: () => step(1) }, "▶"),
          h("button", { "data-testid": "replay-last", "aria-label": "Last move", title: "Last move", onclick: () => step(1e6) }, "▶|"),
          r.kind === GameKind.CHESS ? h("button", { "data-testid": "pgn-download", onclick: pgn }, "PGN") : null),
        list)),
  );
  draw();
  return () => document.removeEventListener("keydown", keys);
}
