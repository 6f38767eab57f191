// A room: its invite link and members, the host's settings, start and rematch, and the
// game being played (or the last one), kept live by the room's Watch stream. Anyone who
// knows the room may open it; people who are not members watch as spectators.
import { ensureIdentity, matchmaking, describeError } from "../api/client.js";
import { gameInfo } from "../api/catalogue.js";
import type { Room, RoomEvent } from "../gen/tablero/v1/matchmaking_pb.js";
import { Member_Role, Room_State } from "../gen/tablero/v1/matchmaking_pb.js";
import { follow } from "../game/live.js";
import { GameScreen } from "../game/screen.js";
import { kindInfo } from "../game/kinds.js";
import { fill, h, showMessage } from "../ui/dom.js";
import { navigate } from "../ui/nav.js";
import { settingsPanel } from "./settings.js";

export async function roomPage(root: HTMLElement, roomId: string): Promise<() => void> {
  const me = await ensureIdentity();
  let room = await matchmaking.getRoom({ key: { case: "roomId", value: roomId } });
  const info = await gameInfo(room.kind);
  let screen: GameScreen | null = null;
  const header = h("section", { class: "room-head" });
  const lobby = h("section", { class: "lobby" });
  const gameSlot = h("div", { class: "game-slot" });
  // After a game: the rematch button (host) or a note, beside the result. (Drawn above the
  // board with the settings, it pushed the result off a phone's screen as the game ended.)
  const next = h("div", { class: "next", "data-testid": "next-game" });
  // Pinned to the top of the screen while the room's stream is down (below the board it
  // was out of sight on a phone, and the page still said "Your turn").
  const link = h("div", { class: "live", "data-testid": "connection", role: "status" });
  // The lobby (settings, start) comes after the game: before the first game the slot is
  // empty; after one, the finished game stays where it was with the next game's settings below.
  root.replaceChildren(header, gameSlot, lobby, link);

  const isHost = () => room.hostPlayerId === me.playerId;
  const member = () => room.members.find((m) => m.playerId === me.playerId);

  // Events that arrive while a game's snapshot is loading are kept and fed to it after.
  let loading: string | null = null;
  let queued: RoomEvent[] = [];
  const showGame = async (gameId: string) => {
    if (!gameId || screen?.id === gameId || loading === gameId) return;
    loading = gameId;
    queued = [];
    try {
      const g = await matchmaking.getGame({ gameId });
      screen?.dispose();
      screen = new GameScreen(g, me.playerId, () => void refresh(), next);
      gameSlot.replaceChildren(screen.el);
      for (const e of queued) screen.event(e);
    } finally {
      loading = null;
      queued = [];
    }
  };
  const toScreen = (e: RoomEvent) => {
    if (loading) queued.push(e);
    else screen?.event(e);
  };

  // With a game on screen the invite link, members and "Leave room" fold into one line
  // (open on request): above the board they took some 300 px, and on a 360x640 phone the
  // player's own pieces and the status were below the screen's edge.
  let infoOpen = false;
  const drawRoom = () => {
    const invite = room.inviteCode ? new URL(room.inviteUrl || `/join/${room.inviteCode}`, location.origin).href : "";
    const roomInfo = [
      invite
        ? h("p", { class: "invite" }, "Invite link: ",
            h("a", { href: invite, "data-testid": "invite-link" }, inviteText(invite, room.inviteCode)), " ",
            h("button", { "data-testid": "copy-invite", "aria-label": "Copy the invite link", onclick: () => copyLink(invite) }, "Copy"))
        : null,
      h("ul", { class: "members", "data-testid": "members" }, room.members.map((m) =>
        h("li", { "data-testid": "member", "data-role": Member_Role[m.role] },
          m.displayName, m.playerId === room.hostPlayerId ? " ★host" : "", m.role === Member_Role.SPECTATOR ? " (spectator)" : "",
          m.playerId === me.playerId ? " (you)" : "", m.connected ? "" : " · away"))),
      member()
        ? h("button", { "data-testid": "leave-room", onclick: async () => {
            await matchmaking.leaveRoom({ roomId }).catch((e) => showMessage(describeError(e)));
            navigate("/");
          } }, "Leave room")
        : null,
    ];
    const n = room.members.length;
    fill(header,
      h("h2", {}, `${kindInfo(room.kind).label} room`, room.quickMatch ? " (quick match)" : ""),
      member() ? null : h("p", { "data-testid": "spectating" }, "You are watching this room."),
      room.currentGameId
        ? h("details", { class: "room-info", open: infoOpen, ontoggle: (e: Event) => (infoOpen = (e.target as HTMLDetailsElement).open) },
            h("summary", {}, `Room: ${n} member${n === 1 ? "" : "s"}${invite ? ", invite link" : ""}`), roomInfo)
        : roomInfo,
    );
    const playing = room.state === Room_State.PLAYING;
    fill(lobby,
      playing ? null : settingsPanel(room, info, isHost(), (r) => { if (r.seq >= room.seq) room = r; drawRoom(); }),
      isHost() && room.state === Room_State.LOBBY
        ? h("button", { class: "primary", "data-testid": "start-game", onclick: () => act(() => matchmaking.startGame({ roomId })) }, "Start game")
        : null,
      !isHost() && room.state === Room_State.LOBBY ? h("p", {}, "Waiting for the host to start.") : null,
    );
    fill(next,
      isHost() && room.state === Room_State.FINISHED
        ? h("button", { class: "primary", "data-testid": "rematch", onclick: () => act(() => matchmaking.rematch({ roomId })) }, "Rematch")
        : null,
      !isHost() && member() && room.state === Room_State.FINISHED ? "Waiting for the host to start a rematch." : null,
    );
  };

  const act = async (call: () => Promise<{ id: string }>) => {
    try {
      const g = await call();
      await refresh();
      await showGame(g.id);
    } catch (e) {
      showMessage(describeError(e));
    }
  };

  // A snapshot older than the one shown (answers can overtake each other) is dropped.
  const refresh = async () => {
    const r = await matchmaking.getRoom({ key: { case: "roomId", value: roomId } });
    if (r.seq >= room.seq) room = r;
    drawRoom();
    return room.seq;
  };

  drawRoom();
  if (room.currentGameId) await showGame(room.currentGameId);

  const stop = follow(roomId, room.seq, {
    event: (e: RoomEvent) => {
      switch (e.event.case) {
        case "memberJoined":
        case "memberLeft":
        case "settingsChanged":
          void refresh();
          return;
        case "gameStarted":
          void refresh().then(() => showGame(e.gameId));
          return;
        case "gameOver":
          toScreen(e);
          void refresh();
          return;
        case "presenceChanged": {
          const p = e.event.value;
          const m = room.members.find((x) => x.playerId === p.playerId);
          if (m && m.connected !== p.connected) {
            m.connected = p.connected;
            drawRoom();
          }
          toScreen(e);
          return;
        }
        default:
          toScreen(e);
      }
    },
    resync: async () => {
      const seq = await refresh();
      if (room.currentGameId) {
        const g = await matchmaking.getGame({ gameId: room.currentGameId });
        if (screen?.id === g.id) screen.setGame(g);
        else await showGame(g.id);
      }
      return seq;
    },
    closed: () => showMessage("This room is closed.", "info"),
    connection: (up) => {
      link.textContent = up ? "" : "Connection lost: reconnecting…";
    },
  });
  return () => {
    stop();
    screen?.dispose();
  };
}

// An invite link's text with its code kept whole: on a phone the link wraps, but never
// inside the code (read out or typed by hand, a code cut in two is easily mistaken).
function inviteText(url: string, code: string): (string | HTMLElement)[] {
  const at = url.lastIndexOf(code);
  return at < 0 ? [url] : [url.slice(0, at), h("span", { class: "invite-code" }, code), url.slice(at + code.length)];
}

// The clipboard is there only on https (or localhost) and may be refused: then the link is
// selected and the player told to copy it, instead of the button doing nothing.
function copyLink(url: string) {
  const byHand = () => {
    const a = document.querySelector('[data-testid="invite-link"]');
    if (a) getSelection()?.selectAllChildren(a);
    showMessage("Could not copy: the link is selected, copy it by hand.", "info");
  };
  if (!navigator.clipboard) return byHand();
  navigator.clipboard.writeText(url).then(() => showMessage("Link copied", "info"), byHand);
}
