#!/usr/bin/env python3
"""The 6.9 decision from an attacker's side, black box.  A player who says
"draw", claiming the opponent cannot mate, stops the clocks while it is
decided; that must not be free thinking time nor a way to keep the
opponent from moving:
- a claim made on the claimant's own turn is decided on the claimant's time;
- a claim on the opponent's turn keeps the opponent's clock stopped (they
  may not move meanwhile);
- a claim refused in a position is not decided again in it (the verdict
  would be the same): "draw" over and over is an ordinary offer at once."""
import time

from chessd_harness import Server
from games_harness import FAST
from test_unwinnable_flag import StoredGames, main, stored_games
from test_unwinnable_verdict import SLOW

# The decision SLOW takes (its whole budget) is over this on any machine.
DECISION_S = 0.3


class ClaimSpam(StoredGames):

    @classmethod
    def setUpClass(cls):
        cfg = dict(FAST)
        cfg.update(unwinnable_nodes=600000)     # SLOW takes the whole budget: long decisions
        cls.srv = Server(config=cfg, tls=False)
        try:
            # SLOW has Black to move; WHITE_TO_MOVE is SLOW with White to move.
            cls.ids = stored_games(cls.srv, [
                ("ursa", "vlad", SLOW, 60000, 60000),
                ("wynn", "xavi", SLOW.replace(" b ", " w "), 60000, 60000),
                ("yuri", "zora", SLOW.replace(" b ", " w "), 60000, 60000),
            ])
            cls.srv.start()
        except BaseException:
            cls.srv.cleanup()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.srv.cleanup()

    def clocks(self, c):
        """Both clocks (ms) as a refreshed board shows them."""
        c.send_line("refresh")
        d = self.expect12(c)
        return d["wclock"], d["bclock"]

    def claim(self, claimant):
        """One "draw" that fails (it becomes an offer); the seconds it took."""
        t0 = time.monotonic()
        self.assertIn(b"Draw request sent.", self.cmd(claimant, "draw"))
        return time.monotonic() - t0

    def test_a_claim_on_ones_own_turn_costs_ones_own_time(self):
        w, b = self.login(self.srv, "ursa"), self.login(self.srv, "vlad")
        self.resume(w, b)
        _, before = self.clocks(b)
        spent = self.claim(b)                   # vlad is on move
        _, after = self.clocks(b)
        self.assertGreater(spent, DECISION_S, "the decision no longer takes long here")
        # What the claim took is off vlad's clock (ms clocks), not free.
        self.assertGreaterEqual(before - after, int(spent * 1000 * 0.9), (before, after, spent))

    def test_a_claim_on_the_opponents_turn_stops_the_opponents_clock(self):
        w, b = self.login(self.srv, "wynn"), self.login(self.srv, "xavi")
        self.resume(w, b)
        before, _ = self.clocks(w)
        spent = self.claim(b)                   # wynn is on move, and may not move meanwhile
        after, _ = self.clocks(w)
        self.assertGreater(spent, DECISION_S, "the decision no longer takes long here")
        self.assertLess(before - after, int(spent * 1000 * 0.5), (before, after, spent))

    def test_a_refused_claim_is_not_decided_again_in_the_same_position(self):
        w, b = self.login(self.srv, "yuri"), self.login(self.srv, "zora")
        self.resume(w, b)
        first = self.claim(b)
        self.assertGreater(first, DECISION_S, "the decision no longer takes long here")
        again = sum(self.claim(b) for _ in range(5))
        self.assertLess(again, first, (first, again))
        # and yuri may move at once: no decision keeps him waiting
        w.send_line("Bh5")
        self.assertEqual(self.expect12(b)["san"], "Bh5")


if __name__ == "__main__":
    main()
