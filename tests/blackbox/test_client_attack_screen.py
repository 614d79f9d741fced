#!/usr/bin/env python3
"""The interactive board (under tmux) against a hostile fake server: a move
list of 10,000 moves, positions no game reaches and a flood of lines while
the board is up.  The board stays, each refusal is one line on the screen,
and a long move list within the bound joins the board's list."""
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_server import CHESS, MARK, TIMEOUT, FakeFics  # noqa: E402

START = b"rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR"


def style12(board, game, move_number, side=b"W", san=b"none"):
    return (b"<12> %s %s -1 1 1 1 1 0 %d alice bob 0 5 0 39 39 300000 300000 %d none "
            b"(0:00.000) %s 0 0 0" % (board, side, game, move_number, san))


def movelist(game, moves):
    """The reply to "moves N" as chessd writes it, for `moves` full moves of knight shuffles."""
    lines = [b"Movelist for game %d:" % game, b"",
             b"alice (1500) vs. bob (1612) --- Mon Nov 30, 14:34 UTC 2026",
             b"Unrated blitz match, initial time: 5 minutes, increment: 0 seconds.", b"",
             b"Move  alice                   bob",
             b"----  ---------------------   ---------------------"]
    pairs = ((b"Nf3", b"Nf6"), (b"Ng1", b"Ng8"))
    for n in range(1, moves + 1):
        w, b = pairs[(n - 1) % 2]
        lines.append(b"%3d.  %-7s (0:00.000)      %-7s (0:00.000)" % (n, w, b))
    lines += [b"      {Still in progress} *"]
    return b"\n\r".join(lines)


