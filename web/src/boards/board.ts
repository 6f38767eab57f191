// What every board draws from, and how it reports clicks. Boards are redrawn whole on
// every change (at most 121 cells), so they hold no state of their own.
import type { HandCounts, Piece } from "../notation/positions.js";

export interface BoardState {
  pieces: Piece[];
  hands: HandCounts[];
  seatCount: number;
  /** Seat whose side is at the bottom (a spectator sees seat 0's). */
  viewSeat: number;
  /** The seat this browser plays (-1: spectator or replay): its hand pieces are clickable. */
  mySeat: number;
  /** Selected square/hole, or a drop source like "P*". */
  selected: string | null;
  /** Squares a click may go to next (legal-move highlights). */
  targets: Set<string>;
  /** Holes entered so far in a Chinese Checkers jump chain (from first). */
  path: string[];
  /** The last move's squares (from ... to). */
  lastMove: string[];
  inCheck: number[];
  toMove: number;
}

export interface BoardEvents {
  cell(name: string): void;
  hand?(piece: string): void;
}

export type Renderer = (s: BoardState, ev: BoardEvents) => HTMLElement;

export function cellClasses(s: BoardState, name: string): string {
  const c: string[] = [];
  if (s.selected === name || s.path.includes(name)) c.push("selected");
  if (s.targets.has(name)) c.push("legal");
  if (s.lastMove.includes(name)) c.push("last");
  return c.join(" ");
}

/**
 * What makes a cell playable without a mouse: for a player, focusable, a button to
 * assistive technology, named by `label` (the square and what stands on it), with Enter
 * or Space acting as a click. Spectators and replays get the name only.
 */
export function cellInput(s: BoardState, ev: BoardEvents, name: string, label: string) {
  if (s.mySeat < 0) return { "aria-label": label, onclick: () => ev.cell(name) };
  return {
    tabindex: 0,
    role: "button",
    "aria-label": label,
    onclick: () => ev.cell(name),
    onkeydown: (e: Event) => {
      const k = (e as KeyboardEvent).key;
      if (k !== "Enter" && k !== " ") return;
      e.preventDefault();
      ev.cell(name);
    },
  };
}

/** The cell holding the keyboard focus inside `root`, as a selector (boards are redrawn whole). */
export function focusedCell(root: Element): string | null {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  const sq = a.getAttribute("data-square");
  const hole = a.getAttribute("data-hole");
  return sq ? `[data-square="${sq}"]` : hole ? `[data-hole="${hole}"]` : null;
}

/** Gives the focus back to that cell in the redrawn board. */
export function refocusCell(root: Element, selector: string | null): void {
  if (selector) root.querySelector<HTMLElement>(selector)?.focus();
}
