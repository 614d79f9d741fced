#!/usr/bin/env python3
"""FIDE 6.9 and 5.2.2 as a player meets them: a flag against a side whose
opponent cannot mate by any series of legal moves is a draw (whatever the
material), with a winnable opponent a loss (whatever the material count
says); the same for a win claimed over a player who did not come back;
"draw" when the opponent cannot mate ends the game at once, otherwise it is
an ordinary offer; a dead position reached by a move ends the game at once.

The end lines are FICS's (lasker's gameproc.c: END_FLAGNOMATERIAL "%s ran out
of time and %s has no material to mate", END_NOMATERIAL "Neither player has
mating material") and are checked through pychess's own end-of-game pattern
and parse_reason.

Users cannot start a game from a position, so each game is one the two
accounts stored earlier (adjourned, from a start position, as a stored game
may be) and resume.  (test_unwinnable_verdict.py: the decision off the loop.)
"""
import json
import re
import sqlite3
import subprocess
import time

from chessd_harness import Server
from games_harness import FAST, GT, LS, GamesTestCase, main
from lists_harness import PYCHESS_PRELUDE, SYSTEM_PYTHON, pychess_patterns

# pychess's own reading of an end line: the BoardManager's pattern (as it
# registers it, argv[1]) and parse_reason, by constant name.
_PYCHESS_END = PYCHESS_PRELUDE + r'''
import re
from pychess.ic.managers import BoardManager as BM
from pychess.Utils import const
pat = re.compile(sys.argv[1])
reasons = {v: k for k, v in vars(const).items() if isinstance(v, int) and
           k.startswith(("WON_", "DRAW_", "UNKNOWN_REASON"))}
results = {getattr(const, k): k for k in ("WHITEWON", "BLACKWON", "DRAW")}
out = []
for line in json.loads(sys.stdin.read()):
    m = pat.match(line)
    if not m:
        out.append(None)
        continue
    gameno, wname, bname, comment, result = m.groups()
    r, why = BM.parse_reason(const.reprResult.index(result), comment, wname=wname)
    out.append([results.get(r, r), reasons.get(why, why)])
print(json.dumps(out))
'''


