#!/usr/bin/env python3
"""The engine account (chess --engine) against a fake server that sends a
game longer than any game can be: the UCI position line the engine is
given holds at most UCI_POSITION_PLIES_MAX moves; one more move and the
client says so in one line and resigns that game, and tells the engine
nothing more about it."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chessd_harness import SANITIZER_REPORTS  # noqa: E402
from fake_server import CHESS, TIMEOUT, FakeFics  # noqa: E402

PLIES_MAX = 17700               # UCI_POSITION_PLIES_MAX, client/uci_position.h

# A knight shuffle (Nf3 Nf6 Ng1 Ng8): the board before each ply and the ply's SAN.
START = [b"rnbqkbnr", b"pppppppp", b"--------", b"--------", b"--------", b"--------",
         b"PPPPPPPP", b"RNBQKBNR"]
SHUFFLE = [
    (START, b"Ng8"),
    ([b"rnbqkbnr", b"pppppppp", b"--------", b"--------", b"--------", b"-----N--",
      b"PPPPPPPP", b"RNBQKB-R"], b"Nf3"),
    ([b"rnbqkb-r", b"pppppppp", b"-----n--", b"--------", b"--------", b"-----N--",
      b"PPPPPPPP", b"RNBQKB-R"], b"Nf6"),
    ([b"rnbqkb-r", b"pppppppp", b"-----n--", b"--------", b"--------", b"--------",
      b"PPPPPPPP", b"RNBQKBNR"], b"Ng1"),
]

FAKE_ENGINE = r'''#!/usr/bin/env python3
import sys
log = open(sys.argv[0] + ".log", "a", buffering=1)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        log.write("position moves=%d bytes=%d\n" % (len(words) - 3, len(line)))
    elif words[0] == "go":
        print("info depth 1 score cp 0", flush=True)
        print("bestmove (none)", flush=True)
    elif words[0] == "quit":
        break
'''


def style12(ply, relation):
    """The position after `ply` plies of the shuffle; the account plays White."""
    board, san = SHUFFLE[ply % 4]
    return (b"<12> %s %s -1 1 1 1 1 0 7 GuestEVIL alice %d 5 0 39 39 300000 300000 %d "
            b"none (0:00.000) %s 0 0 0" % (b" ".join(board), b"WB"[ply % 2:ply % 2 + 1],
                                         relation, ply // 2 + 1, san if ply else b"none"))


class EngineBound(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="chess-engine-bound-")
        self.addCleanup(shutil.rmtree, self.home, True)
        self.engine = os.path.join(self.home, "engine")
        with open(self.engine, "w") as f:
            f.write(FAKE_ENGINE)
        os.chmod(self.engine, 0o755)

    def engine_log(self):
        try:
            with open(self.engine + ".log") as f:
                return [tuple(int(n) for n in re.findall(r"\d+", line)) for line in f]
        except FileNotFoundError:
            return []

    def play(self, last_ply):
        """Plies 0..last_ply, each said to be the opponent's move but for
        PLIES_MAX and last_ply (White to move: the account's).  Returns the
        client's exit code, stderr, and what it sent the server."""
        def game(fake, conn):
            lines = []
            for ply in range(last_ply + 1):
                mine = ply % 2 == 0 and ply in (PLIES_MAX, last_ply)
                lines.append(style12(ply, 1 if mine else -1))
            conn.sendall(b"\n\r" + b"\n\rfics% \n\r".join(lines) + b"\n\rfics% ")
            if last_ply > PLIES_MAX:
                for line in fake.lines(conn):
                    m = re.match(rb"(\d+) resign$", line)
                    if m:
                        conn.sendall(b"\x15%s\x160\x16ok\n\r\x17\n\rfics%% " % m.group(1))
                        break
            # The engine reads the account's last position before the fake hangs up.
            deadline = time.monotonic() + TIMEOUT
            while (min(last_ply, PLIES_MAX), ) not in [e[:1] for e in self.engine_log()]:
                self.assertLess(time.monotonic(), deadline, "the engine never saw the game")
                time.sleep(0.05)
            conn.sendall(b"\n\r{Game 7 (GuestEVIL vs. alice) GuestEVIL resigns} 0-1\n\rfics% ")
        fake = FakeFics(game)
        env = dict(os.environ, HOME=self.home, XDG_CONFIG_HOME=self.home, LANG="C.UTF-8",
                   LC_ALL="C.UTF-8")
        r = subprocess.run([CHESS, "--plain", "--user", "guest", "--engine", self.engine,
                            "--port", str(fake.port), "127.0.0.1"], stdin=subprocess.DEVNULL,
                           capture_output=True, env=env, timeout=TIMEOUT)
        fake.join(TIMEOUT)
        self.assertIsNone(fake.error)
        for report in SANITIZER_REPORTS:
            self.assertNotIn(report.encode(), r.stderr)
        return r.returncode, r.stderr, fake.received

    def test_a_game_longer_than_any_is_resigned_in_one_line(self):
        code, err, sent = self.play(PLIES_MAX + 2)
        # The longest game there can be reaches the engine whole...
        log = self.engine_log()
        self.assertIn(PLIES_MAX, [moves for moves, _ in log], log[-3:])
        # ...and nothing longer ever does.
        self.assertLessEqual(max(moves for moves, _ in log), PLIES_MAX)
        self.assertEqual(max(size for _, size in log),
                         len("position startpos moves\n") + 5 * PLIES_MAX)
        self.assertEqual(len(log), 1, "the engine was told only of its own moves")
        said = [line for line in err.decode().splitlines() if "plies" in line]
        self.assertEqual(said, ["chess: game 7: more than %d plies, longer than any game can be; "
                                "resigning it" % PLIES_MAX], err)
        self.assertRegex(sent, rb"\n\d+ resign\n")
        self.assertEqual(code, 1, err)  # the fake hangs up after the game

    def test_a_long_game_within_the_bound_is_played(self):
        code, err, sent = self.play(PLIES_MAX - 2)
        log = self.engine_log()
        self.assertEqual([moves for moves, _ in log], [PLIES_MAX - 2])
        self.assertNotIn(b"plies", err)
        self.assertNotRegex(sent, rb"\n\d+ resign\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
