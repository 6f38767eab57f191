#!/usr/bin/env python3
"""End-to-end test from a client in another language: Python, using only the .proto files.

The stubs are generated at test time (grpc_tools.protoc into a temporary folder) from
proto/tablero/v1/*.proto, so this proves the published API alone is enough to play.
The test starts its own rules, bot, rating and matchmaking processes on free ports
(matchmaking with --rating_addr pointing at the rating service), against the database of
TABLERO_TEST_DATABASE_URL (scripts/test.sh sets it). Two guests meet through an invite
code in a ranked chess room and play fool's mate while a third client watches the event
stream; then the PGN is exported and the ratings are read back once the matchmaking
outbox has delivered the result.

Environment: TABLERO_SOURCE_DIR, TABLERO_BIN_DIR (set by ctest), TABLERO_TEST_DATABASE_URL.
Python: Debian's python3 with python3-grpcio and python3-grpc-tools only.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import grpc

from procs import free_port, Proc

SRC = os.environ.get("TABLERO_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("TABLERO_BIN_DIR", os.path.join(SRC, "build", "bin"))
PROTO = os.path.join(SRC, "proto")


def generate_stubs(out):
    """Python modules for every tablero/v1 proto, generated into `out` (on sys.path)."""
    import grpc_tools
    from grpc_tools import protoc
    wkt = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    files = sorted(glob.glob(os.path.join(PROTO, "tablero", "v1", "*.proto")))
    assert files, f"no .proto files under {PROTO}"
    # The error details' messages (google.rpc.Status, ErrorInfo), as the API ships them.
    files += sorted(glob.glob(os.path.join(PROTO, "google", "rpc", "*.proto")))
    args = ["protoc", f"-I{PROTO}", f"-I{wkt}", f"--python_out={out}", f"--grpc_python_out={out}"]
    rc = protoc.main(args + files)
    assert rc == 0, f"protoc failed ({rc})"
    # Make tablero/ and tablero/v1/ importable packages.
    # (google/ stays a namespace package: it is shared with the protobuf runtime's.)
    for d in (os.path.join(out, "tablero"), os.path.join(out, "tablero", "v1")):
        open(os.path.join(d, "__init__.py"), "a").close()
    sys.path.insert(0, out)


class Service(Proc):
    """A service binary on a free port, its output kept in a temporary log."""

    def __init__(self, name, args=(), db=False):
        self.addr = f"127.0.0.1:{free_port()}"
        env = {"TABLERO_SERVICE_KEY": "tablero-e2e-service-key"}
        if db:
            env["TABLERO_DATABASE_URL"] = os.environ["TABLERO_TEST_DATABASE_URL"]
        argv = [os.path.join(BIN, name), f"--listen={self.addr}",
                f"--metrics_listen=127.0.0.1:{free_port()}", *args]
        super().__init__(argv, env, name, log_prefix="tablero-e2e")

    def wait_serving(self, seconds=30):
        until = time.time() + seconds
        while time.time() < until:
            if self.p.poll() is not None:
                raise AssertionError(f"{self.name} exited with {self.p.returncode}:\n{self.output()}")
            r = subprocess.run([os.path.join(BIN, "healthcheck"), f"--addr={self.addr}"],
                               capture_output=True, timeout=20)
            if r.returncode == 0:
                return
            time.sleep(0.1)
        raise AssertionError(f"{self.name} not SERVING after {seconds}s:\n{self.output()}")


class EndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.environ.get("TABLERO_TEST_DATABASE_URL"):
            raise AssertionError("TABLERO_TEST_DATABASE_URL is not set: run the tests with scripts/test.sh")
        cls.tmp = tempfile.mkdtemp(prefix="tablero-e2e-stubs-")
        generate_stubs(cls.tmp)
        cls.services = []
        try:
            rules = cls.start("rules")
            bot = cls.start("bot")
            rating = cls.start("rating", db=True)
            cls.start("matchmaking", [f"--rules_addr={rules.addr}", f"--bot_addr={bot.addr}",
                                      f"--rating_addr={rating.addr}"], db=True)
            for s in cls.services:
                s.wait_serving()
        except BaseException:
            cls.tearDownClass()
            raise
        cls.rating_addr = rating.addr
        cls.mm_addr = cls.services[-1].addr

    @classmethod
    def start(cls, name, args=(), db=False):
        s = Service(name, args, db)
        cls.services.append(s)
        return s

    @classmethod
    def tearDownClass(cls):
        for s in reversed(cls.services):
            s.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        from tablero.v1 import matchmaking_pb2_grpc, rating_pb2_grpc
        self.channels = [grpc.insecure_channel(self.mm_addr), grpc.insecure_channel(self.rating_addr)]
        self.mm = matchmaking_pb2_grpc.MatchmakingStub(self.channels[0])
        self.rating = rating_pb2_grpc.RatingStub(self.channels[1])

    def tearDown(self):
        for c in self.channels:
            c.close()

    def guest(self, name):
        from tablero.v1 import matchmaking_pb2 as mm
        r = self.mm.CreateGuest(mm.CreateGuestRequest(display_name=name), timeout=20)
        self.assertTrue(r.token)
        self.assertEqual(r.display_name, name)
        return r.player_id, [("authorization", f"Bearer {r.token}")]

    def test_ranked_fools_mate_through_an_invite_code(self):
        from tablero.v1 import common_pb2 as common
        from tablero.v1 import matchmaking_pb2 as mm
        from tablero.v1 import rating_pb2 as rating

        white_id, white = self.guest("Py White")
        black_id, black = self.guest("Py Black")
        room = self.mm.CreateRoom(mm.CreateRoomRequest(kind=common.GAME_KIND_CHESS,
                                                       settings=mm.RoomSettings(ranked=True)),
                                  metadata=white, timeout=20)
        self.assertEqual(room.state, mm.Room.STATE_LOBBY)
        self.assertTrue(room.settings.ranked)
        self.assertRegex(room.invite_code, r"^[A-HJ-NP-Z2-9]{8}$")
        self.assertEqual(room.invite_url, f"/join/{room.invite_code}")

        # Joining is case-insensitive and ignores dashes.
        code = room.invite_code.lower()
        joined = self.mm.JoinRoom(mm.JoinRoomRequest(invite_code=code[:4] + "-" + code[4:]),
                                  metadata=black, timeout=20)
        self.assertEqual(joined.role, mm.Member.ROLE_PLAYER)
        self.assertEqual([m.player_id for m in joined.room.members], [white_id, black_id])

        # A spectator-side watcher follows the room from its first event.
        events, done = [], threading.Event()
        stream = self.mm.Watch(mm.WatchRequest(room_id=room.id, after_seq=0), timeout=60)

        def read():
            try:
                for e in stream:
                    if e.seq:
                        events.append(e)
                    if e.WhichOneof("event") == "game_over":
                        break
            except grpc.RpcError:
                pass
            done.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()

        game = self.mm.StartGame(mm.StartGameRequest(room_id=room.id), metadata=white, timeout=20)
        self.assertTrue(game.ranked)
        self.assertEqual([s.player_id for s in game.seats], [white_id, black_id])
        self.assertEqual(game.to_move, 0)

        # Not your turn: refused and nothing changes.
        with self.assertRaises(grpc.RpcError) as err:
            self.mm.MakeMove(mm.MakeMoveRequest(game_id=game.id, expected_ply=0, move_text="e7e5"),
                             metadata=black, timeout=20)
        self.assertEqual(err.exception.code(), grpc.StatusCode.FAILED_PRECONDITION)
        # Why, for a program: the trailer grpc-status-details-bin holds a google.rpc.Status
        # whose details carry an ErrorInfo with the reason.
        from google.rpc import error_details_pb2, status_pb2
        raw = dict(err.exception.trailing_metadata() or ())["grpc-status-details-bin"]
        details = status_pb2.Status.FromString(raw)
        self.assertEqual(details.code, grpc.StatusCode.FAILED_PRECONDITION.value[0])
        info = error_details_pb2.ErrorInfo()
        self.assertTrue(details.details[0].Unpack(info))
        self.assertEqual((info.reason, info.domain), ("NOT_YOUR_TURN", "tablero"))

        legal = self.mm.ListLegalMoves(mm.ListLegalMovesRequest(game_id=game.id), timeout=20)
        self.assertEqual(len(legal.moves), 20)

        seats = [white, black]
        for ply, text in enumerate(["f2f3", "e5", "g2g4", "Qh4#"]):
            r = self.mm.MakeMove(mm.MakeMoveRequest(game_id=game.id, expected_ply=ply, move_text=text),
                                 metadata=seats[ply % 2], timeout=20)
            self.assertEqual(r.game.ply, ply + 1)
        self.assertEqual(r.move.display, "Qh4#")
        self.assertTrue(r.game.result.over)
        self.assertEqual(r.game.result.reason, "checkmate")
        self.assertEqual(list(r.game.result.places), [2, 1])
        self.assertEqual(r.events[-1].type, common.PlayEvent.TYPE_GAME_OVER)

        # The watcher saw the whole game in order, ending with game_over.
        self.assertTrue(done.wait(20), "watch stream did not deliver game_over")
        seqs = [e.seq for e in events]
        self.assertEqual(seqs, list(range(1, len(seqs) + 1)))
        kinds = [e.WhichOneof("event") for e in events]
        self.assertIn("game_started", kinds)
        moves = [e.move_played for e in events if e.WhichOneof("event") == "move_played"]
        self.assertEqual([m.move.notation for m in moves], ["f2f3", "e7e5", "g2g4", "d8h4"])
        self.assertEqual([m.seat for m in moves], [0, 1, 0, 1])
        self.assertFalse(any(m.by_cpu for m in moves))
        self.assertEqual(kinds[-1], "game_over")
        self.assertEqual(events[-1].game_over.result.reason, "checkmate")

        # History and PGN.
        pgn = self.mm.ExportPgn(mm.ExportPgnRequest(game_id=game.id), timeout=20).pgn
        self.assertIn('[White "Py White"]', pgn)
        self.assertIn('[Result "0-1"]', pgn)
        self.assertIn("Qh4#", pgn)
        mine = self.mm.ListPlayerGames(mm.ListPlayerGamesRequest(), metadata=black, timeout=20)
        self.assertEqual([g.game_id for g in mine.games], [game.id])

        # Ratings: the outbox delivers the result to the rating service.
        def chess(pid):
            r = self.rating.GetRatings(rating.GetRatingsRequest(player_id=pid), timeout=20)
            return next(p for p in r.ratings if p.pool == rating.RATING_POOL_CHESS)

        until = time.time() + 30
        while chess(white_id).games == 0 or chess(black_id).games == 0:
            self.assertLess(time.time(), until, "ratings not updated after 30 s")
            time.sleep(0.2)
        w, b = chess(white_id), chess(black_id)
        self.assertEqual((w.games, b.games), (1, 1))
        self.assertLess(w.rating, 1500)
        self.assertGreater(b.rating, 1500)
        self.assertAlmostEqual(w.rating + b.rating, 3000, delta=1e-6)
        self.assertTrue(w.provisional)
        hist = self.rating.GetHistory(rating.GetHistoryRequest(player_id=black_id, pool=rating.RATING_POOL_CHESS),
                                      timeout=20)
        self.assertEqual([(h.game_id, h.place) for h in hist.entries], [(game.id, 1)])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[1:], verbosity=2)
