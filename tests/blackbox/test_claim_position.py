#!/usr/bin/env python3
"""A draw claim refused in a position (the opponent can still mate, FIDE
6.9) is remembered by the position as FIDE 9.2.3 tells positions apart:
the same pieces, side to move, castling and en passant, whatever the move
counters say.  When the kings walk away and back, "draw" there is an
ordinary offer at once, not decided again; the same pieces with the other
side to move are another position, decided afresh."""
import time

from test_unwinnable_flag import StoredGames, main
from test_unwinnable_verdict import SLOW

# The decision SLOW takes (its whole budget) is over this on any machine.
DECISION_S = 0.3
WHITE_TO_MOVE = SLOW.replace(" b ", " w ")


class ClaimPosition(StoredGames):

    @classmethod
    def setUpClass(cls):
        cls.serve([("amos", "bert", WHITE_TO_MOVE, 60000, 60000)],
                  unwinnable_nodes=250000)     # SLOW takes the whole budget: long decisions

    def claim(self, claimant):
        """One "draw" that fails (it becomes an offer); the seconds it took."""
        t0 = time.monotonic()
        self.assertIn(b"Draw request sent.", self.cmd(claimant, "draw"))
        return time.monotonic() - t0

    def walk(self, w, b, moves, first):
        """Plays moves alternately, first (w or b) first."""
        order = (w, b) if first is w else (b, w)
        for i, mv in enumerate(moves):
            self.move(order[i % 2], order[1 - i % 2], mv, san=mv)

    def test_a_position_is_its_pieces_and_side_not_its_counters(self):
        w, b = self.pair("amos", "bert")
        self.resume(w, b)
        first = self.claim(b)
        self.assertGreater(first, DECISION_S, "the decision no longer takes long here")
        # Back to the same position; only the move counters differ (FEN would).
        self.walk(w, b, ["Bc1", "Bd5", "B1d2", "Bdc6"], w)
        again = self.claim(b)
        self.assertLess(again, first / 2, (first, again))
        # Black's bishop triangulates: the same pieces, now with Black to
        # move, are another position, decided afresh.
        self.walk(w, b, ["Bc1", "Bd5", "B1d2", "Be4", "Bc1", "Bec6", "B1d2"], w)
        other = self.claim(b)
        self.assertGreater(other, DECISION_S, (first, again, other))
        self.assertGreater(other, again * 2, (first, again, other))


if __name__ == "__main__":
    main()
