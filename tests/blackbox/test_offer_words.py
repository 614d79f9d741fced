#!/usr/bin/env python3
"""accept, decline and withdraw by the offer's type, as lasker's pending.c
reads them (WordToOffer: match, draw, pause, unpause, abort, takeback,
adjourn, switch, all, or a player's name), and in the form pychess sends
from its menus: "withdraw t draw", "accept t draw", "decline t takeback".
The commands are the ones the installed pychess's OfferManager itself
sends (its withdraw/accept/decline run on a recording connection under the
system python), so a change in pychess shows here."""
import json
import re
import subprocess

from games_harness import GamesTestCase, main
from test_conformance_pychess import SYSTEM_PYTHON

# pychess's own OfferManager methods, recorded: what its menus send.
PYCHESS_SENDS = r'''
import builtins, json
builtins.__dict__.setdefault("_", lambda s: s)
import gi
gi.require_version("Gtk", "3.0")
from pychess.ic.managers import OfferManager as M
from pychess.Utils.Offer import Offer
sent = []
class Client:
    def run_command(self, line):
        sent.append(line)
class Connection:
    client = Client()
om = M.OfferManager.__new__(M.OfferManager)
om.connection = Connection()
out = {}
for word, kind in M.strToOfferType.items():
    row = {}
    for verb in ("withdraw", "accept", "decline"):
        del sent[:]
        try:
            getattr(om, verb)(Offer(kind))
        except AssertionError:
            continue
        row[verb] = sent[0]
    out[word] = row
print("PYCHESS " + json.dumps(out))
'''

_sends = None


def pychess_sends():
    """{type word: {"withdraw": line, "accept": line, "decline": line}}."""
    global _sends
    if _sends is None:
        run = subprocess.run([SYSTEM_PYTHON, "-c", PYCHESS_SENDS], capture_output=True,
                             timeout=120)
        m = re.search(rb"^PYCHESS (.*)$", run.stdout, re.M)
        assert m, (run.stdout, run.stderr)
        _sends = json.loads(m.group(1))
    return _sends


# How each game offer is made, and lasker's words for it when withdrawn
# (to the opponent) and declined.
MAKE = {"draw": "draw", "abort": "abort", "adjourn": "adjourn", "takeback": "takeback 1",
        "pause": "pause", "unpause": "unpause", "switch": "switch"}
WITHDRAWN = {"draw": "draw request", "abort": "abort request",
             "adjourn": "the adjourn request", "takeback": "the takeback request",
             "pause": "pause request", "unpause": "unpause request",
             "switch": "the switch sides request"}
DECLINED = {"switch": "switch sides"}


