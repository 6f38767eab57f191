// The interactive room view: follows the room's event stream, redraws the board after
// every move and reads the user's moves and commands from standard input.
#ifndef TABLERO_TOOLS_TABLERO_PLAY_H_
#define TABLERO_TOOLS_TABLERO_PLAY_H_

#include <string>

#include "tools/tablero/client.h"

namespace tablero::cli {

// Returns the process exit code. `spectator`: watch only (no seat commands offered).
int RunRoom(Client& client, const std::string& room_id, bool spectator);

// Prints the game's status line: ply, whose turn, or the result.
std::string StatusLine(const v1::Game& game, const std::string& me);

}  // namespace tablero::cli

#endif  // TABLERO_TOOLS_TABLERO_PLAY_H_
