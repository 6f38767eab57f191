// What the client knows per game kind: names, seat counts, rating pools, seat names.
import { GameKind } from "../gen/tablero/v1/common_pb.js";
import { RatingPool } from "../gen/tablero/v1/rating_pb.js";

export type KindName = "chess" | "shogi4" | "checkers";

export const KINDS: { name: KindName; kind: GameKind; label: string; seats: [number, number] }[] = [
  { name: "chess", kind: GameKind.CHESS, label: "Chess", seats: [2, 2] },
  { name: "shogi4", kind: GameKind.SHOGI4, label: "Four-player Shogi", seats: [4, 4] },
  { name: "checkers", kind: GameKind.CHECKERS, label: "Chinese Checkers", seats: [2, 6] },
];

export function kindByName(n: string) {
  return KINDS.find((k) => k.name === n) ?? KINDS[0];
}

export function kindInfo(k: GameKind) {
  return KINDS.find((x) => x.kind === k) ?? KINDS[0];
}

export function poolOf(k: GameKind, options: Record<string, string> = {}): RatingPool {
  if (k === GameKind.CHESS) return RatingPool.CHESS;
  if (k === GameKind.CHECKERS) return RatingPool.CHECKERS;
  return options.format === "pairs" ? RatingPool.SHOGI4_PAIRS : RatingPool.SHOGI4_SINGLES;
}

export const SEAT_COLOURS = ["#d33", "#2a7de1", "#e1a100", "#2aa84a", "#9a4de1", "#222"];

/** Name of a seat's side: chess White/Black, shogi the compass, checkers the colour. */
export function seatSide(k: GameKind, seat: number): string {
  if (k === GameKind.CHESS) return seat === 0 ? "White" : "Black";
  if (k === GameKind.SHOGI4) return ["South", "West", "North", "East"][seat] ?? `Seat ${seat}`;
  return ["Red", "Blue", "Yellow", "Green", "Purple", "Black"][seat] ?? `Seat ${seat}`;
}
