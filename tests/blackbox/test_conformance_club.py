"""Club time controls as pychess reads them.

FICS has no form for a control of several periods ("40/90,30+30"), a
delay or odd seconds; clients read two numbers, minutes and increment.
A game played at 40/90,30+30 is captured from a live server and fed to
the installed pychess (its own managers, through test_conformance_pychess's
oracle, and OfferManager's own offer pattern): the creation line, the
observe header, the movelist header and the offer all give pychess the
first period's 90 minutes and the 30 s increment.  People still read the
control itself: in the challenge, the seek announcement and the PGN.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from games_harness import GT, GamesTestCase, main  # noqa: E402
from test_conformance_pychess import SYSTEM_PYTHON, ask_pychess, handlers  # noqa: E402

# Applies pychess's own offer patterns (OfferManager.matchre, matchreUntimed)
# to the parameters of each <pf>, as OfferManager.onOfferAdd does.
OFFER_ORACLE = r"""
import json, sys
from pychess.ic.managers import OfferManager as om
out = []
for params in json.load(sys.stdin):
    m = om.matchreUntimed.match(params) or om.matchre.match(params)
    out.append(list(m.groups()) if m else None)
json.dump(out, sys.stdout)
"""

CLUB = "40/90,30+30"


def pychess_offers(params):
    r = subprocess.run([SYSTEM_PYTHON, "-c", OFFER_ORACLE], input=json.dumps(params),
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, GDK_BACKEND="x11", DISPLAY=""))
    if r.returncode != 0:
        raise AssertionError("pychess offer oracle failed (%d):\n%s" % (r.returncode,
                                                                        r.stderr[-4000:]))
    return json.loads(r.stdout)


class ClubControlTest(GamesTestCase):

    def setUp(self):
        super().setUp()
        self.block_id = 0

    def block_client(self, c):
        c.send_line("iset block 1")
        c.expect(b"block set.\n\rfics% ", GT)
        return c

    def bcmd(self, c, line, timeout=GT):
        self.block_id += 1
        c.send_line("%d %s" % (self.block_id, line))
        c.expect(re.compile(rb"\x15%d\x16(\d+)\x16(.*?)\x17\n\r" % self.block_id, re.S), timeout)
        return int(c.match.group(1)), c.match.group(2)

    def test_pychess_reads_a_club_control_as_fics_numbers(self):
        srv = self.game_server()
        srv.useradd("alice", "alicepw1")
        srv.useradd("bob", "bobpw1")
        a = self.block_client(self.user_player(srv, "alice", "alicepw1"))
        b = self.block_client(self.user_player(srv, "bob", "bobpw1"))
        o = self.block_client(self.guest_player(srv))
        self.bcmd(b, "iset pendinfo 1")

        # People reading a seek see the control itself.
        self.bcmd(a, "seek %s unrated" % CLUB)
        b.expect(re.compile(rb"alice \([^)]*\) seeking ([^\n]*) \(\"play \d+\" to respond\)"), GT)
        self.assertIn(CLUB.encode(), b.match.group(1))
        self.bcmd(a, "unseek")

        self.bcmd(a, "match bob %s unrated white" % CLUB)
        b.expect(re.compile(rb"Challenge: ([^\n]*)\n\r"), GT)
        challenge = b.match.group(1).decode()
        self.assertIn("(%s)" % CLUB, challenge)      # for the person asked
        b.expect(b'You can "accept" or "decline", or propose different parameters.', GT)
        b.expect(b"<pf> ", GT)
        code, reply = self.bcmd(b, "accept")
        self.assertIn(b"<12> ", reply)
        self.expect12(a)
        self.bcmd(o, "observe alice")
        for mover, others, mv in ((a, (b, o), "e4"), (b, (a, o), "e5")):
            self.bcmd(mover, mv)
            for c in others:
                self.expect12(c, san=mv)
        self.bcmd(o, "moves alice")
        code, pgn = self.bcmd(a, "pgn")
        self.bcmd(a, "resign")
        self.end_line(b)
        self.end_line(o)
        o.read_for(0.3)

        got = ask_pychess({"alice": a.seen, "bob": b.seen, "observer": o.seen})["transcripts"]
        for who in ("alice", "bob"):
            made = handlers(got[who], "onPlayGameCreated")
            self.assertEqual(len(made), 1, (who, got[who]))
            self.assertEqual(made[0]["groups"][0][4:], ["unrated", "standard", "90", "30"])
            # The board pychess opens has the clocks it reads from style 12.
            boards = handlers(got[who], "onStyle12")
            self.assertTrue(boards, got[who])
        obs = handlers(got["observer"], "onObserveGameCreated")
        self.assertEqual(len(obs), 1, got["observer"])
        self.assertEqual(obs[0]["groups"][1][5:], ["unrated", "standard", "90", "30"])
        moves = handlers(got["observer"], "onObserveGameMovesReceived")
        self.assertEqual(len(moves), 1, got["observer"])
        self.assertEqual([[x.lower() for x in h] for h in moves[0]["header2"]],
                         [["unrated", "standard", "90", "30"]], moves[0])
        # Style 12's base and increment fields, as the players' clients got them.
        s12 = re.findall(r"<12> [^\n\r]*", a.seen.decode("latin-1"))
        self.assertTrue(s12)
        for line in s12:
            self.assertEqual(line.split()[20:22], ["90", "30"], line)

        offers = handlers(got["bob"], "onOfferAdd")
        self.assertEqual(len(offers), 1, got["bob"])
        parsed = pychess_offers([offers[0]["groups"][0][3]])
        self.assertIsNotNone(parsed[0], "pychess's OfferManager cannot read %r" %
                             offers[0]["groups"][0][3])
        self.assertEqual(parsed[0][:8], ["alice", "----", "white", "bob", "----", "unrated",
                                         "standard", "90"])
        self.assertEqual(parsed[0][8], "30")
        # The record keeps the control: PGN's TimeControl as the PGN standard writes it.
        self.assertIn(b'[TimeControl "40/5400+30:1800+30"]', pgn)


if __name__ == "__main__":
    main()