class Screen(unittest.TestCase):
    def setUp(self):
        if not shutil.which("tmux"):
            self.fail("tmux is not installed (apt-get install tmux): this test needs it")
        self.home = tempfile.mkdtemp(prefix="chess-attack-screen-")
        self.addCleanup(shutil.rmtree, self.home, True)
        self.sock = "chess-attack-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        self.addCleanup(subprocess.run, ["tmux", "-L", self.sock, "kill-server"],
                        capture_output=True)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock] + list(args), capture_output=True,
                              check=True).stdout

    def start(self, port):
        self.tmux("new-session", "-d", "-s", "evil", "-x", "100", "-y", "40",
                  "env HOME=%s XDG_CONFIG_HOME=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color "
                  "NO_COLOR=1 %s --ascii --plain --user guest --port %d 127.0.0.1; echo exit=$?; "
                  "sleep 30" % (self.home, self.home, CHESS, port))

    def wait_screen(self, pattern, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.tmux("capture-pane", "-p", "-t", "evil").decode("utf-8", "replace")
            if re.search(pattern, screen, re.M):
                return screen
            time.sleep(0.1)
        self.fail("the screen never showed %r; it shows:\n%s" % (pattern, screen))

    def test_long_move_list_and_impossible_positions(self):
        bad = [style12(b"KKKKKKKK " * 7 + b"KKKKKKKK", 7, 30),
               style12(b"-------- " * 7 + b"--------", 7, 30, side=b"B"),
               style12(START, 7, 30).replace(b" 300000 300000 ", b" 300000 -99999999999999 ")]
        flood = b"".join(b"bob tells you: line %d\n\r" % i for i in range(2000))
        # The flood goes first; the reply to the client's "moves 7" and the bad positions after.
        # A line wider than the screen, cut by the client where a character ends.
        wide = b"x" * 99 + "\u00e9".encode() + b"tail"
        fake = FakeFics([style12(START, 7, 30) + b"\n\r" + flood + wide + b"\n\r"], replies={
            b"moves 7": (movelist(7, 10000), b"\n\r".join(bad) + b"\n\rLAST-LINE\n\rfics% ")})
        began = time.monotonic()
        self.start(fake.port)
        screen = self.wait_screen(r"^LAST-LINE$")
        print("2,000 lines with the board up, then 10,000 moves: %.1f s"
              % (time.monotonic() - began))
        self.assertIn("(earlier moves of game 7 not shown: the server's list has more than 17700 "
                      "half-moves)", screen)
        self.assertEqual(screen.count("(the server sent a position the client cannot show: "
                                      "ignored)"), len(bad), screen)
        self.assertIn("Game 7: alice vs. bob", screen)
        self.assertIn("bob tells you: line 1999", screen)
        self.assertIn("\n" + "x" * 99 + "\u00e9\n", screen)
        self.assertRegex(screen, r"\n8  r  n  b  q  k  b  n  r\n")
        self.assertNotIn("exit=", screen)               # still running
        self.assertIn(b"moves 7", fake.received)

    def test_flood_redraws_once_per_read(self):
        """20,000 lines with the board up: the screen is redrawn per read, not per line
        (it was 20,000 full redraws, 14 s behind the server on this machine)."""
        lines = 20000
        flood = b"".join(b"bob tells you: line %d\n\r" % i for i in range(lines))
        fake = FakeFics([style12(START, 7, 1) + b"\n\r" + flood + b"LAST-LINE\n\r"])
        master, slave = os.openpty()
        env = dict(os.environ, HOME=self.home, XDG_CONFIG_HOME=self.home, LANG="C.UTF-8",
                   LC_ALL="C.UTF-8", TERM="xterm-256color", NO_COLOR="1")
        p = subprocess.Popen([CHESS, "--ascii", "--plain", "--user", "guest", "--port",
                              str(fake.port), "127.0.0.1"], stdin=slave, stdout=slave,
                             stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.addCleanup(os.close, master)
        self.addCleanup(p.wait)
        self.addCleanup(p.kill)
        out = b""
        deadline = time.monotonic() + TIMEOUT
        while b"LAST-LINE" not in out and time.monotonic() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                out += os.read(master, 1 << 16)
        redraws = out.count(b"\x1b[H\x1b[2J")
        self.assertTrue(b"LAST-LINE" in out, "the last line not shown within %d s (%d redraws)"
                        % (TIMEOUT, redraws))
        print("%d lines, %d redraws" % (lines, redraws))
        self.assertGreater(redraws, 0)
        self.assertLess(redraws, lines // 10)

    def test_long_legal_move_list_joins_the_board(self):
        # 2,000 moves of knights back and forth: the start position at move 2001.
        fake = FakeFics(style12(START, 8, 2001) + b"\n\rfics% ", replies={
            b"moves 8": (movelist(8, 2000), MARK + b"\n\rfics% ")})
        self.start(fake.port)
        screen = self.wait_screen(r"2000\. Ng1 +Ng8")
        self.assertIn("1999. Nf3     Nf6", screen)
        self.assertIn("Game 8: alice vs. bob", screen)

    def test_lines_wider_than_the_screen_wrap_below_the_board(self):
        # A tell and the reconnect key's instructions, each wider than the 100 columns.
        tell = b"bob tells you: " + b" ".join(b"word%03d" % i for i in range(30))
        key = (b"Your reconnect key is 64c827dc3d17eecc000e0c3414e12571: if you lose contact, "
               b"log in as GuestEVIL and give it as the password.")
        fake = FakeFics([style12(START, 7, 1) + b"\n\r" + tell + b"\n\r" + key + b"\n\r"])
        self.start(fake.port)
        screen = self.wait_screen(r"^" + MARK.decode() + "$")
        self.assertRegex(screen, r"\n8  r  n  b  q  k  b  n  r\n")     # the board is up
        rows = screen.splitlines()
        for text in (tell.decode(), key.decode()):
            at = next(i for i, r in enumerate(rows) if r and text.startswith(r))
            wrapped = [text[i:i + 100].rstrip() for i in range(0, len(text), 100)]
            self.assertEqual(rows[at:at + len(wrapped)], wrapped, "none of it lost")

    def test_a_line_taller_than_the_room_shows_its_end(self):
        huge = b" ".join(b"%07d" % i for i in range(600))       # 4,799 characters, 48 rows
        fake = FakeFics([style12(START, 7, 1) + b"\n\r" + huge + b"\n\r"],
                        mark=b"y" * 150)
        self.start(fake.port)
        screen = self.wait_screen(r"^" + "y" * 50 + "$")
        rows = screen.rstrip().splitlines()
        self.assertEqual(rows[0], "Game 7: alice vs. bob (5 0)")    # the board stays at the top
        self.assertEqual(rows[-3:], ["y" * 100, "y" * 50, ">"])
        text = huge.decode()
        tail = rows[rows.index("   a  b  c  d  e  f  g  h") + 2:-3]      # below White's clock
        self.assertTrue(tail and len(tail) < 48, tail)
        wrapped = [text[i:i + 100].rstrip() for i in range(0, len(text), 100)]
        self.assertEqual(tail, wrapped[-len(tail):], "the rows that fit, from the end")


if __name__ == "__main__":
    unittest.main(verbosity=2)
