// Text drawings of a position (PublicView) for the terminal: chess with files and ranks,
// four-player shogi with each piece's owner and facing, Chinese Checkers' star with hole
// names.
#ifndef TABLERO_TOOLS_TABLERO_BOARD_H_
#define TABLERO_TOOLS_TABLERO_BOARD_H_

#include <string>

#include "tablero/v1/matchmaking.pb.h"

namespace tablero::cli {

// `seat` is the viewer's seat (chess: Black sees the board from its side); -1 = seat 0's
// view.
std::string DrawBoard(::tablero::v1::GameKind kind, const ::tablero::v1::PublicView& view,
                      int seat);

}  // namespace tablero::cli

#endif  // TABLERO_TOOLS_TABLERO_BOARD_H_
