// Texts for a game's status line and result.
import { GameKind } from "../gen/tablero/v1/common_pb.js";
import type { Game } from "../gen/tablero/v1/matchmaking_pb.js";
import { seatSide } from "./kinds.js";

/** What the texts read of a game (a Game, or a GameSummary of "your games"). */
type Played = Pick<Game, "kind" | "seats" | "result">;

export function seatLabel(g: Played, seat: number): string {
  const s = g.seats[seat];
  return `${s?.displayName ?? "?"} (${seatSide(g.kind, seat)})`;
}

export function resultText(g: Played, mySeat: number): string {
  const r = g.result;
  if (!r?.over) return "";
  const reason = r.reason.replace(/_/g, " ");
  const places = r.places;
  if (g.kind === GameKind.CHESS || places.length === 2) {
    if (places[0] === places[1]) return `Draw (${reason})`;
    const winner = places.indexOf(1);
    const who = mySeat === winner ? "You won" : mySeat >= 0 ? "You lost" : `${seatLabel(g, winner)} won`;
    return `${who} (${reason})`;
  }
  const order = places.map((p, seat) => ({ p, seat })).sort((a, b) => a.p - b.p);
  const mine = mySeat >= 0 ? `You placed ${places[mySeat]}. ` : "";
  return `${mine}Places: ${order.map((x) => `${x.p}. ${seatLabel(g, x.seat)}`).join(", ")} (${reason})`;
}

export function statusText(g: Game, mySeat: number, cpuToPlay: boolean): string {
  // How it ended is the result line's, below: said once, not here again.
  if (g.result?.over) return "Game over";
  if (g.toMove < 0) return "Waiting";
  const who = g.toMove === mySeat ? "Your turn" : `${seatLabel(g, g.toMove)} to move`;
  const cpu = cpuToPlay || g.seats[g.toMove]?.isCpu || g.seats[g.toMove]?.controlledByCpuNow ? " (CPU thinking)" : "";
  const check = g.view?.inCheck.includes(g.toMove) ? " (check)" : "";
  return `${who}${check}${g.toMove === mySeat ? "" : cpu}`;
}