class OfferWords(GamesTestCase):

    def players(self, srv):
        w, b = self.guest_player(srv), self.guest_player(srv)
        for c in (w, b):
            self.assertIn(b"pendinfo set.", self.cmd(c, "iset pendinfo 1"))
        n, _ = self.start_match(w, b, "5 0")
        return n, w, b

    def offer(self, asker, other, kind):
        """asker makes the offer; returns its number from <pt>, seen as <pf> by other."""
        out = self.cmd(asker, MAKE[kind])
        self.assertIn(b"request sent.", out)
        m = re.search(rb"<pt> (\d+) w=%s t=%s " % (other.name.encode(), kind.encode()), out)
        self.assertTrue(m, out)
        self.expect_line(other, r"<pf> %s w=%s t=%s p=\S+" % (m.group(1).decode(), asker.name,
                                                               kind))
        return int(m.group(1))

    def gone(self, number, said_by, other, out, mark):
        """The offer is off the books for both: <pr> to each (to other since
        mark in what it received), none pending."""
        self.assertIn(b"<pr> %d\n\r" % number, out)
        for c in (other, said_by):
            self.assertNotRegex(self.cmd(c, "pending"), rb" %d: " % number)
        self.assertIn(b"<pr> %d\n\r" % number, other.seen[mark:])

    def withdraw_and_decline(self, asker, other, kind):
        sends = pychess_sends()[kind]
        self.assertEqual(sends["withdraw"], "withdraw t %s" % kind)
        number = self.offer(asker, other, kind)
        mark = len(other.seen)
        out = self.cmd(asker, sends["withdraw"])
        self.assertIn(("You withdraw the %s request to %s." % (
            DECLINED.get(kind, kind), other.name)).encode(), out)
        self.expect_line(other, re.escape("%s withdraws %s." % (asker.name, WITHDRAWN[kind])))
        self.gone(number, asker, other, out, mark)
        number = self.offer(asker, other, kind)
        self.assertEqual(sends["decline"], "decline t %s" % kind)
        mark = len(asker.seen)
        out = self.cmd(other, sends["decline"])
        what = DECLINED.get(kind, kind)
        self.assertIn(("You decline the %s request from %s." % (what, asker.name)).encode(), out)
        self.expect_line(asker, re.escape("%s declines the %s request." % (other.name, what)))
        self.gone(number, other, asker, out, mark)

    def accept(self, asker, other, kind):
        number = self.offer(asker, other, kind)
        line = pychess_sends()[kind]["accept"]
        self.assertEqual(line, "accept t %s" % kind)
        out = self.cmd(other, line)
        self.assertIn(b"<pr> %d\n\r" % number, out)
        return out

    def test_pychess_menus_answer_every_game_offer(self):
        # Every type pychess answers from its menus is one chessd knows
        # (resign and flag it never offers).
        self.assertEqual(set(pychess_sends()) - {"resign", "flag"}, set(MAKE) | {"match"})
        n, w, b = self.players(self.game_server())
        # switch, before the first move: withdrawn, declined, then accepted.
        self.withdraw_and_decline(w, b, "switch")
        self.accept(w, b, "switch")
        d = self.expect12(w)
        self.assertEqual((d["white"], d["black"]), (b.name, w.name))
        w, b = b, w
        self.play_moves(w, b, ["e2e4", "e7e5"])
        for kind in ("draw", "abort", "adjourn", "takeback", "pause"):
            self.withdraw_and_decline(w, b, kind)
        # The game went on through all of it.
        self.play_moves(w, b, ["g1f3", "b8c6"])
        self.assertIn(b"Game clock paused.", self.accept(b, w, "pause"))
        self.withdraw_and_decline(w, b, "unpause")
        self.assertIn(b"Game clock resumed.", self.accept(w, b, "unpause"))
        self.accept(w, b, "takeback")
        d = self.expect12(w)
        self.assertEqual((d["side"], d["moveno"], d["san"]), ("B", 2, "Nf3"))
        self.accept(b, w, "draw")
        self.assertEqual(self.end_line(b)[4], "1/2-1/2")
        # A second game ends by an accepted abort.
        n, w, b = self.players(self.game_server())
        self.play_moves(w, b, ["e2e4", "e7e5"])
        self.accept(w, b, "abort")
        self.assertIn("aborted", self.end_line(w)[3])

    def test_bare_type_words_and_all_in_a_game(self):
        n, w, b = self.players(self.game_server())
        self.play_moves(w, b, ["e2e4", "e7e5"])
        # lasker's bare words mean what pychess's "t WORD" does.
        number = self.offer(w, b, "draw")
        mark = len(b.seen)
        out = self.cmd(w, "withdraw draw")
        self.assertIn(b"You withdraw the draw request to %s." % b.name.encode(), out)
        self.gone(number, w, b, out, mark)
        # decline all: every offer made to one.
        draw, pause = self.offer(w, b, "draw"), self.offer(w, b, "pause")
        mark = len(w.seen)
        out = self.cmd(b, "decline all")
        for text in ("You decline the draw request from %s." % w.name,
                     "You decline the pause request from %s." % w.name):
            self.assertIn(text.encode(), out)
        self.gone(draw, b, w, out, mark)
        self.gone(pause, b, w, out, mark)
        self.assertIn(b"You have no pending offers from other players.",
                      self.cmd(b, "decline all"))
        # withdraw all: each of one's own, and not the opponent's.
        draw, abort = self.offer(w, b, "draw"), self.offer(w, b, "abort")
        takeback = self.offer(b, w, "takeback")
        mark = len(b.seen)
        out = self.cmd(w, "withdraw all")
        self.assertIn(b"You withdraw the draw request to %s." % b.name.encode(), out)
        self.assertIn(b"You withdraw the abort request to %s." % b.name.encode(), out)
        self.gone(draw, w, b, out, mark)
        self.gone(abort, w, b, out, mark)
        self.assertRegex(self.cmd(w, "pending"), rb" %d: %s is offering to takeback"
                         % (takeback, b.name.encode()))
        # accept all: the first offer there is (lasker's find_pend), here the takeback.
        self.assertIn(b"<pr> %d\n\r" % takeback, self.cmd(w, "accept all"))
        d = self.expect12(b)
        self.assertEqual((d["side"], d["moveno"], d["san"]), ("B", 1, "e4"))
        self.play_moves(w, b, ["e7e5"], first="black")

    def test_match_and_all_for_challenges(self):
        srv = self.game_server()
        x, p1, p2, p3 = (self.guest_player(srv) for _ in range(4))
        for c in (p1, p2):
            self.assertIn(b"Issuing: ", self.cmd(c, "match %s 3 0" % x.name))
        self.assertIn(b"Issuing: ", self.cmd(x, "match %s 4 0" % p3.name))
        out = self.cmd(x, "decline match")
        for c in (p1, p2):
            self.assertIn(b"You decline the match offer from %s." % c.name.encode(), out)
            self.expect_line(c, re.escape("%s declines the match offer." % x.name))
        self.assertIn(b"You have no offers to accept.", self.cmd(x, "accept t match"))
        out = self.cmd(x, "pending")
        self.assertIn(b"You are offering %s a challenge" % p3.name.encode(), out)
        self.assertIn(b"There are no offers pending FROM other players.", out)
        out = self.cmd(x, "withdraw t all")
        self.assertIn(b"You withdraw the match offer to %s." % p3.name.encode(), out)
        self.expect_line(p3, re.escape("%s withdraws the match offer." % x.name))
        self.assertIn(b"You have no pending offers to other players.",
                      self.cmd(x, "withdraw match"))
        # accept all (and accept t match) start the game of the oldest challenge.
        for c in (p1, p2):
            self.assertIn(b"Issuing: ", self.cmd(c, "match %s 3 0" % x.name))
        self.assertIn(b"You accept the challenge of %s." % p1.name.encode(),
                      self.cmd(x, "accept all"))
        self.expect_line(p1, re.escape("%s accepts your challenge." % x.name))
        self.expect12(p1)

    def test_bad_words(self):
        srv = self.game_server()
        n, w, b = self.players(srv)
        self.play_moves(w, b, ["e2e4", "e7e5"])
        self.assertIn(b"You have no pending offers to other players.",
                      self.cmd(w, "withdraw t draw"))
        self.assertIn(b"You have no offers to accept.", self.cmd(w, "accept t draw"))
        self.offer(w, b, "pause")
        self.assertIn(b"There are no pending draw offers.", self.cmd(b, "accept t draw"))
        self.assertIn(b"There are no pending match offers.", self.cmd(b, "decline t match"))
        self.assertIn(b"There are no pending takeback offers.", self.cmd(w, "withdraw takeback"))
        for verb in ("accept", "decline", "withdraw"):
            out = self.cmd(b, "%s t" % verb)
            self.assertIn(b"Usage: %s t <type>" % verb.encode(), out)
            out = self.cmd(b, "%s t castle" % verb)
            self.assertIn(b'"castle" is not a kind of offer', out)
        self.assertIn(b'No user named "nobodyhere" is logged in.',
                      self.cmd(b, "decline nobodyhere"))
        # None of it touched the pause offer, and the game goes on.
        self.assertIn(b"Game clock paused.", self.cmd(b, "accept t pause"))

    def test_a_name_is_the_logged_in_opponent(self):
        srv = self.game_server()
        n, w, b = self.players(srv)
        self.play_moves(w, b, ["e2e4", "e7e5"])
        number = self.offer(w, b, "draw")
        mark = len(w.seen)
        out = self.cmd(b, "decline %s" % w.name)
        self.assertIn(b"You decline the draw request from %s." % w.name.encode(), out)
        self.gone(number, b, w, out, mark)
        number = self.offer(w, b, "abort")
        mark = len(b.seen)
        out = self.cmd(w, "withdraw %s" % b.name)
        self.assertIn(b"You withdraw the abort request to %s." % b.name.encode(), out)
        self.gone(number, w, b, out, mark)
        self.offer(w, b, "pause")
        self.assertIn(b"Game clock paused.", self.cmd(b, "accept %s" % w.name))

    def test_help_names_the_words(self):
        c = self.guest_player(self.game_server())
        for verb in ("accept", "decline", "withdraw"):
            out = self.cmd(c, "help %s" % verb)
            self.assertIn(b"decline draw   (or: decline t draw)", out)
            self.assertIn(b"withdraw all   (or: withdraw t all)", out)


if __name__ == "__main__":
    main()
