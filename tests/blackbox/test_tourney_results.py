"""How a finished tournament announces first place.

One player alone on top is the winner.  Players level on points whom a
tie-break separates: the winner is named with the tie-break that decided
and who was level.  Players whom the tie-breaks do not separate share first
place, and every one of them is named.  The TRF ranks say the same.
"""
import re

from games_harness import GT
from test_tourney import TourneyTestCase, text

FINISHED_RE = re.compile(rb"Tourney \d+ \([^)]*\): finished\.  ([^\n\r]*)  See \"tourney show \d+\"\.")


class FirstPlaceTest(TourneyTestCase):

    def run_rr(self, names, decide, tiebreaks=None):
        """A round robin of names; decide(wno, bno) gives each game's result.
        Returns the finish announcement's text, the start numbers and the
        director's connection."""
        srv = self.tourney_server(names + ["director"])
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Club rr 0 5 0 unrated")
        for n in names:
            self.assertIn(b"You join tourney", self.cmd(clients[n], "tourney join %d" % tid))
        if tiebreaks:
            self.assertIn(b"tiebreaks set",
                          self.cmd(director, "tourney set %d tiebreaks %s" % (tid, tiebreaks)))
        self.assertIn(b"starts:", self.cmd(director, "tourney start %d" % tid))
        numbers = {}
        rounds = len(names) - 1 if len(names) % 2 == 0 else len(names)
        for rnd in range(1, rounds + 1):
            boards, _, _ = self.wait_round(director, tid, rnd)
            for b in boards:
                numbers[b["wno"]], numbers[b["bno"]] = b["white"], b["black"]
                self.play_board(clients, b, decide(b["wno"], b["bno"]))
        watcher = clients[names[0]]
        watcher.expect(FINISHED_RE, GT)
        return watcher.match.group(1).decode(), numbers, director, tid

    def trf_ranks(self, director, tid):
        out = text(self.cmd(director, "tourney trf %d" % tid))
        return {int(l[4:8]): int(l[85:89]) for l in out.splitlines() if l.startswith("001")}

    def test_all_level_share_first_place(self):
        said, numbers, director, tid = self.run_rr(["ann", "ben", "cyd"], lambda w, b: "1/2-1/2")
        self.assertEqual(said, "First place is shared by %s, %s and %s with 1 point each." % (
            numbers[1], numbers[2], numbers[3]))
        self.assertEqual(self.trf_ranks(director, tid), {1: 1, 2: 1, 3: 1})
        _, rows = self.standings(director, tid)
        self.assertEqual([r["rank"] for r in rows], [1, 1, 1])

    def test_a_single_winner(self):
        said, numbers, _, _ = self.run_rr(
            ["cat", "dan", "eddy"],
            lambda w, b: "1-0" if w == 2 else "0-1" if b == 2 else "1/2-1/2")
        self.assertEqual(said, "Winner: %s with 2 points." % numbers[2])

    def test_level_on_points_decided_by_tie_break(self):
        # Start numbers 1 and 2 end on 2 points; 2's Sonneborn-Berger is higher
        # (2.75 to 2.25): 1 beat 4 (0.5), 2 beat 3 (1.5), the rest drawn but 3-4.
        wins = {frozenset((1, 4)): 1, frozenset((2, 3)): 2, frozenset((3, 4)): 3}

        def decide(w, b):
            winner = wins.get(frozenset((w, b)))
            return "1/2-1/2" if winner is None else "1-0" if winner == w else "0-1"

        said, numbers, director, tid = self.run_rr(["eve", "fay", "gus", "hal"], decide,
                                                   tiebreaks="SB,WIN")
        self.assertEqual(said, "Winner: %s with 2 points, ahead of %s on tie-break (SB)." % (
            numbers[2], numbers[1]))
        self.assertEqual(self.trf_ranks(director, tid), {2: 1, 1: 2, 3: 3, 4: 4})
        _, rows = self.standings(director, tid)
        self.assertEqual([(r["no"], r["rank"]) for r in rows], [(2, 1), (1, 2), (3, 3), (4, 4)])


if __name__ == "__main__":
    import unittest
    unittest.main(verbosity=2)
