// The game catalogue (Rules.ListGames), read once per page load.
import { rules } from "./client.js";
import type { GameInfo, GameKind } from "../gen/tablero/v1/common_pb.js";

let games: Promise<GameInfo[]> | null = null;

export async function gameInfo(kind: GameKind): Promise<GameInfo | undefined> {
  games ??= rules.listGames({}).then((r) => r.games);
  games.catch(() => (games = null));
  return (await games).find((g) => g.kind === kind);
}