def pychess_reads(lines):
    """[[result, reason], ...] as pychess names them; None where its pattern misses."""
    pat = pychess_patterns(("BoardManager",))["on_game_remove"][0][0]
    r = subprocess.run([SYSTEM_PYTHON, "-c", _PYCHESS_END, pat], input=json.dumps(lines),
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise AssertionError("pychess could not be loaded: " + r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


END_RE = re.compile(rb"(\{Game (\d+) \((\w+) vs\. (\w+)\) ([^}\n]*)\} (\*|1/2-1/2|1-0|0-1))\n\r")

# Black's h-pawn falls at once (Kxh2 is White's only move): Black has material
# by count (FICS would score White's flag a loss) but can never mate.
DOOMED_PAWN = "8/8/8/8/8/5k2/7p/7K w - - 0 1"
# Knight against pawn: the count says the knight cannot mate, yet with the
# pawn's help (it blocks its own king) it can.
KNIGHT_V_PAWN = "8/8/4k3/4p3/8/4K3/8/1N6 b - - 0 1"
# Knight against queen: the knight's side cannot mate, the queen's side can.
KNIGHT_V_QUEEN = "8/8/4k3/8/3q4/8/4K3/1N6 w - - 0 1"
# One push (g4) from a frozen pawn wall that neither king can cross.
WALL_BUT_ONE = "8/8/3k4/p1p1p1p1/P1P1P3/6P1/3K4/8 w - - 0 1"


PASSWORD = "storedpw1"

# Every end line these tests meet, with what pychess must read in it.
END_LINES = {
    "flag_draw": ("{Game %d (alice vs. bob) alice ran out of time and bob has no material to "
                  "mate} 1/2-1/2", ["DRAW", "DRAW_BLACKINSUFFICIENTANDWHITETIME"]),
    "flag_loss": ("{Game %d (carol vs. dave) dave forfeits on time} 1-0",
                  ["WHITEWON", "WON_CALLFLAG"]),
    "away_draw": ("{Game %d (erin vs. frank) Game drawn because frank disconnected and erin has "
                  "no material to mate} 1/2-1/2", ["DRAW", "DRAW_INSUFFICIENT"]),
    "away_win": ("{Game %d (gina vs. hank) gina forfeits by disconnection} 0-1",
                 ["BLACKWON", "WON_DISCONNECTION"]),
    "dead_wall": ("{Game %d (ivan vs. judy) Neither player has mating material} 1/2-1/2",
                  ["DRAW", "DRAW_INSUFFICIENT"]),
    "dead_bare": ("{Game %d (kate vs. liam) Neither player has mating material} 1/2-1/2",
                  ["DRAW", "DRAW_INSUFFICIENT"]),
    "claim": ("{Game %d (mona vs. nick) Game drawn because mona has no material to mate} "
              "1/2-1/2", ["DRAW", "DRAW_INSUFFICIENT"]),
}


def stored_games(srv, games):
    """Accounts (one password) with stored, adjourned games from the given
    positions: games is [(white, black, fen, white_ms, black_ms)].  Returns
    {(white, black): row id}.  One useradd; the other accounts share its hash."""
    names = []
    for w, b, *_ in games:
        names += [n for n in (w, b) if n not in names]
    srv.useradd(names[0], PASSWORD)
    ids = {}
    with sqlite3.connect(srv.db_path) as db:
        for n in names[1:]:
            db.execute("INSERT INTO users (name, password, created) SELECT ?, password, created "
                       "FROM users WHERE name = ?", (n, names[0]))
        uid = dict(db.execute("SELECT name, id FROM users").fetchall())
        for w, b, fen, wms, bms in games:
            cur = db.execute(
                "INSERT INTO games (white, black, white_id, black_id, white_rating, "
                "black_rating, rated, category, time_control, start_fen, started, status, "
                "reason, white_clock, black_clock, clock_ply) VALUES (?, ?, ?, ?, '----', "
                "'----', 0, 'lightning', '1+0', ?, 0, 'adjourned', "
                "'Game adjourned by mutual agreement', ?, ?, 0)",
                (w, b, uid[w], uid[b], fen, "%d:0:0:0" % wms, "%d:0:0:0" % bms))
            ids[(w, b)] = cur.lastrowid
    return ids


class StoredGames(GamesTestCase):

    @classmethod
    def serve(cls, games, **config):
        """One server for the class (FAST, with config over it) in cls.srv,
        holding games as stored_games takes them; their row ids in cls.ids."""
        cls.srv = Server(config=dict(FAST, **config), tls=False)
        cls.addClassCleanup(cls.srv.cleanup)
        cls.ids = stored_games(cls.srv, games)
        cls.srv.start()

    def pair(self, w, b):
        """w and b logged in to the class's server."""
        return self.login(self.srv, w), self.login(self.srv, b)

    def login(self, srv, name):
        c = self.user_player(srv, name, PASSWORD)
        c.name = name
        return c

    def resume(self, w, b):
        """Both resume their stored game; returns its number once both have the board."""
        self.cmd(w, "resume %s" % b.name)
        self.expect_line(b, re.escape("%s would like to resume your adjourned game." % w.name))
        b.send_line("resume %s" % w.name)
        n = None
        for c in (w, b):
            c.expect(re.compile(LS + rb"\{Game (\d+) \(\w+ vs\. \w+\) Continuing unrated "
                                rb"lightning match\.\}\n\r\n\r<12> ([^\n\r]*)\n\r"), GT)
            n = int(c.match.group(1))
        return n

    def end(self, c, timeout=GT):
        """The whole end line and its (number, white, black, reason, result)."""
        c.expect(END_RE, timeout)
        m = c.match
        return m.group(1).decode(), (int(m.group(2)), m.group(3).decode(), m.group(4).decode(),
                                     m.group(5).decode(), m.group(6).decode())

    def stored(self, srv, row_id):
        with sqlite3.connect(srv.db_path) as db:
            return db.execute("SELECT status, result, reason FROM games WHERE id = ?",
                              (row_id,)).fetchone()


class UnwinnableFlag(StoredGames):
    """One server for the lot; each test plays its own accounts' stored game."""

    @classmethod
    def setUpClass(cls):
        cls.serve([
            ("alice", "bob", DOOMED_PAWN, 800, 60000),
            ("carol", "dave", KNIGHT_V_PAWN, 60000, 800),
            ("erin", "frank", KNIGHT_V_QUEEN, 60000, 60000),
            ("gina", "hank", KNIGHT_V_QUEEN, 60000, 60000),
            ("ivan", "judy", WALL_BUT_ONE, 60000, 60000),
            ("kate", "liam", DOOMED_PAWN, 60000, 60000),
            ("mona", "nick", KNIGHT_V_QUEEN, 60000, 60000),
            ("olga", "paul", DOOMED_PAWN, 60000, 60000),
        ], reconnect_grace_ms=300)     # a short return grace

    def assert_end(self, players, key, n, result):
        """Each player's end line is END_LINES[key] for game n, and so is the stored row."""
        want = END_LINES[key][0] % n
        for c in players:
            line, got = self.end(c)
            self.assertEqual(line, want)
            self.assertEqual(got[4], result)
        w, b = got[1], got[2]
        reason = END_RE.match(want.encode() + b"\n\r").group(5).decode()
        self.assertEqual(self.stored(self.srv, self.ids[(w, b)]), ("finished", result, reason))

    def test_pychess_reads_each_end_line(self):
        keys = sorted(END_LINES)
        got = pychess_reads([END_LINES[k][0] % 1 for k in keys])
        self.assertEqual(dict(zip(keys, got)), {k: END_LINES[k][1] for k in keys})

    def test_help_says_how_6_9_is_applied(self):
        g = self.guest_player(self.srv)
        text = self.cmd(g, "help draw").replace(b"\n\r", b" ")
        self.assertRegex(text, rb"your opponent cannot checkmate you by any\s+series of legal "
                         rb"moves \(FIDE 6\.9\)")
        text = self.cmd(g, "help flag").replace(b"\n\r", b" ")
        self.assertRegex(text, rb"a draw if you cannot checkmate by any series of legal moves")
        self.assertIn(b"the clocks are stopped", text)

    # --- flags ---

    def test_flag_against_a_side_that_cannot_mate_is_a_draw(self):
        """Black has a pawn, so FICS's count would score White's flag a loss."""
        a, b = self.pair("alice", "bob")
        t0 = time.monotonic()
        n = self.resume(a, b)
        self.assert_end((a, b), "flag_draw", n, "1/2-1/2")
        self.assertGreaterEqual(time.monotonic() - t0, 0.7)

    def test_flag_against_a_side_that_can_mate_is_a_loss(self):
        """Knight against pawn: FICS's material count would call it a draw;
        a helpmate exists, so the flag loses."""
        c, d = self.pair("carol", "dave")
        n = self.resume(c, d)
        self.assert_end((c, d), "flag_loss", n, "1-0")

    # --- a disconnected player ---

    def test_win_claimed_over_a_disconnected_player(self):
        """The claimant who cannot mate gets a draw; the one who can, the win."""
        e, f = self.pair("erin", "frank")
        g, h = self.pair("gina", "hank")
        n1 = self.resume(e, f)
        n2 = self.resume(g, h)
        # Two plies, so that leaving no longer aborts the game.
        self.play_moves(e, f, ["Kf1", "Qd5"])
        self.play_moves(g, h, ["Kf1", "Qd5"])
        # erin (knight) claims over frank (queen); hank (queen) over gina (knight).
        for stay, gone in ((e, f), (h, g)):
            gone.close()
            self.expect_line(stay, re.escape("%s has not come back." % gone.name) + ".*", GT)
            stay.send_line("flag")
        self.assert_end((e,), "away_draw", n1, "1/2-1/2")
        self.assert_end((h,), "away_win", n2, "0-1")

    # --- dead positions ---

    def test_dead_position_reached_by_a_move_ends_at_once(self):
        """A frozen wall (which an older chessd ended with a line pychess
        could not read) and bare kings."""
        for w, b, mv, key in (("ivan", "judy", "g4", "dead_wall"),
                              ("kate", "liam", "Kxh2", "dead_bare")):
            pw, pb = self.pair(w, b)
            n = self.resume(pw, pb)
            pw.send_line(mv)
            self.assert_end((pw, pb), key, n, "1/2-1/2")

    # --- the claim that the opponent cannot mate ---

    def test_draw_claimed_because_the_opponent_cannot_mate(self):
        m, k = self.pair("mona", "nick")
        n = self.resume(m, k)
        # mona (knight) claims: nick's queen can mate, so it is an offer.
        out = self.cmd(m, "draw")
        self.assertIn(b"Draw request sent.", out)
        self.assertNotIn(b"{Game", out)
        self.expect_line(k, re.escape("mona offers you a draw."))
        # nick's move answers the offer with a no; then nick claims: mona cannot mate.
        self.move(m, k, "Kf1", san="Kf1")
        self.move(k, m, "Qd5", san="Qd5")
        out = self.cmd(k, "draw")
        self.assertIn((END_LINES["claim"][0] % n).encode(), out)
        self.assert_end((m,), "claim", n, "1/2-1/2")

    def test_draw_claim_in_block_mode_is_one_reply(self):
        """The verdict comes in the draw command's own block."""
        o, p = self.pair("olga", "paul")
        n = self.resume(o, p)
        o.send_line("iset block 1")
        o.expect(b"block set.", GT)
        o.send_line("7 draw")
        o.expect(re.compile(rb"\x157\x16(\d+)\x16([^\x17]*)\x17"), GT)
        self.assertIn(("{Game %d (olga vs. paul) Game drawn because paul has no material to "
                       "mate} 1/2-1/2" % n).encode(), o.match.group(2))


if __name__ == "__main__":
    main()
