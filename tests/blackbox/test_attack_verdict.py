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

from test_unwinnable_flag import StoredGames, main
from test_unwinnable_verdict import SLOW

# The decision SLOW takes (its whole budget) is over this on any machine.
DECISION_S = 0.3


class ClaimSpam(StoredGames):

    @classmethod
    def setUpClass(cls):
        # SLOW has Black to move; WHITE_TO_MOVE is SLOW with White to move.
        cls.serve([
            ("ursa", "vlad", SLOW, 60000, 60000),
            ("wynn", "xavi", SLOW.replace(" b ", " w "), 60000, 60000),
            ("yuri", "zora", SLOW.replace(" b ", " w "), 60000, 60000),
        ], unwinnable_nodes=250000)    # SLOW takes the whole budget: long decisions

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

    def claim_by_black(self, white, black, side):
        """white and black resume; black makes one claim, which takes long.
        The clock of side (0 White, 1 Black) before and after it (ms, as that
        side's board shows it), and the seconds the claim took."""
        w, b = self.pair(white, black)
        self.resume(w, b)
        watcher = (w, b)[side]
        before = self.clocks(watcher)[side]
        spent = self.claim(b)
        after = self.clocks(watcher)[side]
        self.assertGreater(spent, DECISION_S, "the decision no longer takes long here")
        return before, after, spent

    def test_a_claim_on_ones_own_turn_costs_ones_own_time(self):
        before, after, spent = self.claim_by_black("ursa", "vlad", 1)    # vlad is on move
        # What the claim took is off vlad's clock (ms clocks), not free.
        self.assertGreaterEqual(before - after, int(spent * 1000 * 0.9), (before, after, spent))

    def test_a_claim_on_the_opponents_turn_stops_the_opponents_clock(self):
        # wynn is on move, and may not move meanwhile
        before, after, spent = self.claim_by_black("wynn", "xavi", 0)
        self.assertLess(before - after, int(spent * 1000 * 0.5), (before, after, spent))

    def test_a_refused_claim_is_not_decided_again_in_the_same_position(self):
        w, b = self.pair("yuri", "zora")
        self.resume(w, b)
        first = self.claim(b)
        self.assertGreater(first, DECISION_S, "the decision no longer takes long here")
        again = sum(self.claim(b) for _ in range(5))
        self.assertLess(again, first, (first, again))
        # and yuri may move at once: no decision keeps him waiting
        w.send_line("Be1")
        self.assertEqual(self.expect12(b)["san"], "Be1")


if __name__ == "__main__":
    main()
