// A game on screen: seats, board, status, turn timer, move list, actions and a typed-move
// box. Fed by snapshots (GetGame, MakeMove answers) and Watch events; every input is
// idempotent by ply, so a resumed stream may repeat what a snapshot already showed.
import { matchmaking, describeError, rating, unreachable, UNREACHABLE } from "../api/client.js";
import { Code, ConnectError } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { GameKind, type Move } from "../gen/tablero/v1/common_pb.js";
import type { Game, RoomEvent } from "../gen/tablero/v1/matchmaking_pb.js";
import { renderChess } from "../boards/chess.js";
import { renderShogi4 } from "../boards/shogi4.js";
import { renderCheckers } from "../boards/checkers.js";
import { focusedCell, refocusCell, type Renderer } from "../boards/board.js";
import { h, showMessage } from "../ui/dom.js";
import { kindInfo, poolOf, SEAT_COLOURS, seatSide, type KindName } from "./kinds.js";
import { click, emptyPicker, promotionQuestion, targetsOf, type Outcome } from "./picker.js";
import { resultText, statusText } from "./describe.js";
import { moveList, moveRow } from "./movelist.js";

export const RENDERERS: Record<KindName, Renderer> = { chess: renderChess, shogi4: renderShogi4, checkers: renderCheckers };

interface MoveRow {
  seat: number;
  text: string;
  byCpu: boolean;
}

export class GameScreen {
  readonly el = h("section", { class: "game", "data-testid": "game" });
  private moves: MoveRow[] = [];
  private picker = emptyPicker();
  private choices: { label: string; text: string }[] = [];
  private deadline: Date | null = null;
  private cpuToPlay = false;
  private timer: number;
  private busy = false;
  private ratingShown = false;
  private ratingText = "";
  /** Takes the "offers a draw" notice away once the offer is answered or the game is over. */
  private dropOfferNotice: (() => void) | null = null;

  /** `next`: what comes after this game (the room's rematch button or a note), shown by the result. */
  constructor(private game: Game, private me: string, private onOver: () => void, private next: HTMLElement | null = null) {
    this.el.dataset.gameId = game.id;
    this.deadline = game.turnDeadline ? timestampDate(game.turnDeadline) : null;
    this.timer = window.setInterval(() => this.tick(), 250);
    this.loadMoves();
    this.render();
    if (game.result?.over) this.loadRating();
  }

  /** The move list from the server (at start, and whenever ours has a gap). */
  private loadMoves() {
    matchmaking.getGameMoves({ gameId: this.game.id }).then(
      (r) => {
        const rows = r.moves.map((m) => ({ seat: m.seat, text: m.move?.display ?? "", byCpu: m.byCpu }));
        if (rows.length >= this.moves.length) this.moves = rows;
        this.render();
      },
      (e) => showMessage(describeError(e)),
    );
  }

  get id() {
    return this.game.id;
  }

  dispose() {
    clearInterval(this.timer);
  }

  private get kind(): KindName {
    return kindInfo(this.game.kind).name;
  }

  private get mySeat(): number {
    return this.game.seats.findIndex((s) => s.playerId === this.me);
  }

  private get legalAllowed(): boolean {
    return this.game.options["show_legal_moves"] !== "off";
  }

  /** A newer snapshot of the same game (ignored when older than what is shown). */
  setGame(g: Game, move?: Move) {
    if (g.ply < this.game.ply || (g.ply === this.game.ply && !g.result?.over && this.game.result?.over)) return;
    if (move && g.ply === this.moves.length + 1) this.moves.push({ seat: move.seat, text: move.display, byCpu: false });
    else if (g.ply > this.moves.length) this.loadMoves();
    const moved = g.ply !== this.game.ply;
    this.game = g;
    this.deadline = g.turnDeadline ? timestampDate(g.turnDeadline) : null;
    if (moved) this.picker = emptyPicker();
    this.render();
    if (g.result?.over) {
      this.loadRating();
      this.onOver();
    }
  }

