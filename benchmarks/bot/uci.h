// A UCI chess engine (such as Stockfish) on pipes, for the benchmarks: match_runner plays
// against it, tune_eval asks it for evaluations.
#ifndef TABLERO_BENCHMARKS_BOT_UCI_H_
#define TABLERO_BENCHMARKS_BOT_UCI_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

class Uci {
 public:
  // `options`: further UCI options as NAME=VALUE (e.g. "UCI_LimitStrength=true"), set after
  // Skill Level, so they may override it.
  explicit Uci(const std::string& path, int skill, const std::vector<std::string>& options = {}) {
    int to[2], from[2];
    if (pipe(to) != 0 || pipe(from) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to[0], 0);
      dup2(from[1], 1);
      close(to[1]);
      close(from[0]);
      execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to[0]);
    close(from[1]);
    in_ = fdopen(to[1], "w");
    out_ = fdopen(from[0], "r");
    Send("uci");
    WaitFor("uciok");
    Send(absl::StrCat("setoption name Skill Level value ", skill));
    Send("setoption name Threads value 1");
    Send("setoption name Hash value 16");
    for (const std::string& o : options) {
      const size_t eq = o.find('=');
      if (eq == std::string::npos) {
        Send(absl::StrCat("setoption name ", o));
      } else {
        Send(absl::StrCat("setoption name ", o.substr(0, eq), " value ", o.substr(eq + 1)));
      }
    }
    Send("isready");
    WaitFor("readyok");
  }
  ~Uci() {
    if (in_) {
      Send("quit");
      fclose(in_);
    }
    if (out_) fclose(out_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  Uci(const Uci&) = delete;
  Uci& operator=(const Uci&) = delete;

  bool ok() const { return in_ && out_; }
  void NewGame() {
    Send("ucinewgame");
    Send("isready");
    WaitFor("readyok");
  }
  // Best move in UCI text for the position after `moves` from `fen`; `limit` is what follows
  // "go", e.g. "movetime 100", "depth 5" or "nodes 20000".
  std::string Go(const std::string& fen, const std::vector<std::string>& moves,
                 const std::string& limit) {
    SetPosition(fen, moves);
    Send(absl::StrCat("go ", limit));
    return BestMove(WaitFor("bestmove"));
  }

  // A search to `depth` of `fen`: the best move and the last score the engine reported,
  // from the side to move (mate: `mate` set, score meaningless).
  struct Analysis {
    std::string best_move;
    int score_cp = 0;
    bool mate = false;
  };
  Analysis Analyse(const std::string& fen, int depth) {
    SetPosition(fen, {});
    Send(absl::StrCat("go depth ", depth));
    Analysis a;
    char buf[8192];
    while (fgets(buf, sizeof buf, out_)) {
      if (strncmp(buf, "bestmove", 8) == 0) {
        a.best_move = BestMove(buf);
        break;
      }
      if (strncmp(buf, "info", 4) != 0) continue;
      if (const char* s = strstr(buf, " score cp ")) {
        a.score_cp = atoi(s + 10);
        a.mate = false;
      } else if (strstr(buf, " score mate ")) {
        a.mate = true;
      }
    }
    return a;
  }
  // The engine's static evaluation of `fen` through Stockfish's "eval" command, in
  // centipawns from the side to move; false where it gives none (in check).
  bool StaticEval(const std::string& fen, bool white_to_move, int* cp) {
    SetPosition(fen, {});
    Send("eval");
    Send("isready");
    char buf[8192];
    bool found = false;
    while (fgets(buf, sizeof buf, out_)) {
      if (strncmp(buf, "readyok", 7) == 0) break;
      if (strncmp(buf, "Final evaluation", 16) != 0) continue;
      double pawns = 0;
      if (sscanf(buf + 16, " %lf", &pawns) == 1) {
        *cp = int(std::lround(pawns * 100)) * (white_to_move ? 1 : -1);
        found = true;
      }
    }
    return found;
  }

 private:
  void SetPosition(const std::string& fen, const std::vector<std::string>& moves) {
    std::string cmd = "position fen " + fen;
    if (!moves.empty()) {
      cmd += " moves";
      for (const auto& m : moves) cmd += " " + m;
    }
    Send(cmd);
  }
  static std::string BestMove(const std::string& line) {
    char move[16] = {0};
    if (sscanf(line.c_str(), "bestmove %15s", move) != 1) return "";
    return move;
  }
  void Send(const std::string& s) {
    fprintf(in_, "%s\n", s.c_str());
    fflush(in_);
  }
  std::string WaitFor(const char* prefix) {
    char buf[8192];
    while (fgets(buf, sizeof buf, out_)) {
      if (strncmp(buf, prefix, strlen(prefix)) == 0) return buf;
    }
    return "";
  }
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

#endif  // TABLERO_BENCHMARKS_BOT_UCI_H_
