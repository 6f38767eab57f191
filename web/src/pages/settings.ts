// The host's settings for a room's next game: turn timer, first seat, legal-move help,
// rotation on rematch, ranked, CPU level, seat count (Chinese Checkers) and every other
// option of the game from Rules.ListGames. Other members see them read-only.
import { Code, ConnectError } from "@connectrpc/connect";
import { cpuLevelChoices } from "../api/catalogue.js";
import { matchmaking, describeError } from "../api/client.js";
import { GameKind, OptionSpec_Type, type GameInfo } from "../gen/tablero/v1/common_pb.js";
import type { Room, RoomSettings } from "../gen/tablero/v1/matchmaking_pb.js";
import { seatSide } from "../game/kinds.js";
import { h, select, showMessage } from "../ui/dom.js";

type Patch = Partial<Pick<RoomSettings, "turnTimeLimitSeconds" | "ranked" | "cpuLevel" | "firstSeat" | "seatCount">> & { options?: Record<string, string> };

export function settingsPanel(room: Room, info: GameInfo | undefined, isHost: boolean, onRoom: (r: Room) => void): HTMLElement {
  const s = room.settings!;
  const locked = !isHost || room.state === 2 /* PLAYING */ || room.quickMatch;
  // The settings are a patch on what the server has: a stale version (another change got
  // there first) is re-read and the patch applied again, once.
  const update = async (p: Patch) => {
    const send = (base: Room) =>
      matchmaking.updateRoomSettings({
        roomId: base.id,
        settings: {
          options: { ...base.settings!.options, ...(p.options ?? {}) },
          turnTimeLimitSeconds: p.turnTimeLimitSeconds ?? base.settings!.turnTimeLimitSeconds,
          ranked: p.ranked ?? base.settings!.ranked,
          cpuLevel: p.cpuLevel ?? base.settings!.cpuLevel,
          firstSeat: p.firstSeat ?? base.settings!.firstSeat,
          seatCount: p.seatCount ?? base.settings!.seatCount,
        },
        expectedSettingsVersion: base.settingsVersion,
      });
    try {
      try {
        onRoom(await send(room));
      } catch (e) {
        if (ConnectError.from(e).code !== Code.Aborted) throw e;
        onRoom(await send(await matchmaking.getRoom({ key: { case: "roomId", value: room.id } })));
      }
    } catch (e) {
      showMessage(`Settings: ${describeError(e)}`);
      // The control the player changed shows the value that was not saved: redraw what is.
      onRoom(room);
    }
  };
  const bool = (name: string) => s.options[name] !== "off";
  const maxSeats = info?.maxSeats ?? 2;
  const rows: Row[] = [
    ["Turn timer", select("setting-turn", [["0", "None"], ["30", "30 s"], ["60", "60 s"]], String(s.turnTimeLimitSeconds), (v) => update({ turnTimeLimitSeconds: Number(v) }), locked)],
    ["CPU level", select("setting-cpu", cpuLevelChoices(info), String(s.cpuLevel || 3), (v) => update({ cpuLevel: Number(v) }), locked)],
    ["Show legal moves", checkbox("setting-legal", bool("show_legal_moves"), locked, (on) => update({ options: { show_legal_moves: on ? "on" : "off" } }))],
    ["Rotate first player on rematch", checkbox("setting-rotate", bool("rotate_first_player"), locked, (on) => update({ options: { rotate_first_player: on ? "on" : "off" } }))],
    ["Ranked", checkbox("setting-ranked", s.ranked, locked, (on) => update({ ranked: on }))],
  ];
  if (room.kind !== GameKind.CHESS) {
    rows.push(["First to move", select("setting-first", Array.from({ length: maxSeats }, (_, i) => [String(i), seatSide(room.kind, i)] as [string, string]), String(s.firstSeat), (v) => update({ firstSeat: Number(v) }), locked)]);
  }
  if (room.kind === GameKind.CHECKERS) {
    const counts: [string, string][] = [["0", "Automatic"]];
    for (let n = info?.minSeats ?? 2; n <= maxSeats; n++) counts.push([String(n), String(n)]);
    rows.push(["Seats", select("setting-seats", counts, String(s.seatCount), (v) => update({ seatCount: Number(v) }), locked)]);
  }
  for (const o of info?.options ?? []) {
    if (o.roomLevel) continue;
    const v = s.options[o.name] ?? o.defaultValue;
    const id = `option-${o.name}`;
    let control: HTMLElement;
    if (o.type === OptionSpec_Type.INT) {
      control = h("input", { type: "number", min: Number(o.min), max: Number(o.max), value: v, "data-testid": id, disabled: locked,
        onchange: (e: Event) => update({ options: { [o.name]: (e.target as HTMLInputElement).value } }) });
    } else {
      // Shown in the catalogue's words ("Last one standing", "FIDE"), sent as its values.
      control = select(id, o.choices.map((c, i) => [c, o.choiceLabels[i] ?? c]), v, (nv) => update({ options: { [o.name]: nv } }), locked);
    }
    // The catalogue's short label; its description (a sentence or two, which as the label
    // took several lines on a phone) is a smaller hint below.
    rows.push([o.label || o.name, control, o.description]);
  }
  return h("fieldset", { class: "settings", "data-testid": "settings", "data-version": String(room.settingsVersion) },
    h("legend", {}, isHost ? "Settings (host)" : "Settings"),
    rows.flatMap(([label, c, hint]) => {
      const row = h("label", { class: "setting" }, h("span", {}, label), c);
      if (!hint) return [row];
      const id = `hint-${c.dataset.testid}`;
      c.setAttribute("aria-describedby", id);
      return [row, h("small", { class: "setting-hint", id }, hint)];
    }));
}

/** A setting's label, its control and what it means (shown smaller, below). */
type Row = [string, HTMLElement, string?];

function checkbox(testid: string, on: boolean, disabled: boolean, change: (on: boolean) => void) {
  return h("input", { type: "checkbox", "data-testid": testid, checked: on, disabled, onchange: (e: Event) => change((e.target as HTMLInputElement).checked) });
}