  event(e: RoomEvent) {
    if (e.gameId !== this.game.id) return;
    const g = this.game;
    switch (e.event.case) {
      case "movePlayed": {
        const m = e.event.value;
        if (m.ply <= g.ply) return;
        // The CPU moving for a player who is here: their turn timer ran out. Said, as the
        // move otherwise just appears, with the turn gone.
        if (m.byCpu && m.seat === this.mySeat && !g.seats[m.seat]?.controlledByCpuNow) {
          showMessage(`Your time ran out: the CPU played ${m.move?.display ?? "a move"} for you.`, "info");
        }
        if (m.ply === this.moves.length + 1) this.moves.push({ seat: m.seat, text: m.move?.display ?? "", byCpu: m.byCpu });
        else if (m.ply > this.moves.length) this.loadMoves();
        g.ply = m.ply;
        g.toMove = m.toMove;
        if (m.view) g.view = m.view;
        this.picker = emptyPicker();
        this.choices = [];
        break;
      }
      case "turnChanged": {
        const t = e.event.value;
        if (t.ply < g.ply) return;
        g.toMove = t.toMove;
        this.deadline = t.turnDeadline ? timestampDate(t.turnDeadline) : null;
        this.cpuToPlay = t.cpuToPlay;
        break;
      }
      case "presenceChanged": {
        const p = e.event.value;
        const seat = g.seats.find((s) => s.playerId === p.playerId && p.seat === s.seat);
        if (seat) {
          seat.connected = p.connected;
          seat.controlledByCpuNow = p.cpuControlled;
        }
        break;
      }
      case "drawOffered":
        if (g.view) g.view.drawOfferBy = e.event.value.seat;
        if (e.event.value.seat !== this.mySeat) this.dropOfferNotice = showMessage(`${seatSide(g.kind, e.event.value.seat)} offers a draw`, "info");
        break;
      case "drawDeclined":
        if (g.view) g.view.drawOfferBy = undefined;
        showMessage(`${seatSide(g.kind, e.event.value.seat)} declined the draw`, "info");
        break;
      case "resigned": {
        // Said only while the game goes on (a seat out of a Chinese Checkers game of three
        // or more): a resignation that ends it is the result line's, and the player who
        // resigned knows. The batch's game over follows this event, so look after it.
        const seat = e.event.value.seat;
        if (seat !== this.mySeat) {
          queueMicrotask(() => {
            if (!this.game.result?.over) showMessage(`${seatSide(g.kind, seat)} resigned`, "info");
          });
        }
        break;
      }
      case "elimination": {
        // A mated (or resigned) seat's place is final at once: shown beside the seat.
        const el = e.event.value;
        if (g.result && el.place > 0 && el.seat < g.result.places.length) g.result.places[el.seat] = el.place;
        break;
      }
      case "gameOver":
        if (e.event.value.game) return this.setGame(e.event.value.game);
        break;
      default:
        return;
    }
    this.render();
  }

  private tick() {
    const t = this.el.querySelector<HTMLElement>('[data-testid="turn-timer"]');
    if (!t) return;
    if (!this.deadline || this.game.result?.over) {
      t.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((this.deadline.getTime() - Date.now()) / 1000));
    t.textContent = `${left} s`;
    t.classList.toggle("low", left <= 10);
  }

  // ---- input ----

  private async cell(name: string) {
    if (this.busy || this.game.result?.over) return;
    const mine = this.mySeat;
    if (mine < 0 || this.game.toMove !== mine) {
      if (mine >= 0) showMessage("Not your turn", "info");
      return;
    }
    const piece = this.game.view?.pieces.find((p) => p.square === name);
    const own = !!piece && piece.owner === mine && !piece.flipped;
    const sel = this.picker.selected ? this.game.view?.pieces.find((p) => p.square === this.picker.selected) ?? null : null;
    const out = click(this.picker, this.kind, name, own, sel ? { type: sel.type, owner: sel.owner, facing: sel.facing } : null);
    await this.outcome(out, name);
  }

  private async hand(piece: string) {
    if (this.busy || this.game.toMove !== this.mySeat) return;
    await this.outcome({ kind: "select", from: `${piece}*` }, `${piece}*`);
  }

  private async outcome(out: Outcome, cell: string) {
    switch (out.kind) {
      case "none":
        this.picker = emptyPicker();
        break;
      case "select":
        this.picker = { selected: out.from, path: [out.from], legal: null };
        this.choices = [];
        if (this.legalAllowed) {
          try {
            const r = await matchmaking.listLegalMoves({ gameId: this.game.id, fromSquare: out.from });
            if (this.picker.selected === out.from && r.ply === this.game.ply) this.picker.legal = r.moves;
          } catch (e) {
            showMessage(describeError(e));
          }
        }
        break;
      case "wait":
        break;
      case "move":
        return this.play(out.text);
      case "choose":
        this.choices = out.options;
        break;
    }
    void cell;
    this.render();
  }

