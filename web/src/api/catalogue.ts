// The game catalogue (Rules.ListGames), read once per page load.
import { rules } from "./client.js";
import type { GameInfo, GameKind } from "../gen/tablero/v1/common_pb.js";

let games: Promise<GameInfo[]> | null = null;

export async function gameInfo(kind: GameKind): Promise<GameInfo | undefined> {
  games ??= rules.listGames({}).then((r) => r.games);
  games.catch(() => (games = null));
  return (await games).find((g) => g.kind === kind);
}

// The CPU level picker's choices, levels 1-10: "3", or "3 (~1770)" where the catalogue gives
// the level an approximate rating (chess).
export function cpuLevelChoices(info: GameInfo | undefined): [string, string][] {
  return Array.from({ length: 10 }, (_, i) => {
    const elo = info?.cpuLevels.find((c) => c.level === i + 1)?.approxElo ?? 0;
    return [String(i + 1), elo > 0 ? `${i + 1} (~${elo})` : String(i + 1)];
  });
}
