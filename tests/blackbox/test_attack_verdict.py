#!/usr/bin/env python3
"""The 6.9 decision from an attacker's side, black box: a player on move who
says "draw" over and over, each time claiming the opponent cannot mate,
must not get the decisions' time for free.  The claimant's own clock runs
while a claim made on their turn is decided; the opponent's clock stays
stopped for a claim made on the opponent's turn (they may not move then)."""
import time

from chessd_harness import Server
from games_harness import FAST, GT
from test_unwinnable_flag import StoredGames, main, stored_games
from test_unwinnable_verdict import SLOW

CLAIMS = 3


class ClaimSpam(StoredGames):

    @classmethod
    def setUpClass(cls):
        cfg = dict(FAST)
        cfg.update(unwinnable_nodes=600000)     # SLOW takes the whole budget: long decisions
        cls.srv = Server(config=cfg, tls=False)
        try:
            # SLOW has Black to move; the second game has White to move.
            cls.ids = stored_games(cls.srv, [
                ("ursa", "vlad", SLOW, 60000, 60000),
                ("wynn", "xavi", SLOW.replace(" b ", " w "), 60000, 60000),
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

    def spam(self, claimant):
        t0 = time.monotonic()
        for _ in range(CLAIMS):
            out = self.cmd(claimant, "draw")
            self.assertIn(b"Draw request sent.", out)
        return time.monotonic() - t0

    def test_claims_on_ones_own_turn_cost_ones_own_time(self):
        w, b = self.login(self.srv, "ursa"), self.login(self.srv, "vlad")
        self.resume(w, b)
        _, before = self.clocks(b)
        spent = self.spam(b)                    # vlad is on move
        _, after = self.clocks(b)
        self.assertGreater(spent, CLAIMS * 0.3, "the decisions no longer take long here")
        # Every millisecond the claims took is off vlad's clock (ms clocks).
        self.assertGreaterEqual(before - after, int(spent * 1000 * 0.9), (before, after, spent))

    def test_claims_on_the_opponents_turn_stop_the_opponents_clock(self):
        w, b = self.login(self.srv, "wynn"), self.login(self.srv, "xavi")
        self.resume(w, b)
        before, _ = self.clocks(w)
        spent = self.spam(b)                    # wynn is on move, and may not move meanwhile
        after, _ = self.clocks(w)
        self.assertGreater(spent, CLAIMS * 0.3, "the decisions no longer take long here")
        self.assertLess(before - after, int(spent * 1000 * 0.5), (before, after, spent))


if __name__ == "__main__":
    main()
