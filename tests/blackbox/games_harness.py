"""Helpers for the live-game black-box tests (test_games*.py).

Builds on chessd_harness (server start/kill, clients, logins) and adds what
games need: style 12 parsing, starting a game with match/accept or
seek/play, making moves and waiting for their echoes, and a tiny bridge to
the chess-rules tool for legal moves.  Python standard library only.
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
from chessd_harness import ChessdTestCase, CHESSD, ROOT  # noqa: E402,F401

CHESS_RULES = os.environ.get("CHESS_RULES") or os.path.join(ROOT, "build", "bin", "chess-rules")

# Game tests wait for several round trips and for server-side timers; under
# ASan on a loaded machine everything is 3-5x slower, so be generous.
GT = max(float(os.environ.get("CHESSD_TEST_TIMEOUT", "0") or 0), 30.0)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# No rate limiting in the way of fast games.
FAST = {"commands_per_sec": 1000, "command_burst": 1000}

S12_RE = re.compile(rb"<12> ([^\n\r]*)\n\r")
# Where a server line may start: after a line end, or after a prompt.
LS = rb"(?:\A|\n\r|fics% )"

S12_FIELDS = ["side", "dpp", "wk", "wq", "bk", "bq", "halfmoves", "game", "white", "black",
              "relation", "initial", "increment", "wmat", "bmat", "wclock", "bclock",
              "moveno", "verbose", "taken", "san", "flip", "ticking", "lag"]
S12_INTS = {"dpp", "wk", "wq", "bk", "bq", "halfmoves", "game", "relation", "initial",
            "increment", "wmat", "bmat", "wclock", "bclock", "moveno", "flip", "ticking", "lag"}


def parse12(text):
    """Parses the fields after "<12> " into a dict (ranks as a list)."""
    if isinstance(text, bytes):
        text = text.decode()
    if text.startswith("<12> "):
        text = text[5:]
    parts = text.split(" ")
    if len(parts) != 32:
        raise AssertionError("style 12 line has %d fields, not 32: %r" % (len(parts), text))
    d = {"ranks": parts[:8], "raw": "<12> " + text}
    for k, v in zip(S12_FIELDS, parts[8:]):
        d[k] = int(v) if k in S12_INTS else v
    return d


def board_fen_part(d):
    """The piece placement of a parsed style 12 board, as in FEN."""
    out = []
    for r in d["ranks"]:
        s, n = "", 0
        for ch in r:
            if ch == "-":
                n += 1
            else:
                if n:
                    s += str(n)
                    n = 0
                s += ch
        if n:
            s += str(n)
        out.append(s)
    return "/".join(out)


# --- chess-rules bridge ---

def rules(*args, check=True):
    # Retries for a little while if the binary is being relinked under us.
    for attempt in range(50):
        try:
            r = subprocess.run([CHESS_RULES] + list(args), capture_output=True, text=True,
                               timeout=60)
            break
        except OSError:
            if attempt == 49:
                raise
            time.sleep(0.2)
    if check and r.returncode != 0:
        raise AssertionError("chess-rules %s failed (%d): %s%s" % (
            " ".join(args), r.returncode, r.stdout, r.stderr))
    return r


def fen_after(moves, start=START_FEN):
    """FEN after playing moves (UCI or SAN) from start."""
    out = rules("status", start, *moves).stdout
    m = re.search(r"^fen: (.*)$", out, re.M)
    return m.group(1)


def status_after(moves, start=START_FEN):
    out = rules("status", start, *moves).stdout
    return dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)


def legal_moves(fen):
    """Legal moves in UCI (e2e4, e7e8q) of a position."""
    out = rules("perft", fen, "1", "--divide").stdout
    return [line.split(":")[0] for line in out.splitlines()
            if re.match(r"^[a-h][1-8][a-h][1-8][nbrq]?: ", line)]


def san_of(moves, start=START_FEN):
    """SAN of each of the moves, from start."""
    return rules("san", start, *moves).stdout.split()


# --- the test case ---

class GamesTestCase(ChessdTestCase):
    """ChessdTestCase plus game helpers.  Every server is plain TCP only."""

    def game_server(self, config=None, **kw):
        cfg = dict(FAST)
        cfg.update(config or {})
        return self.start_server(config=cfg, tls=False, **kw)

    def setup_client(self, c, ms=True):
        out = self.cmd(c, "style 12")
        self.assertIn(b"Style 12 set.", out)
        if ms:
            self.assertIn(b"ms set.", self.cmd(c, "iset ms 1"))
        return c

    def guest_player(self, srv, ms=True):
        c = self.connect(srv)
        c.login_guest(GT)
        return self.setup_client(c, ms)

    def user_player(self, srv, name, password, ms=True):
        c = self.connect(srv)
        c.login(name, password, timeout=GT)
        return self.setup_client(c, ms)

    def take_back(self, asker, other, plies=None):
        """asker asks to take back plies (one if None), other accepts; both see the board."""
        asker.send_line("takeback" if plies is None else "takeback %d" % plies)
        other.expect(b"would like to take back")
        other.send_line("accept")
        self.expect12(asker)
        self.expect12(other)

    def two_users(self):
        """A server with the accounts alice and bob, both logged in."""
        srv = self.new_server(config=dict(FAST), tls=False)
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        srv.start()
        return (srv, self.user_player(srv, "alice", "apass1"),
                self.user_player(srv, "bob", "bpass1"))

    # --- commands ---
    _sync = 0

    def cmd(self, c, line, timeout=GT):
        """Sends a command and returns everything received up to the end of
        its reply (including notifications that arrived before it).  The end
        is found with a sentinel unknown command sent right behind it, so a
        stale prompt in the buffer cannot cut the reply short."""
        GamesTestCase._sync += 1
        tag = "zzsync%d" % GamesTestCase._sync
        c.send_raw(("%s\n%s\n" % (line, tag)).encode())
        out = c.expect(tag.encode() + b": Command not found.\n\rfics% ", timeout)
        out = out[:out.rindex(tag.encode())]
        while out.startswith(b"fics% "):
            out = out[6:]
        if out.endswith(b"fics% "):
            out = out[:-6]
        return out

    # --- reading ---
    def expect12(self, c, timeout=GT, **want):
        """Waits for the next style 12 line on c (skipping ones that do not
        match want, e.g. san="e4") and returns it parsed."""
        deadline = time.monotonic() + timeout
        while True:
            c.expect(S12_RE, max(0.1, deadline - time.monotonic()))
            d = parse12(c.match.group(1))
            if all(d.get(k) == v for k, v in want.items()):
                return d
            if time.monotonic() > deadline:
                raise AssertionError("no style 12 with %r; last %r" % (want, d["raw"]))

    def expect_line(self, c, regex, timeout=GT):
        """Waits for a whole line matching regex (str); returns the match."""
        rx = re.compile(LS + rb"(" + regex.encode() + rb")\n\r")
        c.expect(rx, timeout)
        return c.match

    # --- starting games ---
    def start_match(self, white, black, terms="1 0", ms=None):
        """white challenges black (asking for white), black accepts.
        Returns the game number and the creation lines each side saw."""
        out = self.cmd(white, "match %s %s white" % (black.name, terms))
        self.assertIn(b"Issuing: ", out)
        black.expect(b"Challenge: ", GT)
        black.expect(b'You can "accept" or "decline", or propose different parameters.', GT)
        black.send_line("accept")
        got = {}
        for who, c in (("white", white), ("black", black)):
            c.expect(re.compile(LS + rb"(Creating: [^\n]*)\n\r(\{Game (\d+) [^\n]*\})\n\r\n\r<12> ([^\n\r]*)\n\r"),
                     GT)
            got[who] = (c.match.group(1).decode(), c.match.group(2).decode(),
                        int(c.match.group(3)), parse12(c.match.group(4)))
        self.assertEqual(got["white"][2], got["black"][2])
        return got["white"][2], got

    def move(self, mover, opp, mv, observers=(), san=None):
        """mover plays mv; waits until mover, opponent and observers all
        saw the new board.  Returns the mover's parsed board."""
        mover.send_line(mv)
        d = self.expect12(mover)
        if san is not None:
            self.assertEqual(d["san"], san, d["raw"])
        o = self.expect12(opp)
        self.assertEqual(o["ranks"], d["ranks"])
        self.assertEqual(o["san"], d["san"])
        for ob in observers:
            b = self.expect12(ob)
            self.assertEqual(b["ranks"], d["ranks"])
        return d

    def play_moves(self, white, black, moves, observers=(), first="white"):
        """Plays a list of moves alternately, white first (or black)."""
        order = [white, black] if first == "white" else [black, white]
        d = None
        for i, mv in enumerate(moves):
            d = self.move(order[i % 2], order[1 - i % 2], mv, observers)
        return d

    def end_line(self, c, timeout=GT):
        """Waits for a {Game N (W vs. B) reason} result line; returns
        (number, white, black, reason, result)."""
        c.expect(re.compile(rb"\{Game (\d+) \((\w+) vs\. (\w+)\) ([^}\n]*)\} (\*|1/2-1/2|1-0|0-1)\n\r"),
                 timeout)
        m = c.match
        return (int(m.group(1)), m.group(2).decode(), m.group(3).decode(), m.group(4).decode(),
                m.group(5).decode())


def main():
    for path, what in ((CHESSD, "chessd"), (CHESS_RULES, "chess-rules")):
        if not os.access(path, os.X_OK):
            sys.stderr.write("%s binary not found: %s (set CHESSD / CHESS_RULES)\n" % (what, path))
            sys.exit(2)
    import unittest
    unittest.main(verbosity=2)