  async play(text: string) {
    this.busy = true;
    this.choices = [];
    try {
      const r = await matchmaking.makeMove({ gameId: this.game.id, expectedPly: this.game.ply, moveText: text });
      this.picker = emptyPicker();
      if (r.game && r.move) this.setGame(r.game, r.move);
    } catch (e) {
      this.picker = emptyPicker();
      // A move the server never got was not refused: say so, and that it can be tried again.
      showMessage(unreachable(e) ? `Move ${text} not sent. ${UNREACHABLE}` : `Move ${text} refused: ${describeError(e)}`);
      if (ConnectError.from(e).code === Code.Aborted) {
        const g = await matchmaking.getGame({ gameId: this.game.id });
        this.setGame(g);
      }
    } finally {
      this.busy = false;
      this.render();
    }
  }

  private async action(name: string, call: () => Promise<{ game?: Game }>) {
    try {
      const r = await call();
      if (r.game) this.setGame(r.game);
    } catch (e) {
      showMessage(`${name}: ${describeError(e)}`);
    }
  }

  private loadRating() {
    if (this.ratingShown || !this.game.ranked || this.mySeat < 0) return;
    this.ratingShown = true;
    const pool = poolOf(this.game.kind, this.game.options);
    const attempt = async (n: number) => {
      const r = await rating.getHistory({ playerId: this.me, pool, pageSize: 5 });
      const e = r.entries.find((x) => x.gameId === this.game.id);
      if (e?.before && e.after) {
        const d = e.after.rating - e.before.rating;
        this.ratingText = `Rating ${e.before.rating.toFixed(0)} → ${e.after.rating.toFixed(0)} (${d >= 0 ? "+" : ""}${d.toFixed(0)})`;
        this.render();
      } else if (n > 0) setTimeout(() => attempt(n - 1).catch(() => {}), 1000);
    };
    attempt(15).catch(() => {});
  }

