// The Chinese Checkers star: 121 holes named by row (a south tip .. q north tip) and
// number (west to east), as the engine names them; their places on a unit grid.
const ROW_LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const ROWS = "abcdefghijklmnopq";

export interface Hole {
  name: string;
  x: number; // hole spacing units, centre 0
  y: number; // upwards, centre 0
}

export const HOLES: Hole[] = ROW_LENGTHS.flatMap((n, r) =>
  Array.from({ length: n }, (_, k) => ({
    name: `${ROWS[r]}${k + 1}`,
    x: k + 1 - (n + 1) / 2,
    y: (r - 8) * (Math.sqrt(3) / 2),
  })),
);

/** The star's points (0 south, clockwise) each seat starts on, by number of players. */
export const SEAT_POINTS: Record<number, number[]> = {
  2: [0, 3],
  3: [0, 2, 4],
  4: [0, 1, 3, 4],
  5: [0, 1, 2, 3, 4],
  6: [0, 1, 2, 3, 4, 5],
};

export function pointOfSeat(seat: number, seats: number): number {
  return SEAT_POINTS[seats]?.[seat] ?? 0;
}

/** Are two holes neighbours (one step apart)? */
export function adjacent(a: string, b: string): boolean {
  const p = HOLES.find((h) => h.name === a);
  const q = HOLES.find((h) => h.name === b);
  if (!p || !q) return false;
  return Math.hypot(p.x - q.x, p.y - q.y) < 1.01;
}
