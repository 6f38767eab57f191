#!/usr/bin/env python3
"""The `tablero` command-line client driven through a pseudo-terminal (tmux send-keys and
capture-pane), against its own rules, bot and matchmaking processes on free ports.

The session: `tablero play chess --cpu 1` creates a room against the CPU and starts it;
the user plays e2e4, sees the CPU answer and the board redrawn; quits and reopens the
room with the same identity (kept in $XDG_CONFIG_HOME/tablero/identity, mode 0600) and is
back on the White seat; leaves the room (the CPU takes the seat), joins again with the
invite code, gets the seat back and plays a legal move listed by `moves`. Arguments the
client cannot send (an unknown game or rating pool, an --opt without '=') are refused
by the client: no request carries them.

Environment: TABLERO_SOURCE_DIR, TABLERO_BIN_DIR (set by ctest), TABLERO_TEST_DATABASE_URL.
Needs tmux (scripts/deps.sh installs it).
"""
import itertools
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_python_test import BIN, Service  # noqa: E402  (same folder)


class Tmux:
    """One tmux server on its own socket, one window running a plain shell."""

    servers = itertools.count()

    def __init__(self, env):
        # A socket per server: a test's server may still be shutting down when the next
        # test starts its own.
        self.sock = f"tablero-cli-{os.getpid()}-{next(Tmux.servers)}"
        full = {"PATH": BIN + ":" + os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm",
                "LANG": "C.UTF-8", "PS1": "$ ", "HOME": env["XDG_CONFIG_HOME"]}
        full.update(env)
        self.env = full
        self.win = "t:0"
        self.run("new-session", "-d", "-s", "t", "-x", "120", "-y", "50",
                 "bash --norc --noprofile")
        self.run("set-option", "-g", "history-limit", "20000")

    def run(self, *args):
        return subprocess.run(["tmux", "-L", self.sock, *args], env=self.env, capture_output=True,
                              text=True, timeout=20)

    def window(self, w):
        """Switches the pane the other calls act on ("t:0", "t:1"...)."""
        if self.run("list-windows", "-t", "t", "-F", "#{window_index}").stdout.split().count(w[2:]) == 0:
            self.run("new-window", "-d", "-t", w, "bash --norc --noprofile")
        self.win = w

    def send(self, line):
        self.run("send-keys", "-t", self.win, "-l", line)
        self.run("send-keys", "-t", self.win, "Enter")

    def screen(self):
        return self.run("capture-pane", "-p", "-t", self.win, "-S", "-20000").stdout

    def clear(self):
        self.send("clear")
        time.sleep(0.3)
        self.run("clear-history", "-t", self.win)

    # Generous: on a loaded 2-core machine a CPU reply or a redraw can take many seconds.
    def wait(self, pred, what, seconds=90):
        until = time.time() + seconds
        while time.time() < until:
            text = self.screen()
            m = pred(text)
            if m:
                return m
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what} in {self.win}; screen:\n{self.screen()}")

    def wait_text(self, needle, seconds=90, count=1):
        return self.wait(lambda t: t.count(needle) >= count, repr(needle), seconds)

    def kill(self):
        self.run("kill-server")