  private async downloadPgn() {
    try {
      const r = await matchmaking.exportPgn({ gameId: this.game.id });
      const a = h("a", { href: URL.createObjectURL(new Blob([r.pgn], { type: "application/x-chess-pgn" })), download: `${this.game.id}.pgn` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      showMessage(describeError(e));
    }
  }

  // ---- drawing ----

  render() {
    const g = this.game;
    const mine = this.mySeat;
    const v = g.view;
    const board = RENDERERS[this.kind](
      {
        pieces: v?.pieces ?? [],
        hands: v?.hands ?? [],
        seatCount: g.seats.length,
        viewSeat: mine < 0 ? 0 : mine,
        mySeat: mine,
        selected: this.picker.selected,
        targets: this.legalAllowed ? targetsOf(this.picker, this.kind) : new Set(),
        path: this.kind === "checkers" ? this.picker.path : [],
        lastMove: v?.lastMove?.path ?? [],
        inCheck: v?.inCheck ?? [],
        toMove: g.toMove,
      },
      { cell: (n) => void this.cell(n), hand: (p) => void this.hand(p) },
    );
    const over = !!g.result?.over;
    const myTurn = !over && mine >= 0 && g.toMove === mine;
    const offerBy = v?.drawOfferBy;
    if (this.dropOfferNotice && (over || offerBy === undefined)) {
      this.dropOfferNotice();
      this.dropOfferNotice = null;
    }
    const chess = g.kind === GameKind.CHESS;
    const actions = h(
      "div",
      { class: "actions" },
      mine >= 0 && !over && g.kind !== GameKind.SHOGI4
        ? h("button", { "data-testid": "resign", onclick: () => confirm("Resign this game?") && this.action("Resign", () => matchmaking.resign({ gameId: g.id })) }, "Resign")
        : null,
      mine >= 0 && !over && chess && offerBy === undefined
        ? h("button", { "data-testid": "offer-draw", onclick: () => this.action("Draw offer", () => matchmaking.offerDraw({ gameId: g.id })) }, "Offer draw")
        : null,
      mine >= 0 && !over && chess && offerBy !== undefined && offerBy !== mine
        ? [
            h("span", { "data-testid": "draw-offer" }, "Draw offered: "),
            h("button", { "data-testid": "draw-accept", onclick: () => this.action("Accept draw", () => matchmaking.respondDraw({ gameId: g.id, accept: true })) }, "Accept"),
            h("button", { "data-testid": "draw-decline", onclick: () => this.action("Decline draw", () => matchmaking.respondDraw({ gameId: g.id, accept: false })) }, "Decline"),
          ]
        : null,
      myTurn && chess && g.options["draw_mode"] === "fide"
        ? h("button", { "data-testid": "claim-draw", onclick: () => this.action("Draw claim", () => matchmaking.claimDraw({ gameId: g.id })) }, "Claim draw")
        : null,
      chess && (over || g.ply > 0) ? h("button", { "data-testid": "pgn-download", onclick: () => this.downloadPgn() }, "PGN") : null,
      over ? h("a", { href: `/replay/${g.id}`, "data-testid": "replay-link", "data-link": true }, "Replay") : null,
    );
    const chooser = this.choices.length
      ? h("div", { class: "promotion", "data-testid": "promotion", role: "group", "aria-labelledby": "promotion-question" },
          h("h3", { id: "promotion-question" }, promotionQuestion(this.kind)),
          this.choices.map((c) =>
            h("button", { "data-testid": "promote-option", "data-move": c.text, onclick: () => this.play(c.text) }, c.label)))
      : null;
    const chain =
      this.kind === "checkers" && this.picker.path.length >= 2
        ? h("button", { "data-testid": "submit-path", onclick: () => this.play(this.picker.path.join("-")) }, `Play ${this.picker.path.join("-")}`)
        : null;
    const input = mine >= 0 && !over
      ? h(
          "form",
          {
            class: "move-form",
            onsubmit: (e: Event) => {
              e.preventDefault();
              const f = e.target as HTMLFormElement;
              const text = (f.elements.namedItem("move") as HTMLInputElement).value.trim();
              if (text) void this.play(text);
              f.reset();
            },
          },
          h("input", { name: "move", "data-testid": "move-input", placeholder: chess ? "e2e4 or Nf3" : this.kind === "shogi4" ? "7g7f or P*5e" : "c1-e5", autocomplete: "off", "aria-label": "Type a move" }),
          h("button", { type: "submit", "data-testid": "move-submit" }, "Move"),
        )
      : null;
    const focused = focusedCell(this.el);
    this.el.replaceChildren(
      h("ol", { class: "seats", "data-testid": "seats" }, g.seats.map((s) =>
        h(
          "li",
          { "data-testid": "seat", "data-seat": s.seat, class: `${g.toMove === s.seat ? "to-move" : ""}${v && v.active[s.seat] === false ? " out" : ""}`, style: `--seat:${SEAT_COLOURS[s.seat]}` },
          h("span", { class: "dot" }),
          `${s.displayName}${s.playerId === this.me ? " (you)" : ""} · ${seatSide(g.kind, s.seat)}`,
          // A CPU seat's name says so ("CPU (level 3)"): no "CPU" badge after it.
          s.controlledByCpuNow ? h("span", { class: "badge warn", "data-testid": "cpu-takeover" }, "CPU playing") : null,
          !s.isCpu && !s.connected ? h("span", { class: "badge off" }, "away") : null,
          !g.result?.over && (g.result?.places[s.seat] ?? 0) > 0
            ? h("span", { class: "badge", "data-testid": "seat-place" }, `place ${g.result?.places[s.seat]}`)
            : null,
        ))),
      h("div", { class: "play" },
        board,
        h("aside", { class: "side" },
          h("div", { class: `status${myTurn ? " mine" : ""}`, "data-testid": "status" }, statusText(g, mine, this.cpuToPlay)),
          h("div", { class: "timer", "data-testid": "turn-timer" }),
          over ? h("div", { class: "result", "data-testid": "result" }, resultText(g, mine)) : null,
          this.ratingText ? h("div", { class: "rating", "data-testid": "rating-change" }, this.ratingText) : null,
          over ? this.next : null,
          chooser,
          chain,
          input,
          actions,
          // "cpu" marks a move the CPU played for a person (away, or out of time), not every
          // move of a CPU's seat.
          moveList(this.kind, this.moves.map((m, i) => moveRow(this.kind, i, m.seat, m.text, m.byCpu && !g.seats[m.seat]?.isCpu))),
        ),
      ),
    );
    refocusCell(this.el, focused);
    const list = this.el.querySelector(".moves");
    if (list) list.scrollTop = list.scrollHeight;
    this.tick();
  }
}
