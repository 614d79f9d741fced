"""Tournament boards that a player keeps aborting, black box: an abort does
not buy time (the forfeit deadline counts from the pairing), and a side
that aborts the board's game tourney_aborts times loses it by forfeit.
"""
import re
import time

from test_tourney import TourneyTestCase
from games_harness import GT, main


class TourneyAbortTest(TourneyTestCase):

    def two_player_round(self, config=None):
        names = ["aba", "abb"]
        srv = self.tourney_server(names + ["director"], config=config)
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Stall swiss 1 5 0 unrated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        self.cmd(director, "tourney start %d" % tid)
        boards, _, _ = self.wait_round(director, tid, 1)
        started = time.monotonic()
        self.assertEqual(len(boards), 1)
        board = boards[0]
        return srv, director, clients, tid, board, started

    def result(self, director, tid, timeout=GT):
        """Waits until board 1 of round 1 has a result; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            _, boards, _, _ = self.pairings(director, tid, 1)
            if boards[0]["result"] != "*":
                return boards[0]["result"]
            if time.monotonic() > deadline:
                raise AssertionError("board 1 still unsettled: %r" % boards)
            time.sleep(0.1)

    def test_repeated_aborts_forfeit_the_aborting_side(self):
        srv, director, clients, tid, board, _ = self.two_player_round()
        white, black = clients[board["white"]], clients[board["black"]]
        # The first abort restarts the board's game, as before.
        out = self.cmd(white, "abort")
        self.assertIn(b"Game aborted on move 1", out)
        white.expect(re.compile(rb"\{Game \d+ \(aba vs\. abb\) Creating unrated blitz match\.\}|"
                                rb"\{Game \d+ \(abb vs\. aba\) Creating unrated blitz match\.\}"),
                     GT)
        # The second loses the board: white aborted, black wins by forfeit.
        self.assertIn(b"Game aborted on move 1", self.cmd(white, "abort"))
        self.assertEqual(self.result(director, tid), "-+")
        self.wait_state(director, tid, "finished")
        self.assertNotIn(b"Creating", white.read_for(0.5))
        srv.stop()

    def test_an_abort_does_not_move_the_forfeit_deadline(self):
        forfeit_s = 4.0
        srv, director, clients, tid, board, started = self.two_player_round(
            {"tourney_forfeit_ms": int(forfeit_s * 1000)})
        white, black = clients[board["white"]], clients[board["black"]]
        # Well into the time allowed, white aborts and leaves.
        time.sleep(3.5)
        self.assertIn(b"Game aborted on move 1", self.cmd(white, "abort"))
        white.send_line("quit")
        white.expect_closed(GT)
        # Forfeited when the pairing's deadline is up, not forfeit_ms after the abort.
        self.assertEqual(self.result(director, tid), "-+")
        elapsed = time.monotonic() - started
        self.assertLess(elapsed, forfeit_s + 2.0, "forfeit came %.1f s after the pairing" % elapsed)
        srv.stop()


if __name__ == "__main__":
    main()
