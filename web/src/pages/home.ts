// Home: choose a game, play the CPU, create a room, open an invite link, quick match,
// your games, leaderboards.
import { cpuLevelChoices, gameInfo } from "../api/catalogue.js";
import { ensureIdentity, matchmaking, rating, describeError, queuedTicket } from "../api/client.js";
import { saveIdentity } from "../api/identity.js";
import { Ticket_Status, type Ticket } from "../gen/tablero/v1/matchmaking_pb.js";
import type { GameInfo } from "../gen/tablero/v1/common_pb.js";
import { RatingPool } from "../gen/tablero/v1/rating_pb.js";
import { KINDS, kindByName, kindInfo } from "../game/kinds.js";
import { myResultText } from "../game/describe.js";
import { h, select, showMessage } from "../ui/dom.js";
import { navigate } from "../ui/nav.js";

const prefs = { kind: "chess", level: "3", seats: "2" };

export async function homePage(root: HTMLElement): Promise<() => void> {
  const me = await ensureIdentity();
  let polling = 0;
  let following: AbortController | null = null;
  // The ticket this page is waiting on: left in the queue when the player goes elsewhere,
  // it was matched later with nobody there to play it (the opponent got an absent player).
  let waiting: string | null = null;
  const stopFollowing = () => {
    clearInterval(polling);
    following?.abort();
    waiting = null;
  };
  /** Stops following the ticket waited on, if any, and takes it out of the queue. */
  const dropTicket = async () => {
    const old = waiting;
    stopFollowing();
    if (old) await matchmaking.cancelQueue({ ticketId: old }).catch(() => {});
  };
  const leave = () => {
    if (waiting) showMessage("Quick match cancelled: you left the page.", "info");
    void dropTicket();
  };
  const seatsRow = h("label", { class: "setting" });
  const drawSeats = () => {
    const k = kindByName(prefs.kind);
    const opts: [string, string][] = [];
    for (let n = k.seats[0]; n <= k.seats[1]; n++) opts.push([String(n), String(n)]);
    if (Number(prefs.seats) < k.seats[0] || Number(prefs.seats) > k.seats[1]) prefs.seats = String(k.seats[0]);
    seatsRow.replaceChildren(h("span", {}, "Players"), select("seat-count", opts, prefs.seats, (v) => (prefs.seats = v), k.seats[0] === k.seats[1]));
  };
  drawSeats();
  // The CPU levels of the chosen game, with their approximate ratings from the catalogue.
  const levelRow = h("label", { class: "setting" });
  const drawLevels = (info?: GameInfo) =>
    levelRow.replaceChildren(h("span", {}, "CPU level"), select("cpu-level", cpuLevelChoices(info), prefs.level, (v) => (prefs.level = v)));
  const loadLevels = () => {
    const k = kindByName(prefs.kind);
    gameInfo(k.kind).then((info) => { if (kindByName(prefs.kind) === k) drawLevels(info); }, () => {});
  };
  drawLevels();
  loadLevels();

  const guarded = (f: () => Promise<void>) => async (e: Event) => {
    const b = e.currentTarget as HTMLButtonElement;
    b.disabled = true;
    try {
      await f();
    } catch (err) {
      showMessage(describeError(err));
    } finally {
      b.disabled = false;
    }
  };

  const playCpu = guarded(async () => {
    const k = kindByName(prefs.kind);
    const room = await matchmaking.createRoom({ kind: k.kind, settings: { cpuLevel: Number(prefs.level), seatCount: Number(prefs.seats) } });
    await matchmaking.startGame({ roomId: room.id });
    navigate(`/room/${room.id}`);
  });
  const createRoom = guarded(async () => {
    const k = kindByName(prefs.kind);
    const room = await matchmaking.createRoom({ kind: k.kind, settings: { cpuLevel: Number(prefs.level) } });
    navigate(`/room/${room.id}`);
  });
  const queueBox = h("div", { class: "queue", "data-testid": "queue" });
  const quick = guarded(async () => {
    const k = kindByName(prefs.kind);
    await dropTicket();  // clicked again while waiting: the new search replaces the old one
    const join = () => matchmaking.joinQueue({ kind: k.kind, playerCount: Number(prefs.seats) });
    let t: Ticket;
    try {
      t = await join();
    } catch (e) {
      // A search left behind (the page was closed or reloaded before its cancel got
      // through): this one replaces it, as a second click does.
      const left = queuedTicket(e);
      if (!left) throw e;
      await matchmaking.cancelQueue({ ticketId: left });
      t = await join();
    }
    const ticketId = t.ticketId;
    waiting = ticketId;
    const show = () =>
      queueBox.replaceChildren(
        `Looking for ${k.label} opponents (rating window ${t.ratingLow.toFixed(0)}–${t.ratingHigh.toFixed(0)})… `,
        h("button", { "data-testid": "cancel-queue", onclick: async () => {
          stopFollowing();
          await matchmaking.cancelQueue({ ticketId }).catch(() => {});
          queueBox.replaceChildren();
        } }, "Cancel"),
      );
    show();
    // The match is pushed on WatchTicket; polling GetTicket is the fallback when the
    // stream cannot be had (it ends with an error other than our own cancel).
    const settle = (u: typeof t): boolean => {
      t = u;
      if (t.status === Ticket_Status.MATCHED) {
        stopFollowing();
        navigate(`/room/${t.roomId}`);
        return true;
      }
      if (t.status === Ticket_Status.CANCELLED) {
        stopFollowing();
        queueBox.replaceChildren(`Queue left (${t.cancelReason}).`);
        return true;
      }
      show();
      return false;
    };
    const poll = () => {
      polling = window.setInterval(async () => {
        try {
          settle(await matchmaking.getTicket({ ticketId }));
        } catch (e) {
          showMessage(describeError(e));
        }
      }, 1500);
    };
    const stream = new AbortController();
    following = stream;
    void (async () => {
      try {
        for await (const u of matchmaking.watchTicket({ ticketId }, { signal: stream.signal })) {
          if (settle(u)) return;
        }
      } catch {
        if (!stream.signal.aborted) poll();
      }
    })();
  });

  const openInvite = (e: Event) => {
    e.preventDefault();
    const text = ((e.target as HTMLFormElement).elements.namedItem("invite") as HTMLInputElement).value.trim();
    const code = text.includes("/join/") ? text.slice(text.lastIndexOf("/join/") + 6) : text;
    if (code) navigate(`/join/${encodeURIComponent(code)}`);
  };

  const rename = async (e: Event) => {
    e.preventDefault();
    const name = ((e.target as HTMLFormElement).elements.namedItem("name") as HTMLInputElement).value.trim();
    try {
      const p = await matchmaking.updateGuest({ displayName: name });
      saveIdentity({ ...me, name: p.displayName });
      showMessage(`You are now ${p.displayName}`, "info");
    } catch (err) {
      showMessage(describeError(err));
    }
  };

  const POOLS: Record<number, string> = { [RatingPool.CHESS]: "Chess", [RatingPool.SHOGI4_SINGLES]: "Shogi (singles)",
    [RatingPool.SHOGI4_PAIRS]: "Shogi (pairs)", [RatingPool.CHECKERS]: "Chinese Checkers" };
  const board = h("div", { "data-testid": "leaderboard" });
  // Only the pool chosen last is drawn: a slower answer for one chosen before is dropped.
  let asked = 0;
  const loadBoard = async (pool: string) => {
    const mine = ++asked;
    try {
      const r = await rating.getLeaderboard({ pool: Number(pool) as RatingPool, pageSize: 20 });
      const names = r.entries.length ? await matchmaking.getPlayers({ playerIds: r.entries.map((e) => e.playerId) }) : { players: [] };
      if (mine !== asked) return;
      const name = new Map(names.players.map((p) => [p.playerId, p.displayName]));
      // An empty board says which one it is (the same sentence for every pool showed no
      // change), and "settled" as the ratings above show it: ± twice the rating deviation.
      board.replaceChildren(
        r.entries.length === 0
          ? h("p", {}, `Nobody on the ${POOLS[Number(pool)]} board yet: it lists players whose rating is settled (±150 at most).`)
          : h("table", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Games")),
              r.entries.map((e) => h("tr", { "data-testid": "leader" }, h("td", {}, e.rank), h("td", {}, name.get(e.playerId) ?? e.playerId.slice(0, 8)), h("td", {}, e.rating.toFixed(0)), h("td", {}, e.games)))),
      );
    } catch (e) {
      if (mine === asked) board.replaceChildren(describeError(e));
    }
  };
  void loadBoard(String(RatingPool.CHESS));

  const ratings = h("ul", { class: "my-ratings" });
  rating.getRatings({ playerId: me.playerId }).then((r) => {
    const played = r.ratings.filter((x) => x.games > 0);
    ratings.replaceChildren(...played.map((x) =>
      h("li", { "data-testid": "my-rating", "data-pool": x.pool },
        `${POOLS[x.pool]}: ${x.rating.toFixed(0)} ±${(2 * x.rd).toFixed(0)} (${x.games} game${x.games === 1 ? "" : "s"}${x.provisional ? ", provisional" : ""})`)));
    if (!played.length) ratings.replaceChildren(h("li", {}, "Unrated: play a ranked game."));
  }, () => {});

  const games = h("ul", { class: "my-games", "data-testid": "my-games" });
  matchmaking.listPlayerGames({ pageSize: 10 }).then((r) => {
    games.replaceChildren(...r.games.map((g) =>
      h("li", {}, h("a", { href: g.result?.over ? `/replay/${g.gameId}` : `/room/${g.roomId}`, "data-link": true },
        `${kindInfo(g.kind).label} · ${g.seats.map((s) => s.displayName).join(" vs ")} · ${g.result?.over ? myResultText(g, g.seats.findIndex((s) => s.playerId === me.playerId)) : "playing"}`))));
    if (!r.games.length) games.replaceChildren(h("li", {}, "No games yet."));
  }, () => {});

  root.replaceChildren(
    h("section", { class: "card" },
      h("h2", {}, "Play"),
      h("label", { class: "setting" }, h("span", {}, "Game"),
        select("game-kind", KINDS.map((k) => [k.name, k.label]), prefs.kind, (v) => { prefs.kind = v; drawSeats(); loadLevels(); })),
      seatsRow,
      levelRow,
      h("div", { class: "buttons" },
        h("button", { class: "primary", "data-testid": "play-cpu", onclick: playCpu }, "Play the CPU"),
        h("button", { "data-testid": "create-room", onclick: createRoom }, "Create a room"),
        h("button", { "data-testid": "quick-match", onclick: quick }, "Quick match (ranked)")),
      queueBox,
      h("form", { class: "inline", onsubmit: openInvite },
        h("input", { name: "invite", "data-testid": "join-input", placeholder: "Invite link or code", "aria-label": "Invite link or code" }),
        h("button", { "data-testid": "join-open" }, "Join")),
    ),
    h("section", { class: "card" },
      h("h2", {}, "You"),
      h("form", { class: "inline", onsubmit: rename },
        h("input", { name: "name", value: me.name, maxlength: 24, "data-testid": "name-input", "aria-label": "Your name" }),
        h("button", {}, "Rename")),
      h("h3", {}, "Your ratings"), ratings,
      h("h3", {}, "Your games"), games),
    h("section", { class: "card" },
      h("h2", {}, "Leaderboards"),
      h("label", { class: "setting" }, h("span", {}, "Leaderboard for"),
        select("leaderboard-pool", Object.entries(POOLS), String(RatingPool.CHESS), (v) => void loadBoard(v))),
      board),
  );
  return leave;
}

export async function joinPage(root: HTMLElement, code: string): Promise<() => void> {
  root.replaceChildren(h("p", {}, `Joining ${code}…`));
  await ensureIdentity();
  try {
    const r = await matchmaking.joinRoom({ inviteCode: code });
    navigate(`/room/${r.room!.id}`, true);
  } catch (e) {
    root.replaceChildren(h("p", { "data-testid": "join-failed" }, `Cannot join ${code}: ${describeError(e)}`), h("a", { href: "/", "data-link": true }, "Home"));
  }
  return () => {};
}
