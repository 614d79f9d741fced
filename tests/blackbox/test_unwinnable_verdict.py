#!/usr/bin/env python3
"""The 6.9 decision off the event loop: it runs on a worker thread (at most
unwinnable_nodes positions), the game waits for its verdict with its clocks
stopped and its players' actions answered with one line, everyone else is
served meanwhile, a full queue (verdict_queue) makes a game wait its turn,
and a verdict for a game that is gone is dropped."""
import re
import time

from games_harness import FAST, GT
from test_unwinnable_flag import KNIGHT_V_PAWN, StoredGames, main, stored_games

# Whether White can still mate with this crowd of bishops round two cornered
# kings takes the search its whole budget (it answers "undetermined", which
# counts as able to mate): about 0.5 s at 250,000 positions on a quiet
# machine, with either side to move, long enough to watch the loop meanwhile.
# (CHA leaves it open too; a search that decides it would end the flag at
# once, and this test fail.)
SLOW = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 b - - 0 1"


class VerdictOffTheLoop(StoredGames):

    @classmethod
    def setUpClass(cls):
        # The slow decision's budget; one decision waiting or running at a time.
        cls.serve([
            ("quinn", "rosa", SLOW, 60000, 800),
            ("sam", "tina", SLOW, 60000, 800),
            ("uma", "victor", KNIGHT_V_PAWN, 60000, 1000),
            ("walt", "xena", SLOW, 60000, 60000),
        ], unwinnable_nodes=250000, verdict_queue=1)

    def test_slow_decision_leaves_the_loop_serving(self):
        """rosa's flag falls where the decision takes its whole budget
        (250,000 positions): meanwhile another session's commands are answered
        at once, rosa's move and quinn's flag get one line each, and then the
        result comes (undetermined counts as able to mate: a loss)."""
        q, r = self.pair("quinn", "rosa")
        g = self.guest_player(self.srv)
        n = self.resume(q, r)
        t_flag = time.monotonic() + 0.8     # rosa's clock runs from here
        answered = []                       # (sent, round trip) of g's commands
        refused = {}
        end = None
        deadline = time.monotonic() + GT
        while end is None and time.monotonic() < deadline:
            t = time.monotonic()
            self.assertIn(b"Local time", self.cmd(g, "date"))
            answered.append((t, time.monotonic() - t))
            if t > t_flag + 0.15 and not refused:
                # The flag has fallen: the game waits for its verdict.
                refused["rosa"] = self.cmd(r, "Kg8")
                refused["quinn"] = self.cmd(q, "flag")
            try:
                end = (self.end(q, 0.03), time.monotonic())
            except AssertionError:
                pass
        self.assertIsNotNone(end, "no end line")
        (line, got), t_end = end
        self.assertEqual(got, (n, "quinn", "rosa", "rosa forfeits on time", "1-0"))
        self.assertEqual(self.stored(self.srv, self.ids[("quinn", "rosa")]),
                         ("finished", "1-0", "rosa forfeits on time"))
        waited = t_end - t_flag
        self.assertGreater(waited, 0.3, "the decision no longer takes long here; pick a slower "
                           "position so the test still watches the loop during one")
        during = [rt for t, rt in answered if t_flag + 0.05 < t and t + rt < t_end - 0.02]
        self.assertGreaterEqual(len(during), 3, (waited, answered))
        self.assertLess(max(during), waited / 2, (waited, answered))
        deciding = ("Game %d: the server is deciding whether quinn can still checkmate; "
                    "please wait." % n).encode()
        for who in ("rosa", "quinn"):
            self.assertIn(deciding, refused.get(who, b""), (who, refused))

    def test_claim_waits_for_its_verdict(self):
        """xena claims that walt cannot mate, which takes the search its whole
        budget: meanwhile walt's flag gets one line, and xena's reply (the
        offer: undetermined counts as able to mate) comes once it is decided."""
        w, x = self.pair("walt", "xena")
        n = self.resume(w, x)
        x.send_line("draw")
        deciding = ("Game %d: the server is deciding whether walt can still checkmate; "
                    "please wait." % n).encode()
        deadline = time.monotonic() + GT
        while True:
            out = self.cmd(w, "flag")
            if deciding in out:
                break
            # Before the claim reached the server.
            self.assertIn(b"Your opponent is not out of time.", out)
            self.assertLess(time.monotonic(), deadline)
        x.expect(b"Draw request sent.", GT)
        self.expect_line(w, re.escape("xena offers you a draw."))
        # The game goes on: walt may now accept.
        w.send_line("draw")
        _, got = self.end(x)
        self.assertEqual(got, (n, "walt", "xena", "Game drawn by mutual agreement", "1/2-1/2"))

    def test_verdicts_wait_for_room_in_the_queue(self):
        """verdict_queue 1: a flag falling while a slow decision runs finds
        the queue full; that game waits, its clocks stopped, and is decided
        once the first verdict is in.  (victor's flag falls 0.2 s after
        tina's, inside her decision, never in the same pass.)"""
        s, t = self.pair("sam", "tina")
        u, v = self.pair("uma", "victor")
        n1 = self.resume(s, t)
        n2 = self.resume(u, v)
        _, first = self.end(s)
        self.assertEqual(first, (n1, "sam", "tina", "tina forfeits on time", "1-0"))
        _, second = self.end(u)
        self.assertEqual(second, (n2, "uma", "victor", "victor forfeits on time", "1-0"))
        self.assertEqual(self.stored(self.srv, self.ids[("uma", "victor")]),
                         ("finished", "1-0", "victor forfeits on time"))
        # The knight's side can mate (a helpmate the search finds at once), so
        # only the wait for the queue kept the second game from ending first.
        log = self.srv.log()
        ends = [log.index("game %d (#%d) finished:" % (n, self.ids[k]))
                for n, k in ((n1, ("sam", "tina")), (n2, ("uma", "victor")))]
        self.assertLess(ends[0], ends[1])


class ShutdownDuringVerdict(StoredGames):

    def test_shutdown_while_a_verdict_runs(self):
        """A verdict for a game that is gone is dropped: SIGTERM during a slow
        decision adjourns the game and chessd exits cleanly."""
        srv = self.new_server(config=dict(FAST, unwinnable_nodes=400000), tls=False)
        ids = stored_games(srv, [("alice", "bob", SLOW, 60000, 800)])
        srv.start()
        a, b = self.login(srv, "alice"), self.login(srv, "bob")
        n = self.resume(a, b)
        # Until bob's flag falls alice's flag is refused; then the decision runs for seconds.
        deciding = ("Game %d: the server is deciding" % n).encode()
        deadline = time.monotonic() + GT
        while deciding not in self.cmd(a, "flag"):
            self.assertLess(time.monotonic(), deadline)
        srv.stop()
        self.assertEqual(self.stored(srv, ids[("alice", "bob")])[0], "adjourned")


if __name__ == "__main__":
    main()
