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

/** How a game of two seats ended, or its places ("You placed 2. Places: 1. ..."). */
export function resultText(g: Played, mySeat: number): string {
  const r = g.result;
  if (!r?.over) return "";
  const reason = reasonText(r.reason);
  const places = r.places;
  if (twoSided(g)) {
    if (places[0] === places[1]) return `Draw (${reason})`;
    const winner = places.indexOf(1);
    const who = mySeat === winner ? "You won" : mySeat >= 0 ? "You lost" : `${seatLabel(g, winner)} won`;
    return `${who} (${reason})`;
  }
  const order = places.map((p, seat) => ({ p, seat })).sort((a, b) => a.p - b.p);
  const mine = mySeat >= 0 ? `You placed ${places[mySeat]}. ` : "";
  return `${mine}Places: ${order.map((x) => `${x.p}. ${seatLabel(g, x.seat)}`).join(", ")} (${reason})`;
}

/** The result in a line of a list that names the players already ("your games"): in a
 * game of three or more seats the player's place only, "You placed 2 of 4 (move limit)". */
export function myResultText(g: Played, mySeat: number): string {
  const r = g.result;
  if (!r?.over || mySeat < 0 || twoSided(g)) return resultText(g, mySeat);
  return `You placed ${r.places[mySeat]} of ${r.places.length} (${reasonText(r.reason)})`;
}

/** How a game ended in words: "move_limit" is "move limit". */
const reasonText = (reason: string) => reason.replace(/_/g, " ");

const twoSided = (g: Played) => g.kind === GameKind.CHESS || (g.result?.places.length ?? 0) === 2;

export function statusText(g: Game, mySeat: number, cpuToPlay: boolean): string {
  // How it ended is the result line's, below: said once, not here again.
  if (g.result?.over) return "Game over";
  if (g.toMove < 0) return "Waiting";
  const who = g.toMove === mySeat ? "Your turn" : `${seatLabel(g, g.toMove)} to move`;
  const cpu = cpuToPlay || g.seats[g.toMove]?.isCpu || g.seats[g.toMove]?.controlledByCpuNow ? " (CPU thinking)" : "";
  const check = g.view?.inCheck.includes(g.toMove) ? " (check)" : "";
  return `${who}${check}${g.toMove === mySeat ? "" : cpu}`;
}