class CliTmux(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if shutil.which("tmux") is None:
            raise AssertionError("tmux is not installed: run scripts/deps.sh")
        if not os.environ.get("TABLERO_TEST_DATABASE_URL"):
            raise AssertionError("TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh")
        cls.services = []
        try:
            rules = Service("rules")
            cls.services.append(rules)
            bot = Service("bot")
            cls.services.append(bot)
            mm = Service("matchmaking", [f"--rules_addr={rules.addr}", f"--bot_addr={bot.addr}",
                                         "--rating_addr=", "--bot_budget_ms=300"], db=True)
            cls.services.append(mm)
            for s in cls.services:
                s.wait_serving()
        except BaseException:
            cls.tearDownClass()
            raise
        cls.mm_addr = mm.addr

    @classmethod
    def tearDownClass(cls):
        for s in reversed(cls.services):
            s.stop()

    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="tablero-cli-home-")
        self.tmux = Tmux({"XDG_CONFIG_HOME": self.home, "TABLERO_SERVER": self.mm_addr})

    def tearDown(self):
        self.tmux.kill()
        shutil.rmtree(self.home, ignore_errors=True)

    def test_play_against_the_cpu_quit_reopen_leave_and_rejoin(self):
        t = self.tmux
        t.send("tablero play chess --cpu 10")
        t.wait_text("Your move:")
        text = t.screen()
        code = re.search(r"Room ([A-Z2-9]{8}) \(chess\), invite link /join/\1", text).group(1)
        self.assertIn(" 8  r n b q k b n r  8", text)
        self.assertIn(" 1  R N B Q K B N R  1", text)
        self.assertIn("    a b c d e f g h", text)
        self.assertIn("You are ", text)
        self.assertIn("(White). Your move:", text)

        # The identity file: private, and reused from now on.
        ident = os.path.join(self.home, "tablero", "identity")
        self.assertEqual(stat.S_IMODE(os.stat(ident).st_mode), 0o600)
        with open(ident) as f:
            token_line = [l for l in f.read().splitlines() if l.startswith("token=")]
        self.assertEqual(len(token_line), 1)

        # A second user (own identity) joins the running game's room: a spectator who sees
        # the moves live. The room stays open while its host leaves and comes back.
        t.window("t:1")
        t.send(f"XDG_CONFIG_HOME={self.home}/spectator tablero join {code}")
        t.wait_text(f"Joined room {code} as spectator")
        t.wait_text(" 8  r n b q k b n r  8")
        t.window("t:0")

        # A move; the CPU answers and the board is redrawn each time.
        t.send("e2e4")
        t.wait_text("(White) played e4")
        t.wait(lambda s: re.search(r"CPU \(level 10\) \(Black\) played \S+", s), "the CPU's answer")
        t.wait_text("Move 3: ")
        text = t.screen()
        self.assertIn(" 4  . . . . P . . .  4", text)
        self.assertGreaterEqual(text.count("    a b c d e f g h"), 6, "board drawn 3 times")
        self.assertRegex(text, r"Move 3: .*\(White\) to move\. You are .*\(White\)\. Your move:")

        t.window("t:1")
        t.wait_text("(White) played e4")
        t.wait(lambda s: re.search(r"CPU \(level 10\) \(Black\) played \S+", s), "the CPU's move, live")
        self.assertNotIn("Your move:", t.screen())
        t.window("t:0")

        # An illegal move is refused with the rules' message, nothing else changes.
        t.send("e4e6")
        t.wait_text("error: FAILED_PRECONDITION")

        # Quit (the seat is kept) and reopen with the same identity.
        t.send("quit")
        t.send("echo EXITED$((6*7))")
        t.wait_text("EXITED42")
        t.clear()
        t.send(f"tablero play {code.lower()}")
        t.wait_text("Your move:")
        text = t.screen()
        self.assertIn(f"Joined room {code} as player", text)
        self.assertIn(" 4  . . . . P . . .  4", text)
        self.assertIn("Move 3: ", text)

        # Leave: the CPU takes the seat; join again with the code and take it back. (Level 10
        # at 300 ms a move on both sides: the CPU-against-CPU game cannot end in the seconds
        # the rejoin takes, as a level-1 game could.)
        t.send("leave")
        t.wait_text("You left the room; the CPU plays your seat.")
        t.clear()
        t.send(f"tablero join {code}")
        t.wait_text(f"Joined room {code} as player")
        t.wait_text("(White). Your move:", seconds=90)
        t.send("moves")
        listed = t.wait(lambda s: re.search(r"Legal moves \((\d+)\): (\S+)", s), "legal moves")
        self.assertGreater(int(listed.group(1)), 0)
        move = listed.group(2)
        t.send(move)
        t.wait_text(f"(White) played {move}")
        t.send("quit")

        # History: the game is listed, and its PGN names the players.
        t.clear()
        t.send("tablero games")
        game = t.wait(lambda s: re.search(r"^(\w+)  chess  ply \d+  running", s, re.M), "games").group(1)
        t.send(f"tablero pgn {game}")
        t.wait_text('[Black "CPU (level 10)"]')
        self.assertIn('[Result "*"]', t.screen())

    def test_bad_arguments_are_refused_by_the_client(self):
        # Refused by the client with what it takes, exit 2 (not sent as another request:
        # another pool's leaderboard under the name typed, a queue for no game, an option
        # dropped).
        env = dict(os.environ, XDG_CONFIG_HOME=self.home, TABLERO_SERVER=self.mm_addr)
        for args, message in [
                (["leaderboard", "go"],
                 "error: unknown rating pool go (chess, shogi4, shogi4-pairs, checkers)"),
                (["quick", "go"], "error: unknown game go (chess, shogi4, checkers)"),
                (["quick", "chess", "--opt", "draw_mode"],
                 "error: --opt wants NAME=VALUE, got draw_mode")]:
            r = subprocess.run([os.path.join(BIN, "tablero"), *args], env=env,
                               capture_output=True, text=True, timeout=30)
            self.assertEqual((r.returncode, r.stdout), (2, ""), args)
            self.assertIn(message, r.stderr, args)

if __name__ == "__main__":
    unittest.main(verbosity=2)
